import { canonicalId, type IdRemap, isCaseSafeId, replaceIdTokens } from "./id-remap.js";
import { caseSafeSuffix } from "./salesforce-id.js";

/**
 * One episode's own Ids, layered over the run's: every Id the episode shows the purple is the
 * run's Id through the episode's layer (`IdRemap.episodeLayer`), and every Id the purple names
 * back is read through what was shown. Two episodes of one task (two trials, or a paired task's
 * two views) so show one record under two unrelated Ids, and an answer copied from the other
 * episode names nothing here.
 *
 * Nothing is precomputed over the org: the layer is a keyed map applied to the Ids as they pass,
 * and the way back is a table filled as Ids are shown. A purple can only know Ids it was shown,
 * so that table is all the way back there is; an Id of the run it was not shown in this episode
 * (one seen in another episode) is read as an Id no record has (its "blind" form), and shown
 * back as the purple wrote it should an error message echo it.
 */
export class EpisodeIds {
  /** Each Id shown, by its 15-character form: the run's Id (15 characters) it stands for. */
  private readonly shown = new Map<string, string>();
  /** Each blind Id sent to the org, by its 15-character form: the token the purple wrote. */
  private readonly echoes = new Map<string, string>();
  private readonly blind: IdRemap;

  constructor(
    /** The episode's layer over the run's Ids. */
    private readonly layer: IdRemap,
    /** The org's record Ids in the run (by their 15-character form): a 15-character token is an Id when it is one of them. */
    private readonly known: ReadonlySet<string>,
  ) {
    this.blind = layer.derive("blind Ids");
  }

  /** A text the purple is shown (a task text, a value of a record, a message): each of the run's Ids in it as this episode shows it. */
  show(text: string): string {
    if (text.length < 15) return text;
    return replaceIdTokens(text, (token) => {
      const echo = this.echoes.get(token.slice(0, 15));
      if (echo !== undefined) return echo;
      if (!isCaseSafeId(token) && !(token.length === 15 && this.known.has(token))) return token;
      const mapped = this.layer.id(token);
      this.shown.set(mapped.slice(0, 15), token.slice(0, 15));
      return mapped;
    });
  }

  /** Any value the purple is shown, its strings through `show` (records, nested relationships, messages). */
  showValue<T>(value: T): T {
    return mapStrings(value, (text) => this.show(text));
  }

  /** A ground truth in this episode's Ids: the very Ids `show` gives the records it names. */
  answer(answer: readonly (string | null)[]): (string | null)[] {
    return this.layer.answer(answer);
  }

  /**
   * A text the purple wrote (a tool call's argument) in the run's Ids: each Id this episode
   * showed put back (in any letter case an 18-character Id resolves to), each record Id of the
   * run it did not show made blind; anything else is left as written.
   */
  read(text: string): string {
    if (text.length < 15) return text;
    return replaceIdTokens(text, (token) => {
      const run = this.runId(token);
      if (run !== undefined) return token.length === 18 ? run + caseSafeSuffix(run) : run;
      const record = canonicalId(token);
      if (record === undefined || !this.known.has(record)) return token;
      const blind = this.blind.id(token);
      this.echoes.set(blind.slice(0, 15), token);
      return blind;
    });
  }

  /** The arguments of a tool call, their strings through `read`. */
  readValue<T>(value: T): T {
    return mapStrings(value, (text) => this.read(text));
  }

  /** The run's Id (15 characters) of an Id the purple names, if this episode showed it; undefined otherwise. */
  runId(id: string): string | undefined {
    const record = canonicalId(id);
    return record === undefined ? undefined : this.shown.get(record);
  }

  /** How this episode shows one of the run's Ids (a distractor's, say), whether or not it has shown it yet. */
  shownId(runId: string): string {
    return this.layer.id(runId);
  }
}

/** A JSON-like value with every string through `map` (arrays and plain objects copied, every other value kept as it is). */
function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === "string") return map(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map)) as T;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)])) as T;
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
