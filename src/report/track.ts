import { createHash } from "node:crypto";
import { z } from "zod";
import { TWINS, TWINS_VERSION } from "../datasets/index.js";
import type { AssessmentLog } from "../log/index.js";
import { defaultWeights } from "../scoring/index.js";

/**
 * The ranked track: the one configuration whose runs the leaderboard ranks against each other.
 *
 * A run is on the track's *fingerprint* when every episode it ran is an episode of the track (the
 * same task set built from the same public file, the same world, budget and scoring); it is
 * *ranked* when, on top of that, it is one plain pass over all the track's tasks. Trials, the
 * paired clean twin, a task selection, a mismatch allowance and an unfinished run change what a
 * run measures or how much of it, not what one episode is: they leave the fingerprint alone and
 * are reasons why the run is not ranked. So the shards of a full run (each a share of all the
 * tasks) are ranked and add up, and a paired diagnostic run sits on the track's fingerprint (its
 * robustness is shown beside the ranked runs) without being ranked.
 *
 * Why each choice:
 * - the twins of the 2,140 B2B tasks, not the public task file: a purple holding the public answer
 *   file passes 54.9% of the public tasks on the default config (the floor is 30.2%); on the twins
 *   the answers are computed on a generated org, keyed by the operator's secret.
 * - Ids remapped with the operator's secret: without it the bijection is a function of the seed,
 *   which the purple is shown, and could be undone.
 * - single trial: every ranked run costs the same and is read the same way (pass@1 over tasks);
 *   `trials` runs are for the All Runs table (pass^k, intervals).
 * - not paired: a paired run plays each task twice (perturbed, then clean); its clean rate is
 *   what robustness is read against, and a purple can fail it on purpose. Paired is a
 *   diagnostic mode.
 * - the registry's default weights: the Entropic score is a weighted mean, and weights chosen per
 *   run would move it.
 */

/** SHA-256 of CRMArena-Pro's public `tasks_b2b.json` at the revision `data fetch` pins (src/datasets/crmarena-pro-b2b/). */
export const PUBLIC_B2B_TASKS_SHA256 = "38b8bc9c6cd029382ac15d6697ebe74deb507260c2b326adcccd448cca9feeba";

/** The tasks of that file: with the sha, what "all the track's tasks" is (less the source tasks the twin builder had no twin for). */
export const PUBLIC_B2B_TASK_COUNT = 2140;

/** How a run's record Ids were refreshed: with the operator's secret in the key, without it (seed alone), or not at all. */
export const ID_REMAPS = ["keyed", "unkeyed", "off"] as const;

/** What makes an episode an episode of a track: the values hashed into its fingerprint. */
export const TrackSchema = z.object({
  /** The registered dataset the tasks came from. */
  dataset: z.string(),
  /** SHA-256 of the file a built task set (the twins) was built from; null for a set read as it is. */
  source_sha256: z.string().nullable(),
  /** The twin builder's version (TWINS_VERSION); null for a set that is not built. */
  twins_version: z.number().int().nullable(),
  drift_level: z.string(),
  rot_level: z.string(),
  max_steps: z.number().int(),
  id_remap: z.enum(ID_REMAPS),
  mode: z.string(),
  /** The perturbation kinds a run kept (config `perturbations`), sorted; "all" without a filter. */
  perturbations: z.union([z.literal("all"), z.array(z.string())]),
  /** The dimensions' weights in the Entropic score. */
  weights: z.record(z.string(), z.number()),
});
export type Track = z.infer<typeof TrackSchema>;

/** The keys every results object carries about its standing on the leaderboard. */
export const RankingSchema = z.object({
  /** One plain pass (or a shard of one) over all the ranked track's tasks, on its fingerprint. */
  ranked: z.boolean(),
  /** Why not, one sentence each; empty when ranked. */
  unranked_reasons: z.array(z.string()),
  /** The run's own values of the track's keys. */
  track: TrackSchema,
  /** `trk-` and 16 hex digits of SHA-256 over `track` as canonical JSON (keys sorted). */
  track_fingerprint: z.string().regex(/^trk-[0-9a-f]{16}$/),
});
export type Ranking = z.infer<typeof RankingSchema>;

/** The ranked track, read from the registries now (a dimension registered later brings its default weight). */
export function rankedTrack(): Track {
  return TrackSchema.parse({
    dataset: TWINS.name,
    source_sha256: PUBLIC_B2B_TASKS_SHA256,
    twins_version: TWINS_VERSION,
    drift_level: "medium",
    rot_level: "medium",
    max_steps: 10,
    id_remap: "keyed",
    mode: "single_turn",
    perturbations: "all",
    weights: defaultWeights(),
  });
}

/** A ranked run's plain-pass settings beside the fingerprint: trials, paired. */
export const RANKED_TRIALS = 1;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, canonical(item)]),
  );
}

/** A track's fingerprint: the same values give the same one in any process, whatever the key order. */
export function trackFingerprint(track: Track): string {
  return `trk-${createHash("sha256")
    .update(JSON.stringify(canonical(track)))
    .digest("hex")
    .slice(0, 16)}`;
}

/** The fingerprint the leaderboard's queries rank. */
export const rankedTrackFingerprint = () => trackFingerprint(rankedTrack());

/** The config keys this module reads (the run spec's config, validated when it was logged). */
interface TrackConfig {
  drift_level?: string;
  rot_level?: string;
  max_steps?: number;
  mode?: string;
  perturbations?: string[];
  trials?: number;
  paired?: boolean;
  allow_data_mismatch?: boolean;
}

