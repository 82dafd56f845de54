import { dimensionColumn, orderDimensions } from "../scoring/index.js";
import { type AdversaryReport, adversarySection, NOT_ASKED_ADVERSARY } from "./adversary/index.js";
import type { GamingEntry } from "./answer-key.js";
import type { CheckResult } from "./checks.js";
import { figure, GROUPS, type RealFigure, type RealMeasurement, type VerdictName } from "./real.js";
import { REAL_SLACK_POINTS } from "./real-checks.js";
import type { RosterEntry } from "./roster.js";
import type { Measurement, SuiteOptions } from "./run.js";
import { threatModelSection } from "./threat-model.js";
import { TWIN_KEY_SPREAD_GOAL_POINTS, type TwinKeysReport } from "./twin-keys.js";
import { ANALYST_GOALS, categoryPassRates, episodesOf, summariseMissing, TWIN_LOOKUP_SLACK_POINTS, type TwinsReport } from "./twins.js";

const cell = (value: number | null) => (value === null ? "n/a" : value.toFixed(1));
const pct = (rate: number) => (100 * rate).toFixed(1);
const liftCell = (value: number | null) => (value === null ? "n/a" : (100 * value).toFixed(1));

/** The sample part: the roster run on the bundled sample at every level pair. */
export interface SampleReport {
  readonly measurements: readonly Measurement[];
  readonly checks: readonly CheckResult[];
  readonly roster: readonly RosterEntry[];
  readonly options: Pick<SuiteOptions, "levels" | "seeds">;
  readonly dataLabel: string;
}

/** The real-distribution part, or why it is missing (the real task file is not on this machine). */
export type RealReport =
  | {
      readonly measurements: readonly RealMeasurement[];
      readonly checks: readonly CheckResult[];
      readonly roster: readonly GamingEntry[];
      /** Where the task file came from (a path, as the operator gave it). */
      readonly source: string;
      /** What the `success` column is (the benchmark's verdict, or the metric standing in for it). */
      readonly successSource: string;
    }
  | { readonly missing: string };

/** docs/validity.md: the real task distribution without the org, then every sample purple's figures per level pair. */
export function validityMarkdown(
  sample: SampleReport,
  real: RealReport,
  twins: TwinsReport = { missing: "not asked for (`npm run validity -- --twins`)" },
  adversary: AdversaryReport = NOT_ASKED_ADVERSARY,
): string {
  const checks = [...("missing" in real ? [] : real.checks), ...("missing" in twins ? [] : twins.checks), ...sample.checks, ...("missing" in adversary ? [] : adversary.checks)];
  const failed = checks.filter((check) => !check.ok);
  const lines = [
    "# Validity: what each kind of purple scores",
    "",
    "Written by `npm run validity` (do not edit by hand). Two parts: the purples that need no org, run on the real",
    "CRMArena-Pro task file (every task, as the green agent would show it, with and without the sandbox refresh), and every",
    "purple of the roster run on the bundled sample with its org at each drift × rot level pair; with `--twins`, a third: the",
    "twin set (each real task's wording on a generated full-size org, built per seed) run by the reference and degenerate purples.",
    "",
    ...threatModelSection(),
    `## Checks: ${checks.length - failed.length} of ${checks.length} hold`,
    "",
    ...(failed.length === 0
      ? ["Every rule holds in every world (see `src/validity/checks.ts` and `src/validity/real-checks.ts`)."]
      : failed.map((check) => `- FAILED (${check.where}): ${check.rule} (${check.detail})`)),
    "",
    ...("missing" in real ? missingSection(real.missing) : realSection(real)),
    ...("missing" in twins ? ["## Twins (full size, with their org)", "", `Not measured in this run: ${twins.missing}.`, ""] : twinsSection(twins)),
    ...sampleSection(sample),
    ...adversarySection(adversary),
  ];
  return lines.join("\n");
}

function missingSection(reason: string): string[] {
  return ["## Real task distribution (no org)", "", `Not measured in this run: ${reason}.`, ""];
}

