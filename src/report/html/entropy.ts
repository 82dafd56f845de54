import type { EpisodeView, ReportResults } from "../view/index.js";
import type { OrgChangeInput } from "../view/input.js";

/** A set of episodes that drift or rot touched in one way, and how they fared. */
export interface EntropyGroup {
  readonly label: string;
  readonly idxs: readonly string[];
  readonly passed: number;
}

/** A change drift made to one field, in words the report prints. */
export interface FieldChange {
  readonly kind: "renamed" | "copied" | "annotated" | "added" | "set";
  readonly field: string;
  /** The new name (renamed, copied), the note (annotated), or how many records (set). */
  readonly detail: string;
}

/** One kind of perturbation of an entropy plan, when the results carry one. */
export interface PerturbationRow {
  readonly kind: string;
  readonly family: string;
  readonly level: string;
  readonly summary: string;
  readonly changes: number;
  readonly textChanges: number;
  readonly distractors: number;
}

/** What drift and rot changed in the run (from `results.entropy`) and which episodes it touched (from each task's `entropy_events`). */
export interface EntropyModel {
  readonly driftLevel: string;
  readonly rotLevel: string;
  readonly seed: number;
  readonly fieldChanges: readonly { readonly object: string; readonly changes: readonly FieldChange[] }[];
  readonly injected: readonly { readonly object: string; readonly count: number }[];
  readonly perturbations: readonly PerturbationRow[];
  /** Other keys of `results.entropy`, as JSON. */
  readonly other: readonly { readonly key: string; readonly value: string }[];
  readonly groups: readonly EntropyGroup[];
  /** Renamed fields the tasks needed (`drift_exposure`), with the episodes that needed each. */
  readonly exposures: readonly EntropyGroup[];
  /** Distractor passages rot added, with the episodes whose context held each. */
  readonly passages: readonly EntropyGroup[];
}

function group(label: string, episodes: readonly EpisodeView[]): EntropyGroup {
  return { label, idxs: episodes.map((episode) => episode.idx), passed: episodes.filter((episode) => episode.success).length };
}

function byValue(episodes: readonly EpisodeView[], values: (episode: EpisodeView) => readonly string[]): EntropyGroup[] {
  const map = new Map<string, EpisodeView[]>();
  for (const episode of episodes) for (const value of new Set(values(episode))) map.set(value, [...(map.get(value) ?? []), episode]);
  return [...map].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([label, members]) => group(label, members));
}

function fieldChange(change: OrgChangeInput): FieldChange | null {
  const field = typeof change.field === "string" ? change.field : change.field?.name;
  switch (change.op) {
    case "rename_field":
      return { kind: "renamed", field: change.from ?? "?", detail: change.to ?? "?" };
    case "copy_field":
      return { kind: "copied", field: change.from ?? "?", detail: change.to ?? "?" };
    case "annotate_field":
      return { kind: "annotated", field: field ?? "?", detail: change.note ?? "" };
    case "add_field":
      return { kind: "added", field: field ?? "?", detail: "" };
    case "set_values":
      return { kind: "set", field: field ?? "?", detail: String(change.ids?.length ?? 0) };
    default:
      return null;
  }
}

/** Drift's field changes and rot's injected records, from either layout of `results.entropy`. */
function changesOf(entropy: ReportResults["entropy"]): { fieldChanges: EntropyModel["fieldChanges"]; injected: EntropyModel["injected"] } {
  const fields = new Map<string, FieldChange[]>();
  const injected = new Map<string, number>();
  for (const [object, renames] of Object.entries(entropy.rename_map)) {
    fields.set(
      object,
      Object.entries(renames).map(([from, to]) => ({ kind: "renamed", field: from, detail: to })),
    );
  }
  for (const [object, count] of Object.entries(entropy.injected_records)) injected.set(object, count);
  const add = (object: string, change: FieldChange) => fields.set(object, [...(fields.get(object) ?? []), change]);
  // "Object.Field -> New" of the results' summary layout.
  const split = (entry: string) => {
    const [path = "", to = ""] = entry.split(" -> ");
    const dot = path.indexOf(".");
    return { object: dot < 0 ? path : path.slice(0, dot), field: dot < 0 ? "" : path.slice(dot + 1), to };
  };
  for (const kind of entropy.kinds ?? []) {
    for (const entry of kind.renamed) {
      const { object, field, to } = split(entry);
      add(object, { kind: "renamed", field, detail: to });
    }
    for (const entry of kind.deprecated) {
      const { object, field, to } = split(entry);
      add(object, { kind: "annotated", field, detail: `deprecated: use ${to}` });
    }
    for (const entry of kind.added_fields) {
      const { object, field } = split(entry);
      add(object, { kind: "added", field, detail: "" });
    }
    for (const [object, count] of Object.entries(kind.records)) injected.set(object, (injected.get(object) ?? 0) + count);
    for (const change of kind.changes) {
      if (change.op === "insert_records") {
        injected.set(change.object, (injected.get(change.object) ?? 0) + (change.records?.length ?? 0));
        continue;
      }
      const described = fieldChange(change);
      if (described) fields.set(change.object, [...(fields.get(change.object) ?? []), described]);
    }
  }
  return {
    fieldChanges: [...fields].map(([object, changes]) => ({ object, changes })),
    injected: [...injected].map(([object, count]) => ({ object, count })),
  };
}

export function entropyModel(results: ReportResults, episodes: readonly EpisodeView[]): EntropyModel {
  const { rename_map: _renames, injected_records: _injected, kinds, ...rest } = results.entropy;
  const known = new Set(["seed", "drift_level", "rot_level", "version", "only"]);
  const touched = (test: (episode: EpisodeView) => boolean) => episodes.filter(test);
  return {
    driftLevel: results.extension_metrics.drift_level,
    rotLevel: results.extension_metrics.rot_level,
    seed: results.seed,
    ...changesOf(results.entropy),
    perturbations: (kinds ?? []).map((kind) => ({
      kind: kind.kind,
      family: kind.family,
      level: kind.level,
      summary: kind.summary || kind.description,
      // The plan's layout lists every change; the results' summary lists fields and counts records.
      changes: kind.changes.length || kind.renamed.length + kind.deprecated.length + kind.added_fields.length + Object.values(kind.records).reduce((sum, n) => sum + n, 0),
      textChanges: kind.text.length || (kind.tasks_with_text ?? 0),
      distractors: kind.distractor_ids.length || (kind.distractor_records ?? 0),
    })),
    other: Object.entries(rest)
      .filter(([key]) => !known.has(key))
      .map(([key, value]) => ({ key, value: JSON.stringify(value) ?? "" })),
    groups: [
      group("every episode", episodes),
      group(
        "drift: the task needs a renamed field",
        touched((e) => e.entropy.drift_exposure.length > 0),
      ),
      group(
        "drift: field names rewritten in the task text",
        touched((e) => e.entropy.renamed_in_text.length > 0),
      ),
      group(
        "rot: distractor passages in the context",
        touched((e) => e.entropy.passages.length > 0),
      ),
      group(
        "rot: deleted distractor records in an observation",
        touched((e) => e.entropy.distractor_records_seen > 0),
      ),
      group(
        "rot: a distractor record named in the answer",
        touched((e) => e.entropy.distractor_ids_in_answer.length > 0),
      ),
      group(
        "touched by neither",
        touched((e) => !e.touchedByDrift && !e.touchedByRot),
      ),
    ],
    exposures: byValue(episodes, (e) => e.entropy.drift_exposure),
    passages: byValue(episodes, (e) => e.entropy.passages),
  };
}
