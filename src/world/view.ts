import { CUSTOM_ORG_TYPE, categorySpec } from "../datasets/index.js";
import { type EntropyLevels, type EntropyPlan, movedFields, movedNames, planChanges, planEntropyInSlices, type TaskText, taskText } from "../entropy/index.js";
import type { IdStatus } from "../log/index.js";
import { materialise, type OrgBackend, type OrgRequest, type OrgRow, type OrgSchema, type ToolOutcome } from "../org/index.js";
import type { TaskBrief } from "../protocol/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { offeredTools, runTool, type ToolSpec } from "../tools/index.js";
import { EpisodeIds, type EpisodeOrdinal, type IdRemap, nextSlice, pauseIfDue, recordKey } from "../util/index.js";

/** What a run's world is made of: the levels and seed of its entropy. */
export interface WorldSettings extends Readonly<EntropyLevels> {
  /** Only these perturbation kinds (all when absent). */
  readonly only?: readonly string[];
  readonly seed: number;
}

/**
 * The one view of the org a run has: the base org with the entropy plan applied, in one place.
 * Every tool call, every observation and every task text passes through it, so no tool can
 * bypass drift or rot. The base backend is never written; the view's backend is its own copy.
 */
export class OrgView {
  private readonly moved: ReadonlyMap<string, string>;
  /** Rot's distractor records, by their record key (`canonicalId`, after the remap when there is one). */
  private readonly distractors: ReadonlySet<string>;

  /** The tools this run offers the purple: those its backend can run, and the answer tool. */
  readonly tools: readonly ToolSpec[];
  /** The org's live records by their record key. */
  private readonly live: ReadonlySet<string>;

  private constructor(
    private readonly backend: OrgBackend,
    readonly plan: EntropyPlan,
    /** The run's sandbox refresh, if it has one: every Id the purple sees and every ground truth go through it. */
    readonly remap: IdRemap | undefined,
    /** The org's live records by their record key (`canonicalId`). */
    live: ReadonlySet<string>,
    /** Rot's distractor records by their record key, after the remap. */
    distractors: ReadonlySet<string>,
  ) {
    this.tools = offeredTools(backend.capabilities);
    this.live = live;
    this.moved = movedNames(plan);
    this.distractors = distractors;
  }

  /**
   * Applies a plan to a base org: the view's backend is a copy with the plan's changes and,
   * when the run remaps Ids, every record Id of the copy remapped after them (the plan itself
   * speaks of the dataset's Ids, so it stays the same pure value of org, tasks, levels and seed).
   * A backend that can rewrite itself derives the copy (SQLite, in SQL); for any other the view
   * materialises it from the backend's rows, the changes applied in JS (`RowsBackend`).
   */
  static async open(base: OrgBackend, plan: EntropyPlan, remap?: IdRemap, owner?: string): Promise<OrgView> {
    const source = `${base.source} (seed ${plan.seed}, drift ${plan.drift_level}, rot ${plan.rot_level}${remap ? `, Ids remapped ${remap.digest}` : ""})`;
    const changes = planChanges(plan);
    const options = { ...(remap ? { remap } : {}), ...(owner ? { owner } : {}) };
    const copy: OrgBackend = base.derive ? await base.derive(changes, source, options) : await materialise(base, changes, source, options);
    try {
      const live = copy.recordKeys ? await copy.recordKeys() : await recordKeys(await copy.recordIds());
      const distractors = await recordKeys(
        plan.kinds.flatMap((kind) => kind.distractor_ids),
        remap,
      );
      return new OrgView(copy, plan, remap, live, distractors);
    } catch (error) {
      await copy.close();
      throw error;
    }
  }

