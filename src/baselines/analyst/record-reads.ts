import type { TaskInfo, Tools } from "../server.js";

/** The record Id of a key prefix the task names (its required context first, then its question), or undefined. */
export function namedId(task: TaskInfo, prefix: string): string | undefined {
  const pattern = new RegExp(`\\b${prefix}[0-9A-Za-z]{12}(?:[0-9A-Za-z]{3})?\\b`);
  return pattern.exec(task.requiredContext)?.[0] ?? pattern.exec(task.prompt)?.[0];
}

/** A value of a record read through a relationship path ("Product2.Name"), flat or nested as the org returns it. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  if (path in record) return record[path];
  let at: unknown = record;
  for (const part of path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

const quoted = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Rows per page when reading a whole object: under the org's row cap, so no page is cut short. */
const PAGE = 500;

/**
 * The org's knowledge articles with their texts (the published ones), read page by page in Id
 * order: other articles may be many, and one query's rows are capped. Pages go by OFFSET (an
 * `Id >` cursor would follow the engine's collation of mixed-case Ids, not the sort's).
 */
export async function knowledgeArticles(tools: Tools): Promise<{ readonly id: string; readonly title: string; readonly text: string }[]> {
  const rows: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await tools.soql(`SELECT Id, Title, Summary, FAQ_Answer__c FROM Knowledge__kav ORDER BY Id LIMIT ${PAGE} OFFSET ${offset}`);
    rows.push(...page);
    if (page.length < PAGE) break;
  }
  return rows.map((row) => ({
    id: String(row.Id),
    title: String(row.Title ?? ""),
    text: [row.FAQ_Answer__c, row.Summary].filter((part) => typeof part === "string").join("\n"),
  }));
}

/** Records of `object` whose `field` is one of `values`, read in chunks so a long list stays a short query. */
export async function recordsIn(tools: Tools, object: string, fields: string, field: string, values: readonly string[]): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const unique = [...new Set(values)];
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    out.push(...(await tools.soql(`SELECT ${fields} FROM ${object} WHERE ${field} IN (${chunk.map(quoted).join(", ")})`)));
  }
  return out;
}
