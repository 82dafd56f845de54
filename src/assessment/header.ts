import { LOG_VERSION, type LogHeader } from "../log/index.js";
import { type Calibration, type ChanceFloorPlan, calibrationDigest, floorAnswers, type Judge } from "../scoring/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { type IdRemap, WeakMemo } from "../util/index.js";
import { runtimeVersions } from "../version.js";
import type { OrgView } from "../world/index.js";
import type { AssessmentData } from "./assessment-data.js";
import type { RunSpec } from "./run-spec.js";
import type { ChosenTasks } from "./select.js";

export interface HeaderInput {
  readonly spec: RunSpec;
  readonly chosen: ChosenTasks;
  readonly data: Pick<AssessmentData, "tasks" | "dataset" | "sources">;
  readonly view: Pick<OrgView, "plan">;
  /** A paired run's clean view (drift and rot none). */
  readonly cleanView?: Pick<OrgView, "plan"> | undefined;
  readonly judge: Judge;
  readonly calibration: Calibration;
  readonly remap: IdRemap | undefined;
  /** Was the operator's secret part of the remap's key? */
  readonly keyed: boolean;
  readonly createdAt: Date;
}

/** What a run is, as its log's first line says: the spec whole, and what the runner made of it. */
export function buildHeader(input: HeaderInput): LogHeader {
  const { spec, chosen, data, judge } = input;
  const { config } = spec;
  return {
    kind: "header",
    logVersion: LOG_VERSION,
    spec,
    createdAt: input.createdAt.toISOString(),
    greenAgent: { name: "Entropic CRMArena", versions: runtimeVersions() },
    weights: config.weights,
    selection: {
      mode: chosen.selection.mode,
      size: chosen.selection.selectedBeforeSharding,
      shardIndex: config.shard_index,
      numShards: config.num_shards,
      taskIdxs: chosen.selection.tasks.map((task) => task.idx),
    },
    data: { dataset: data.dataset, tasks: { ...data.sources.tasks }, org: { ...data.sources.org }, check: chosen.check },
    entropy: input.view.plan,
    ...(input.cleanView ? { cleanEntropy: input.cleanView.plan } : {}),
    judge: { mode: judge.mode, primaryModel: judge.models.primary, cheapModel: judge.models.cheap },
    calibration: { source: input.calibration.source, digest: calibrationDigest(input.calibration) },
    idRemap: input.remap ? { digest: input.remap.digest, keyed: input.keyed } : null,
    chanceFloor: chanceFloorOf(data.tasks.tasks, config.remap_ids),
  };
}

/**
 * The chance floor of a task set, worked out once per task set and `remapIds`: it reads every
 * task of the set (2,140 of them, not the request's few). Each header gets its own copy, so that
 * nothing one request does to its header reaches another's.
 */
function chanceFloorOf(library: readonly TaskRecord[], remapIds: boolean): ChanceFloorPlan {
  return structuredClone(floorPlans.get(library, remapIds, () => floorAnswers(library, { remapIds })));
}

/** Keyed by the task set's array: a dataset loaded again (or dropped) makes and frees its own. */
const floorPlans = new WeakMemo<readonly TaskRecord[], boolean, ChanceFloorPlan>();