  /**
   * Plans the entropy of a run (pure in the org, the tasks, the levels and the seed) and applies it.
   * `owner` names the run to the org's query scheduling (its fair share of query processes).
   */
  static async plan(base: OrgBackend, settings: WorldSettings, tasks: readonly TaskRecord[], library: readonly TaskRecord[], remap?: IdRemap, owner?: string): Promise<OrgView> {
    // The planners are pure and synchronous: they get the base org's rows read up front, one
    // object at a time with the event loop let through between them, and plan in slices (a
    // full-size org's reads and plan in one piece stalled the server for seconds).
    const rows = new Map<string, readonly OrgRow[]>();
    for (const object of base.schema.objects) {
      rows.set(object.name, await base.rows(object.name));
      await nextSlice();
    }
    const plan = await planEntropyInSlices({
      ...(settings.only ? { only: settings.only } : {}),
      seed: settings.seed,
      drift_level: settings.drift_level,
      rot_level: settings.rot_level,
      schema: base.schema,
      tasks,
      library,
      rows: (object) => {
        const stored = rows.get(object);
        if (!stored) throw new Error(`the org has no object ${object}`);
        return stored;
      },
    });
    return OrgView.open(base, plan, remap, owner);
  }

  /** The schema the purple sees. */
  get schema(): OrgSchema {
    return this.backend.schema;
  }

  /** One tool call through the registry (an unknown tool, bad arguments or a tool this org cannot run is an error outcome). */
  runTool(request: OrgRequest, today: string): Promise<ToolOutcome> {
    return runTool(this.backend, request, { today });
  }

  /** The org's own "today" (its latest date), for queries that come with no task date. */
  async today(): Promise<string> {
    return this.backend.today();
  }

  /**
   * A live record, a record rot put there that is not live data, or an Id the org does not have.
   * Ids are compared as Salesforce resolves them, so an 18-character Id in another letter case
   * names its record (`canonicalId`).
   */
  idStatus(id: string): IdStatus {
    const record = recordKey(id);
    if (this.distractors.has(record)) return "distractor";
    return this.live.has(record) ? "live" : "absent";
  }

  /** Fields drift moved (renamed or deprecated), as `Object.Field` in the org's original names. */
  movedFields(): Set<string> {
    return new Set([...movedFields(this.plan)].flatMap(([object, fields]) => [...fields.keys()].map((field) => `${object}.${field}`)));
  }

  /** A task's texts as the purple sees them: drift and rot applied, then the Ids remapped. */
  text(task: TaskRecord): TaskText {
    const text = taskText(task, this.plan, this.moved);
    const remap = this.remap;
    if (!remap) return text;
    const ids = (value: string) => remap.text(value);
    return { ...text, prompt: ids(text.prompt), requiredContext: ids(text.requiredContext), optionalContext: ids(text.optionalContext) };
  }

  /**
   * One episode's window on this view, for `task` (the episode's own: a twin's trial gives its
   * twin). A task's first episode (no `ordinal`: its only one in a single-trial unpaired run) sees
   * the run's task id and Ids unchanged; any other sees a task id of its own and its own Ids, a
   * layer keyed by `keys` and the episode (`EpisodeIds`), so no two episodes of a task can be
   * linked by what they show. `keys` is the run's remap, or (a run that keeps the dataset's Ids)
   * a map keyed by the run's seed and secret, used for the layers alone.
   */
  episode(
    task: TaskRecord,
    settings: { readonly ordinal?: EpisodeOrdinal | undefined; readonly keys: IdRemap; readonly entropy: ShownEntropy; readonly orgType?: string },
  ): EpisodeView {
    const { ordinal, keys, entropy, orgType = CUSTOM_ORG_TYPE } = settings;
    // With Ids remapped the dataset index is not shown either: it would name the task in the public answer file.
    const taskId = ordinal || this.remap ? keys.episodeId(task.idx, ordinal) : String(task.idx);
    const ids = ordinal ? new EpisodeIds(keys.episodeLayer(task.idx, ordinal), this.live) : undefined;
    return new EpisodeView(this, task, taskId, ids, entropy, orgType);
  }