/** The run's own track, from its log header. */
export function trackOf(header: AssessmentLog["header"]): Track {
  const config = header.spec.config as TrackConfig;
  const built = header.data.tasks.builtFrom;
  return {
    dataset: header.data.dataset,
    source_sha256: built?.source.sha256 ?? null,
    twins_version: built?.version ?? null,
    drift_level: config.drift_level ?? "none",
    rot_level: config.rot_level ?? "none",
    max_steps: config.max_steps ?? 10,
    id_remap: header.idRemap === null ? "off" : header.idRemap.keyed ? "keyed" : "unkeyed",
    mode: config.mode ?? "single_turn",
    perturbations: config.perturbations ? [...config.perturbations].sort() : "all",
    weights: { ...header.weights },
  };
}

const sameWeights = (a: Record<string, number>, b: Record<string, number>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] !== undefined && Math.abs(b[key]! - value) < 1e-9);

/** Why a run's track is not the ranked one, key by key. */
function trackReasons(run: Track, ranked: Track): string[] {
  const reasons: string[] = [];
  if (run.dataset !== ranked.dataset) reasons.push(`dataset ${run.dataset}: the ranked track runs ${ranked.dataset}`);
  else {
    if (run.source_sha256 !== ranked.source_sha256)
      reasons.push(`the ${run.dataset} were built from another task file (sha256 ${run.source_sha256 ?? "unknown"}), not the public one`);
    if (run.twins_version !== ranked.twins_version) reasons.push(`twins version ${run.twins_version ?? "unknown"}: the ranked track's is ${ranked.twins_version}`);
  }
  if (run.drift_level !== ranked.drift_level || run.rot_level !== ranked.rot_level)
    reasons.push(`drift ${run.drift_level}, rot ${run.rot_level}: the ranked track runs drift ${ranked.drift_level}, rot ${ranked.rot_level}`);
  if (run.max_steps !== ranked.max_steps) reasons.push(`max_steps ${run.max_steps}: the ranked track's is ${ranked.max_steps}`);
  if (run.id_remap === "off") reasons.push("remap_ids off: the dataset's own record Ids, which an answer file of the public tasks names");
  else if (run.id_remap === "unkeyed") reasons.push("Ids remapped without the operator's secret: the map follows from the seed, which the purple is shown");
  if (run.mode !== ranked.mode) reasons.push(`mode ${run.mode}: the ranked track is ${ranked.mode}`);
  if (run.perturbations !== "all") reasons.push(`a perturbation filter (${run.perturbations.join(", ")}): the ranked track applies every kind`);
  if (!sameWeights(run.weights, ranked.weights)) reasons.push("custom weights: the Entropic score of the ranked track uses the default weights");
  return reasons;
}

/**
 * Did the run select all its task set's tasks? Selection `all`, or a selection as large as the
 * whole twin set (the gateway's `num_instances` at the set's size is a `task_limit` sample of all
 * of them). The leaderboard checks the distinct tasks again over the shards.
 */
function allTasks(header: AssessmentLog["header"]): boolean {
  if (header.selection.mode === "all") return true;
  const built = header.data.tasks.builtFrom;
  return built !== undefined && header.selection.size >= PUBLIC_B2B_TASK_COUNT - built.missing.length;
}

/** Why a run on the track's fingerprint is still not one plain pass over all its tasks. */
function passReasons(log: AssessmentLog): string[] {
  const config = log.header.spec.config as TrackConfig;
  const reasons: string[] = [];
  if ((config.trials ?? 1) !== RANKED_TRIALS) reasons.push(`trials ${config.trials}: the ranked track runs each task once`);
  if (config.paired === true)
    reasons.push("paired: a diagnostic mode (each task also runs clean, so its episodes are not the track's one plain pass); its robustness is shown beside the ranked runs");
  if (!allTasks(log.header)) reasons.push(`a partial task set (${log.header.selection.mode}, ${log.header.selection.size} tasks): the ranked track runs all tasks`);
  if (config.allow_data_mismatch === true) reasons.push("allow_data_mismatch: the run was allowed tasks whose records the org lacks");
  if (log.footer.status !== "completed") reasons.push(`status ${log.footer.status}: not every task ran`);
  return reasons;
}

/** The results' ranking keys of a run, from its log alone. */
export function rankingOf(log: AssessmentLog): Ranking {
  const track = trackOf(log.header);
  const reasons = [...trackReasons(track, rankedTrack()), ...passReasons(log)];
  return { ranked: reasons.length === 0, unranked_reasons: reasons, track, track_fingerprint: trackFingerprint(track) };
}

/**
 * The ranking of shards merged into one run: ranked when every shard is, on one fingerprint;
 * each shard's reasons once, in order.
 */
export function mergedRanking(shards: readonly Ranking[]): Ranking {
  const first = shards[0]!;
  const fingerprints = new Set(shards.map((shard) => shard.track_fingerprint));
  const reasons = [...new Set(shards.flatMap((shard) => shard.unranked_reasons))];
  if (fingerprints.size > 1) reasons.push(`the shards ran on different tracks (${[...fingerprints].join(", ")})`);
  return { ranked: reasons.length === 0 && shards.every((shard) => shard.ranked), unranked_reasons: reasons, track: first.track, track_fingerprint: first.track_fingerprint };
}
