import { categorySpec, isPrivacyCategory } from "../../datasets/index.js";
import type { ObjectInfo } from "../../org/index.js";
import type { TaskRecord } from "../../tasks/index.js";
import { buildTwins, TwinKey, type TwinSet } from "../../twins/index.js";
import { idsIn } from "../../util/index.js";
import { REFUSAL } from "../oracle.js";
import { SchemaAdapter } from "../schema-adapter.js";
import type { Strategy, TaskInfo, Tools } from "../server.js";

/**
 * The seed replay on twins, by a purple that has read this repository: it rebuilds the twin set
 * with the public builder for the seed it can guess (the one the crm_task shows, else the config's
 * default) and a secret it guesses, finds its twin by the prompt's words, and answers the twin's
 * ground truth: directly when it names no record, and for an Id by one query on a field that is no
 * Id (a user's e-mail, an article's title), which finds the record under the run's own Ids.
 */

/**
 * How a purple rebuilds a twin set from the seed and the operator's secret it guesses: the one
 * line to change when the builder is keyed by both (the secret is what it cannot know).
 */
export function rebuildTwins(source: readonly TaskRecord[], seed: number, secret: string): TwinSet {
  return buildTwins(source, TwinKey.forRun(seed, secret));
}

export interface TwinReplayOptions {
  /** The public real task file the twins are built from. */
  readonly source: readonly TaskRecord[];
  /** The operator's secret as the purple guesses it (the control is given the real one). */
  readonly secret: string;
  /** The seed when the crm_task shows none: the config's default. */
  readonly defaultSeed: number;
  readonly rebuild?: typeof rebuildTwins;
}

/** Fields that name a record to a person, tried first; then any other text field unique in its table. */
const NAMING_FIELDS = ["Email", "Username", "Name", "Title", "Subject", "CaseNumber", "OrderNumber", "ProductCode"];

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 1),
  );

/** The rebuilt set's index: its twins by category, and each record's naming field. */
class Replay {
  private readonly byCategory = new Map<string, { task: TaskRecord; words: Set<string> }[]>();
  private readonly unique = new Map<string, Map<string, number>>();

  constructor(readonly set: TwinSet) {
    for (const task of set.tasks) {
      const list = this.byCategory.get(task.task) ?? [];
      list.push({ task, words: words(task.query) });
      this.byCategory.set(task.task, list);
    }
  }

  /** The twin of the category whose prompt shares the most words with the shown one (Jaccard): rot's and drift's edits leave most words. */
  twinOf(task: TaskInfo): TaskRecord | undefined {
    const shown = words(task.prompt);
    let best: { task: TaskRecord; score: number } | undefined;
    for (const candidate of this.byCategory.get(task.category) ?? []) {
      let shared = 0;
      for (const word of shown) if (candidate.words.has(word)) shared++;
      const score = shared / (shown.size + candidate.words.size - shared || 1);
      if (!best || score > best.score) best = { task: candidate.task, score };
    }
    return best?.task;
  }

  /** The record's object and a field that names it alone in its table, with its value. */
  naming(id: string): { object: string; field: string; value: string } | undefined {
    const row = this.set.world.byId(id);
    if (!row) return undefined;
    const object = Object.keys(this.set.world.tables).find((name) => this.set.world.tables[name]!.includes(row));
    if (!object) return undefined;
    const fields = [...NAMING_FIELDS, ...Object.keys(row)].filter((field, i, all) => all.indexOf(field) === i);
    for (const field of fields) {
      const value = row[field];
      if (typeof value !== "string" || value.length < 3 || field === "Id" || field.endsWith("Id") || /^\d{4}-\d{2}-\d{2}/.test(value)) continue;
      if (this.count(object, field, value) === 1) return { object, field, value };
    }
    return undefined;
  }

  private count(object: string, field: string, value: string): number {
    const key = `${object}.${field}`;
    let counts = this.unique.get(key);
    if (!counts) {
      counts = new Map();
      for (const row of this.set.world.tables[object]!) if (typeof row[field] === "string") counts.set(row[field] as string, (counts.get(row[field] as string) ?? 0) + 1);
      this.unique.set(key, counts);
    }
    return counts.get(value) ?? 0;
  }
}

const quoted = (value: string) => value.replace(/\\/g, "\\\\").replace(/'/g, "\\'");

/** The run's Id of a rebuilt record: one query on its naming field, in the org's current names. */
async function translate(id: string, replay: Replay, adapter: SchemaAdapter, tools: Tools): Promise<string | undefined> {
  const naming = replay.naming(id);
  if (!naming) return undefined;
  const rows = await tools.soql(adapter.soql(`SELECT Id FROM ${naming.object} WHERE ${naming.field} = '${quoted(naming.value)}'`)).catch(() => []);
  const found = adapter.known(rows)[0]?.Id;
  return typeof found === "string" ? found : undefined;
}

export function twinReplayStrategy(options: TwinReplayOptions): Strategy {
  const rebuild = options.rebuild ?? rebuildTwins;
  const replays = new Map<number, Replay>();
  return async (task, tools) => {
    const shown = (task.data.entropy as { seed?: unknown } | undefined)?.seed;
    const seed = typeof shown === "number" ? shown : options.defaultSeed;
    let replay = replays.get(seed);
    if (!replay) {
      replay = new Replay(rebuild(options.source, seed, options.secret));
      replays.set(seed, replay);
    }
    const spec = categorySpec(task.category);
    if (spec && isPrivacyCategory(spec)) return REFUSAL;
    const twin = replay.twinOf(task);
    if (!twin) return "None";
    const answer = twin.answer.map((value) => value ?? "None");
    if (!answer.some((value) => idsIn(value).length > 0)) return answer.join(", ");
    const described = await tools.describe();
    const adapter = new SchemaAdapter((described.objects as ObjectInfo[] | undefined) ?? []);
    const translated: string[] = [];
    for (const value of answer) {
      let text = value;
      for (const id of idsIn(value)) text = text.split(id).join((await translate(id, replay, adapter, tools)) ?? id);
      translated.push(text);
    }
    return translated.join(", ");
  };
}