  /** The ground truth as this world has it (its Ids remapped when the run remaps them). */
  groundTruth(task: TaskRecord): (string | null)[] {
    return this.remap ? this.remap.answer(task.answer) : [...task.answer];
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/** What a crm_task says of the run's entropy: the levels the run was configured with, in every episode alike. */
export type ShownEntropy = TaskBrief["entropy"];

/**
 * One episode's window on the run's view: what it shows the purple (its brief, every
 * observation) and what it scores against (its ground truth), in the episode's own Ids when it
 * has a layer, the purple's tool calls read back into the run's Ids before they reach the org.
 */
export class EpisodeView {
  constructor(
    private readonly view: OrgView,
    private readonly task: TaskRecord,
    /** The task id the purple is shown. */
    readonly taskId: string,
    /** The episode's own Ids over the run's, when it is not its task's first episode. */
    private readonly ids: EpisodeIds | undefined,
    private readonly entropy: ShownEntropy,
    /** The org type of the run's dataset, which the first message names. */
    private readonly orgType: string,
  ) {}

  /** The tools the run offers. */
  get tools(): readonly ToolSpec[] {
    return this.view.tools;
  }

  /** What the purple is shown for the task, and what drift and rot did to its text (its texts in the episode's Ids). */
  brief(maxSteps: number): { brief: TaskBrief; text: TaskText } {
    const text = this.text();
    return { brief: buildBrief(this.task, text, maxSteps, this.entropy, this.view.tools, this.taskId, this.orgType), text };
  }

  /** The task's texts as the purple sees them: the view's, then the episode's Ids. */
  text(): TaskText {
    const text = this.view.text(this.task);
    const ids = this.ids;
    if (!ids) return text;
    return { ...text, prompt: ids.show(text.prompt), requiredContext: ids.show(text.requiredContext), optionalContext: ids.show(text.optionalContext) };
  }

  /** The ground truth the episode is scored against: the view's, in the episode's Ids. */
  groundTruth(): (string | null)[] {
    const truth = this.view.groundTruth(this.task);
    return this.ids ? this.ids.answer(truth) : truth;
  }

  /** A tool call: its arguments read back into the run's Ids, its outcome shown in the episode's. */
  async runTool(request: OrgRequest, today: string): Promise<ToolOutcome> {
    const ids = this.ids;
    if (!ids) return this.view.runTool(request, today);
    const { tool, ...args } = request;
    return ids.showValue(await this.view.runTool({ ...ids.readValue(args), tool }, today));
  }

  /** What the org knows of an Id the purple named: nothing, when this episode never showed it. */
  idStatus(id: string): IdStatus {
    if (!this.ids) return this.view.idStatus(id);
    const run = this.ids.runId(id);
    return run === undefined ? "absent" : this.view.idStatus(run);
  }

  /** How this episode shows one of the run's Ids (a distractor's, for the kinds that touched it). */
  shownId(runId: string): string {
    return this.ids ? this.ids.shownId(runId) : runId;
  }
}

/** Every Id's record key (after the remap, when given), in slices: a full-size org's 35,000 Ids in one piece kept the event loop away 100 ms. */
async function recordKeys(ids: Iterable<string>, remap?: IdRemap): Promise<Set<string>> {
  const keys = new Set<string>();
  let count = 0;
  for (const id of ids) {
    const seen = remap ? remap.id(id) : id;
    keys.add(recordKey(seen));
    // A look at the clock every 256 Ids, not an await per Id (a copy's 29,000 Ids on every admission).
    if (++count % 256 === 0) await pauseIfDue();
  }
  return keys;
}

/** The brief of a task from its (perturbed) texts: what the first message and its crm_task data part carry. */
export function buildBrief(
  task: TaskRecord,
  text: TaskText,
  maxSteps: number,
  entropy: TaskBrief["entropy"],
  tools: readonly Pick<ToolSpec, "name">[],
  taskId = String(task.idx),
  orgType = CUSTOM_ORG_TYPE,
): TaskBrief {
  const today = /Today's date:\s*(\d{4}-\d{2}-\d{2})/.exec(`${task.metadata.required}\n${task.query}`)?.[1];
  return {
    taskId,
    category: task.task,
    prompt: text.prompt,
    persona: task.persona,
    requiredContext: text.requiredContext,
    optionalContext: text.optionalContext,
    externalFacing: categorySpec(task.task)?.externalFacing ?? false,
    maxSteps,
    orgType,
    ...(today ? { today } : {}),
    entropy,
    tools: tools.map((tool) => tool.name),
  };
}