function realSection(real: Exclude<RealReport, { missing: string }>): string[] {
  const first = real.measurements[0];
  const tasks = first?.outcomes.length ?? 0;
  const modes = [...new Map(real.measurements.map((m) => [m.mode.label, m.mode])).values()];
  const keyed = real.measurements.find((m) => m.mode.remapIds && m.mode.secret !== "");
  const idTasks = first ? first.outcomes.filter((outcome) => outcome.idAnswer).length : 0;
  const idCategories = first ? new Set(first.outcomes.filter((outcome) => outcome.idCategory).map((outcome) => outcome.category)).size : 0;
  const categories = first ? new Set(first.outcomes.map((outcome) => outcome.category)).size : 0;
  const lines = [
    `## Real task distribution (${tasks.toLocaleString("en-US")} tasks, no org)`,
    "",
    `Every task of ${real.source}, shown as the green agent shows it: the prompt and contexts with every record Id remapped`,
    "(`remap.text`), the opaque episode id as `task_id`, and the ground truth remapped as the run scores it; or, with the remap",
    "off, everything as in CRMArena-Pro (`task_id` is the dataset index). The real org is not needed: these purples never",
    "query. Drift and rot need the org, so they are not applied; what is measured is what the public task file is worth.",
    `Modes: ${modes.map((mode) => `${mode.label}${mode.remapIds ? (mode.secret ? " (operator secret in the key)" : " (the seed alone keys the remap)") : ""}`).join("; ")}.`,
    `Answers are scored with the heuristic judge (no model): \`original\` is CRMArena-Pro's metric, \`success\` is ${real.successSource}.`,
    "The floor is the chance floor (`src/scoring/floor.ts`): per category the most frequent ground truth of the task file,",
    "naming no Id when Ids are remapped, a refusal on the privacy categories. Lift = (pass − floor) / (1 − floor).",
    `Id categories: the ${idCategories} of ${categories} categories some of whose ground truths name a record Id (${idTasks.toLocaleString("en-US")} of the ${tasks.toLocaleString("en-US")} tasks have such an answer).`,
    "",
    "| purple | kind | what it does |",
    "|---|---|---|",
    ...real.roster.map((entry) => `| ${entry.name} | ${entry.kind} | ${entry.description} |`),
    "",
  ];
  for (const verdict of ["success", "original"] as const) {
    lines.push(
      `### ${verdict === "success" ? "The benchmark's verdict (`success`)" : "CRMArena-Pro's metric (`original`)"}: pass, floor, lift (%)`,
      "",
      "| purple | mode | pass | floor | lift | Id cat. pass | Id cat. floor | Id cat. lift | other pass | other floor | other lift |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const mode of modes)
      for (const m of real.measurements.filter((candidate) => candidate.mode.label === mode.label)) {
        const cells = GROUPS.flatMap((group) => figureCells(figure(m.outcomes, verdict, group)));
        lines.push(`| ${m.strategy} | ${mode.label} | ${cells.join(" | ")} |`);
      }
    lines.push("");
  }
  if (keyed) lines.push(...perCategoryTable(real.measurements.filter((m) => m.mode.label === keyed.mode.label)));
  lines.push(...realFindings(real.measurements));
  return lines;
}

const figureCells = (f: RealFigure) => [pct(f.pass), pct(f.floor), liftCell(f.lift)];

/** Per category, the floor and each purple's pass rate (`success`) in the first keyed remap mode: where the Id effect shows. */
function perCategoryTable(measurements: readonly RealMeasurement[]): string[] {
  const first = measurements[0]!;
  const categories = [...new Set(first.outcomes.map((outcome) => outcome.category))];
  const idCategory = new Set(first.outcomes.filter((outcome) => outcome.idCategory).map((outcome) => outcome.category));
  return [
    `### Per category, ${first.mode.label} (\`success\`, pass %)`,
    "",
    `| category | Id | floor | ${measurements.map((m) => m.strategy).join(" | ")} |`,
    `|---|---|---:|${measurements.map(() => "---:").join("|")}|`,
    ...categories.map((category) => {
      const floor = figure(first.outcomes, "success", "all", category);
      return `| ${category} | ${idCategory.has(category) ? "yes" : ""} | ${pct(floor.floor)} | ${measurements.map((m) => pct(figure(m.outcomes, "success", "all", category).pass)).join(" | ")} |`;
    }),
    "",
  ];
}

/** What remapping defeats and what it cannot, in the measured figures. */
function realFindings(measurements: readonly RealMeasurement[]): string[] {
  const keyed = measurements.filter((m) => m.mode.remapIds && m.mode.secret !== "");
  const at = (pool: readonly RealMeasurement[], strategy: string) => pool.find((m) => m.strategy === strategy);
  const text = at(keyed, "text-lookup");
  const prior = at(keyed, "category-prior");
  const translated = at(keyed, "translated-lookup");
  const unkeyed = measurements.filter((m) => m.mode.remapIds && m.mode.secret === "");
  const replay = at(unkeyed, "seed-replay");
  const off = measurements.filter((m) => !m.mode.remapIds);
  const index = at(off, "index-lookup");
  const lines = ["### What the sandbox refresh defeats, and what it cannot", ""];
  if (index && text && prior) {
    const verdict: VerdictName = "success";
    const idOff = figure(index.outcomes, verdict, "id");
    const stateless = keyed.filter((m) => m.kind === "lookup" && !m.remembersRun && m.mode.label === text.mode.label);
    const idOn = stateless.map((m) => figure(m.outcomes, verdict, "id")).reduce((best, f) => (f.pass > best.pass ? f : best));
    const otherOn = figure(text.outcomes, verdict, "other");
    const all = figure(text.outcomes, verdict);
    lines.push(
      `- **Id answers.** Without the remap the answer key passes ${pct(idOff.pass)}% of the Id categories; with it, the best a lookup does there is`,
      `  ${pct(idOn.pass)}%, against the prior's ${pct(figure(prior.outcomes, verdict, "id").pass)}%: a dataset Id names no record of the run, so only the None answers remain.`,
      `- **Answers that are not Ids** (months, states, BANT factors, stages, free text, None, refusals) are still memorised by matching the text: the text lookup passes ${pct(otherOn.pass)}% of the other categories`,
      `  (floor ${pct(otherOn.floor)}%), ${pct(all.pass)}% overall against a floor of ${pct(all.floor)}% (lift ${liftCell(all.lift)}%). No remap can hide those. The contamination-free track is the twins drawn with the operator's secret (the leaderboard's ranked track): the bundled sample is public, its tasks, answers and org with it, and replaying them scores 100.`,
    );
  }
  if (translated && prior) {
    const priorPassed = new Set(prior.outcomes.filter((outcome) => outcome.passed.success).map((outcome) => outcome.idx));
    const gained = translated.outcomes.filter((outcome) => outcome.idCategory && outcome.passed.success && !priorPassed.has(outcome.idx));
    const exposed = translated.outcomes.filter((outcome) => outcome.idsShown).length;
    lines.push(
      `- **Ids one task shows and another answers.** ${exposed} tasks have answers whose Ids some other task's text shows (a product Id in one prompt is another task's answer).`,
      `  The remap is one bijection per run, so a purple that remembers the run's other tasks learns those new Ids: the translated lookup gains ${gained.length} Id-category tasks over the prior. The checks allow exactly these gains and no others.`,
    );
  }
  if (replay) {
    const all = figure(replay.outcomes, "success");
    lines.push(
      `- **The key.** With the seed alone keying the remap, a purple that runs this repository's public code on the run's seed (the crm_task does not show it, but the default is public and a seed can be guessed) recomputes every episode id and every new Id: it passes ${pct(all.pass)}%.`,
      "  So the key also takes a secret the purple never sees: the operator's `ENTROPIC_ID_SECRET`, or else the installation's own, which `serve`, `assess`,",
      "  `org` and the oracle purple make on first use (32 random bytes in `data/cache/id-secret`, or `ENTROPIC_ID_SECRET_FILE`). Only in-process runs that",
      '  pass no secret (tests, this suite\'s "no secret" mode) key it by the seed alone.',
    );
  }
  lines.push(
    "",
    "The rules (`src/validity/real-checks.ts`), each in every mode:",
    `- with the remap keyed by a secret, no lookup that reads only the shown task passes more of the Id categories than the category prior, plus ${REAL_SLACK_POINTS} point;`,
    "  the lookup that remembers the run gains only tasks whose answer Ids another task's text shows;",
    `- no zero-work purple passes more than ${REAL_SLACK_POINTS} point above the chance floor in any category: the floor is the best fixed answer per category, so only a judge's`,
    "  blind spot (a hedge passing token F1) could lift one; the prior, the floor's strategy played out, passes what the floor says;",
    "- controls that show the rules can fail: without the remap the index lookup passes every task and beats the prior on the Id categories; with the seed",
    "  alone keying the remap, replaying it recovers every answer.",
    `The slack of ${REAL_SLACK_POINTS} point is what judges' edge cases can move; one leaked Id category is 100 tasks, several points.`,
    "",
  );
  return lines;
}

function sampleSection(sample: SampleReport): string[] {
  const { measurements, roster, options, dataLabel } = sample;
  const lines = [
    "## Sample (with its org)",
    "",
    `Every purple below runs the whole sample (${dataLabel}) at each drift × rot level pair, seeds ${options.seeds.join(", ")}, and the figures are averaged over the seeds.`,
    "`total` is the mean `total_score`; a dimension is the mean over the episodes where it applies (n/a: it applied nowhere).",
    "The reference purples set the ceiling; the degenerate ones never solve anything on purpose and probe the floor; the gaming ones add a trick",
    "to the solver's correct work (it must never pay); the variants do the solver's work in another honest way (it must not cost beyond the rules).",
    "",
    "| purple | kind | what it does |",
    "|---|---|---|",
    ...roster.map((entry) => `| ${entry.name} | ${entry.kind} | ${entry.description} |`),
    "",
  ];
  const levels = [...new Map(measurements.map((m) => [`${m.level.drift_level}/${m.level.rot_level}`, m.level])).values()];
  const dimensions = orderDimensions(measurements.flatMap((m) => Object.keys(m.dimensions)));
  const short = (dimension: string) => dimensionColumn(dimension, "validity");
  for (const level of levels) {
    lines.push(
      `### Drift ${level.drift_level}, rot ${level.rot_level}`,
      "",
      `| purple | pass % | total | ${dimensions.map(short).join(" | ")} |`,
      `|---|---:|---:|${dimensions.map(() => "---:").join("|")}|`,
    );
    for (const m of measurements.filter((candidate) => candidate.level.drift_level === level.drift_level && candidate.level.rot_level === level.rot_level)) {
      lines.push(`| ${m.purple} | ${(100 * m.passRate).toFixed(1)} | ${m.total.toFixed(1)} | ${dimensions.map((d) => cell(m.dimensions[d] ?? null)).join(" | ")} |`);
    }
    lines.push("");
  }
  lines.push(`Columns: ${dimensions.map((d) => `${short(d)} = ${d}`).join(", ")}.`, "");
  return lines;
}

function twinsSection(twins: Exclude<TwinsReport, { missing: string }>): string[] {
  const { measurements, roster, levels } = twins;
  const lines = [
    `## Twins (full size, with their org)`,
    "",
    `The twins of the ${twins.sourceTasks.toLocaleString("en-US")} tasks of \`${twins.source}\` (src/twins/: each keeps its task's wording, category and metric, and each category its share of None answers, placed by the set's key;`,
    "its entities and answer come from a freshly generated full-size org), built per seed and run by the roster's reference and degenerate",
    `purples and the reference analyst at ${levels.map((level) => `${level.drift_level}/${level.rot_level}`).join(", ")}, seeds ${twins.seeds.map((seed) => seed.seed).join(", ")} (figures over both seeds' twins).`,
    "A run's twins are keyed by the operator's secret and the seed (src/twins/key.ts); the suite's are unkeyed (`TwinKey.unkeyed(seed)`:",
    "the seed alone, the sets the builder made before keys), so that these figures are the same on every machine.",
    "",
    "| seed | twins | missing |",
    "|---:|---:|---|",
    ...twins.seeds.map((seed) => `| ${seed.seed} | ${seed.twins} | ${seed.missing.length === 0 ? "0" : `${seed.missing.length} (${summariseMissing(seed.missing)})`} |`),
    "",
  ];
  if (twins.unmeasured.length > 0) lines.push(`Categories with no twin at some seed (their twin maker is missing or fails), not measured: ${twins.unmeasured.join(", ")}.`, "");
  lines.push("| purple | kind | what it does |", "|---|---|---|", ...roster.map((entry) => `| ${entry.name} | ${entry.kind} | ${entry.description} |`), "");
  const dimensions = orderDimensions(measurements.flatMap((m) => Object.keys(m.dimensions)));
  const short = (dimension: string) => dimensionColumn(dimension, "validity");
  for (const level of levels) {
    lines.push(
      `### Twins, drift ${level.drift_level}, rot ${level.rot_level}`,
      "",
      `| purple | pass % | total | ${dimensions.map(short).join(" | ")} |`,
      `|---|---:|---:|${dimensions.map(() => "---:").join("|")}|`,
    );
    for (const m of measurements.filter((candidate) => candidate.level.drift_level === level.drift_level && candidate.level.rot_level === level.rot_level))
      lines.push(`| ${m.purple} | ${(100 * m.passRate).toFixed(1)} | ${m.total.toFixed(1)} | ${dimensions.map((d) => cell(m.dimensions[d] ?? null)).join(" | ")} |`);
    lines.push("");
  }
  const analyst = measurements.filter((m) => m.purple === "analyst");
  if (analyst.length > 0) {
    const categories = [...new Set(analyst.flatMap((m) => [...categoryPassRates(m).keys()]))].sort();
    const rates = analyst.map((m) => ({ level: m.level, rates: categoryPassRates(m), pass: m.passRate }));
    const at = (drift: string, rot: string) => rates.find((entry) => entry.level.drift_level === drift && entry.level.rot_level === rot);
    const goal = (label: string, rate: number | undefined, target: number) =>
      rate === undefined ? `${label}: not measured` : `${label} ${pct(rate)}% (goal ${pct(target)}%: ${rate >= target ? "met" : "not met"})`;
    lines.push(
      "### The analyst per category (pass %)",
      "",
      `${goal("none/none", at("none", "none")?.pass, ANALYST_GOALS.noneNone)}; ${goal("high/high", at("high", "high")?.pass, ANALYST_GOALS.highHigh)}; ${perCategoryGoal(rates)}.`,
      "",
      `| category | ${rates.map((entry) => `${entry.level.drift_level}/${entry.level.rot_level}`).join(" | ")} |`,
      `|---|${rates.map(() => "---:").join("|")}|`,
      ...categories.map((category) => `| ${category} | ${rates.map((entry) => cellOf(entry.rates.get(category))).join(" | ")} |`),
      "",
    );
    // The same per seed: each seed's twins are another world, and the issue's goals hold per world.
    const bySeed = twins.seeds.flatMap((seed) => analyst.map((m) => ({ seed: seed.seed, level: m.level, rates: categoryPassRates(m, seed.seed), m })));
    const seedPass = (entry: (typeof bySeed)[number]) => {
      const episodes = episodesOf(entry.m, entry.seed);
      return episodes.length === 0 ? undefined : episodes.filter((episode) => episode.passed).length / episodes.length;
    };
    lines.push(
      "Per seed:",
      "",
      `| category | ${bySeed.map((entry) => `seed ${entry.seed} ${entry.level.drift_level}/${entry.level.rot_level}`).join(" | ")} |`,
      `|---|${bySeed.map(() => "---:").join("|")}|`,
      ...categories.map((category) => `| ${category} | ${bySeed.map((entry) => cellOf(entry.rates.get(category))).join(" | ")} |`),
      `| **all** | ${bySeed.map((entry) => cellOf(seedPass(entry))).join(" | ")} |`,
      "",
    );
  }
  lines.push(
    "### Memorisation",
    "",
    "How often a twin's answer differs between the two seeds (same source task), per category:",
    "",
    "| category | metric | twins at both seeds | answer differs % |",
    "|---|---|---:|---:|",
    ...twins.answerChange.map((entry) => `| ${entry.category} | ${entry.metric} | ${entry.compared} | ${entry.compared === 0 ? "n/a" : pct(entry.differ / entry.compared)} |`),
    "",
    `What the public answer file is worth on twins: the org-free purples holding the real task file answer every twin (Ids remapped with a secret);`,
    `per category the best lookup against the category prior: the best zero-work purple (which answers the real file's most common answer, and its kin) or the share of the twins' own most common answer, whichever is larger (a twin's answer comes from its own org, so the file's answers match by chance at most that often on average). Which twins are None is placed by the seed (as many per category as the real set has), so the file does not tell it either. The rule: lookup ≤ the prior + ${TWIN_LOOKUP_SLACK_POINTS} points.`,
    "",
    "| category | seed | twins | best lookup | pass % | best zero-work | pass % | twins' most common answer % |",
    "|---|---:|---:|---|---:|---|---:|---:|",
    ...twins.memorisation.map(
      (entry) =>
        `| ${entry.category} | ${entry.seed} | ${entry.tasks} | ${entry.lookup.name} | ${pct(entry.lookup.pass)} | ${entry.prior.name} | ${pct(entry.prior.pass)} | ${pct(entry.majority)} |`,
    ),
    "",
  );
  return lines;
}

/** The goal that every category passes ANALYST_GOALS.perCategory at every level pair: met, or the categories below it. */
function perCategoryGoal(rates: readonly { readonly level: { readonly drift_level: string; readonly rot_level: string }; readonly rates: ReadonlyMap<string, number> }[]): string {
  const below = rates.flatMap((entry) =>
    [...entry.rates]
      .filter(([, rate]) => rate < ANALYST_GOALS.perCategory)
      .map(([category, rate]) => `${category} ${pct(rate)}% at ${entry.level.drift_level}/${entry.level.rot_level}`),
  );
  return `every category ≥ ${pct(ANALYST_GOALS.perCategory)}% at every level pair: ${below.length === 0 ? "met" : `not met (${below.join(", ")})`}`;
}

const cellOf = (rate: number | undefined) => (rate === undefined ? "n/a" : pct(rate));

/** The markers around the between-key spread in docs/validity.md: it is written by its own run (`--twin-keys`), and a full run keeps it. */
const TWIN_KEYS_BEGIN = "<!-- twin-keys: written by `npm run validity -- --twin-keys <n>` -->";
const TWIN_KEYS_END = "<!-- /twin-keys -->";

/** The between-key spread's section, inside its markers. */
export function twinKeysSection(report: TwinKeysReport): string {
  const keyColumns = report.keys.map((_, i) => `key ${i + 1}`);
  const over = report.spreads.every((spread) => spread.sdPoints <= TWIN_KEY_SPREAD_GOAL_POINTS);
  const counts = report.spreads[0]?.perKey.map((figure) => figure.twins) ?? [];
  const twins = (count: number) => count.toLocaleString("en-US");
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  const lines = [
    TWIN_KEYS_BEGIN,
    "### Between twin keys: pass rate per operator secret",
    "",
    `A twin set is drawn from a key made of the operator's secret and the seed (src/twins/key.ts), so every operator runs other twins at`,
    `a seed. Each purple on the twin sets of ${report.keys.length} secrets at seed ${report.seed} (${low === high ? `${twins(low)} twins each` : `${twins(low)} to ${twins(high)} twins: a set without a twin of a task says so`}; public secrets,`,
    `\`validity twin key 1\` to \`${report.keys.length}\`, so anyone can repeat it), drift ${report.level.drift_level}, rot ${report.level.rot_level}; the key digests:`,
    `${report.keys.map((key) => `\`${key}\``).join(", ")}. Goal: a standard deviation over the keys of at most ${TWIN_KEY_SPREAD_GOAL_POINTS} points for each purple`,
    `(${over ? "met by every purple" : "NOT met by every purple"}). Measured in ${Math.round(report.seconds)} s.`,
    "",
    `| purple | ${keyColumns.join(" | ")} | mean | SD (points) |`,
    `|---|${keyColumns.map(() => "---:").join("|")}|---:|---:|`,
    `| (twins) | ${counts.map(twins).join(" | ")} | | |`,
    ...report.spreads.map(
      (spread) => `| ${spread.purple} | ${spread.perKey.map((figure) => pct(figure.passRate)).join(" | ")} | ${spread.meanPoints.toFixed(1)} | ${spread.sdPoints.toFixed(2)} |`,
    ),
    "",
    ...report.spreads.map((spread) => `- ${spread.purple}: ${spread.description}.`),
    TWIN_KEYS_END,
    "",
  ];
  return lines.join("\n");
}

/** `doc` with `section` (twinKeysSection's, markers included) in place of its between-key spread, or before the sample part when it has none. */
export function spliceTwinKeys(doc: string, section: string): string {
  const begin = doc.indexOf(TWIN_KEYS_BEGIN);
  const end = doc.indexOf(TWIN_KEYS_END);
  if (begin >= 0 && end > begin) return `${doc.slice(0, begin)}${section}\n${doc.slice(end + TWIN_KEYS_END.length).replace(/^\n+/, "")}`;
  const sample = doc.indexOf("\n## Sample (with its org)");
  return sample >= 0 ? `${doc.slice(0, sample + 1)}${section}\n${doc.slice(sample + 1)}` : `${doc}\n${section}`;
}

/** The between-key spread a docs/validity.md holds (markers included), to carry into a freshly written one. */
export function twinKeysBlock(doc: string): string | undefined {
  const begin = doc.indexOf(TWIN_KEYS_BEGIN);
  const end = doc.indexOf(TWIN_KEYS_END);
  return begin >= 0 && end > begin ? `${doc.slice(begin, end + TWIN_KEYS_END.length)}\n` : undefined;
}
