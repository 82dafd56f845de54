import type { OrgChange, SqlRow } from "../../org/index.js";
import { Random } from "../../util/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { doseOf, idFieldOf, newId, type Share } from "./rot-common.js";

const ARCHIVED: Share = { none: 0, low: 0.1, medium: 0.2, high: 0.4 };
const DRAFTS: Share = { none: 0, low: 0.05, medium: 0.1, high: 0.2 };
const KNOWLEDGE = "Knowledge__kav";

/** An older or newer wording of an article: every number in it moved, so a stale version says something else. */
function reword(text: string, rng: Random): string {
  return text.replace(/\b\d+(?:\.\d+)?\b/g, (number) => String(Math.max(1, Math.round(Number(number) * (rng.chance(0.5) ? 0.6 : 1.5)))));
}

/**
 * Knowledge articles in several versions, as Salesforce Knowledge keeps them: each article gets
 * PublishStatus (Online for the published version), IsLatestVersion and VersionNumber; archived
 * older versions and unpublished drafts with other wording (and their own Ids) sit beside some
 * published ones. Only the Online version is the company's current knowledge.
 */
export const knowledgeVersions: PerturbationKind = {
  name: "rot.knowledge_versions",
  family: "rot",
  description: "archived and draft versions of knowledge articles beside the published one (PublishStatus, IsLatestVersion, VersionNumber)",
  plan(input): KindPlan {
    const object = input.schema.objects.find((candidate) => candidate.name === KNOWLEDGE);
    if (!object) return { summary: "no knowledge articles", changes: [], text: [], distractorIds: [] };
    const changes: OrgChange[] = [
      {
        op: "add_field",
        object: KNOWLEDGE,
        field: {
          name: "PublishStatus",
          label: "Publication Status",
          type: "string",
          references: [],
          note: "Online: the published version; Draft: an unpublished edit; Archived: a retired older version",
        },
        value: "Online",
      },
      { op: "add_field", object: KNOWLEDGE, field: { name: "IsLatestVersion", label: "Is Latest Version", type: "boolean", references: [] }, value: 1 },
      { op: "add_field", object: KNOWLEDGE, field: { name: "VersionNumber", label: "Version Number", type: "int", references: [] }, value: 1 },
    ];
    const rows = input.rows(KNOWLEDGE);
    const idField = idFieldOf(object);
    const rng = new Random(`${this.name}:${input.seed}:${input.level}`);
    const taken = new Set(rows.map((row) => String(row[idField])));
    const prefix = object.keyPrefix ?? "ka0";
    const versionOf = (source: SqlRow, status: string, latest: number, number: number): SqlRow => {
      const copy: SqlRow = {};
      for (const [column, value] of Object.entries(source))
        copy[column] = column === idField ? newId(prefix, rng, taken, [...taken]) : typeof value === "string" && /answer|body|summary/i.test(column) ? reword(value, rng) : value;
      return { ...copy, PublishStatus: status, IsLatestVersion: latest, VersionNumber: number };
    };
    const archivedSources = rng.sample(rows, doseOf(ARCHIVED, input.level, rows.length));
    const draftSources = rng.sample(rows, doseOf(DRAFTS, input.level, rows.length));
    // The published version of an article with an archived predecessor is its second version.
    const republished = archivedSources.map((row) => String(row[idField]));
    if (republished.length > 0) changes.push({ op: "set_values", object: KNOWLEDGE, field: "VersionNumber", ids: republished, value: 2 });
    const versions = [
      ...archivedSources.map((row) => versionOf(row, "Archived", 0, 1)),
      ...draftSources.map((row) => versionOf(row, "Draft", 1, republished.includes(String(row[idField])) ? 3 : 2)),
    ];
    if (versions.length > 0) changes.push({ op: "insert_records", object: KNOWLEDGE, records: versions });
    return {
      summary: `${archivedSources.length} archived and ${draftSources.length} draft article versions beside the published ones`,
      changes,
      text: [],
      distractorIds: versions.map((version) => String(version[idField])),
    };
  },
};
