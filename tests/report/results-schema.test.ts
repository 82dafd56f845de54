import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { QUERIES_FILE } from "../../leaderboard/queries.js";
import { asAssessmentLog, readLog } from "../../src/log/index.js";
import { buildResults, ResultsSchema, resultsReference } from "../../src/report/index.js";

/**
 * The results object has one layout, ResultsSchema: buildResults writes it (its return type is the
 * schema's, and what it writes parses), and the leaderboard's queries name only fields it has.
 */

type Schema = z.core.$ZodType;
const def = (schema: Schema) => schema._zod.def as unknown as Record<string, unknown> & { type: string };

/** The schema a path segment leads to, or undefined when the layout has no such field; "any" past a block typed by its builder. */
function step(schema: Schema, segment: string): Schema | "any" | undefined {
  const d = def(schema);
  switch (d.type) {
    case "optional":
    case "nullable":
    case "default":
      return step(d.innerType as Schema, segment);
    case "union":
      for (const option of d.options as Schema[]) {
        const next = step(option, segment);
        if (next !== undefined) return next;
      }
      return undefined;
    case "object":
      return (d.shape as Record<string, Schema>)[segment];
    case "record":
      return segment.startsWith("[") ? undefined : (d.valueType as Schema);
    case "array":
      return segment.startsWith("[") ? (d.element as Schema) : undefined;
    case "tuple":
      return /^\[\d+\]$/.test(segment) ? (d.items as Schema[])[Number(segment.slice(1, -1))] : undefined;
    case "custom":
    case "unknown":
      return "any";
    default:
      return undefined;
  }
}

/** Does the layout have the field at `path` (DuckDB's JSON path: `$.a.b[*].c`, `$.x."1"[0]`)? */
function hasPath(root: Schema, path: string): boolean {
  const segments = [...path.replace(/^\$/, "").matchAll(/\.(?:"([^"]+)"|(\w+))|(\[[^\]]+\])/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
  let schema: Schema | "any" | undefined = root;
  for (const segment of segments) {
    if (schema === "any") return true;
    schema = step(schema, segment);
    if (schema === undefined) return false;
  }
  return true;
}

/** Every JSON path the queries read, with what it is read from. */
function queryPaths(): { context: string; path: string }[] {
  const queries = JSON.parse(readFileSync(QUERIES_FILE, "utf8")) as { query: string }[];
  return queries.flatMap(({ query }) =>
    [...query.matchAll(/json_extract(?:_string)?\(([^,]+),\s*'(\$[^']*)'\)/g)].map((match) => ({ context: match[1]!.trim(), path: match[2]! })),
  );
}

describe("the results schema", () => {
  it("has every field the leaderboard's queries read", () => {
    // `o` is a results object, `t` an entry of its aggregates.tasks, the participants column the file's; `objects` is the file's list.
    const roots: Record<string, string> = { o: "$", t: "$.aggregates.tasks[*]", "to_json(r.participants)": "$.participants" };
    const paths = queryPaths();
    expect(paths.length).toBeGreaterThan(40);
    const unknown = paths
      .filter(({ context }) => context !== "objects")
      .filter(({ context, path }) => !(context in roots) || !hasPath(ResultsSchema, `${roots[context]}${path.slice(1)}`))
      .map(({ context, path }) => `${context}: ${path}`);
    expect([...new Set(unknown)]).toEqual([]);
    // The walk refuses what the layout lacks.
    expect(hasPath(ResultsSchema, "$.summary.no_such_figure")).toBe(false);
    expect(hasPath(ResultsSchema, "$.run.selection.size")).toBe(true);
  });

  it("describes every key of the results object", () => {
    const undescribed = Object.entries(ResultsSchema.shape)
      .filter(([, schema]) => !(schema as z.ZodType).description)
      .map(([key]) => key);
    expect(undescribed).toEqual([]);
  });

  it.each(["golden-v1", "golden-v2"])("is what buildResults writes: the results of %s parse, with the keys in the schema's order", async (name) => {
    const log = await readLog(new URL(`../fixtures/logs/${name}.jsonl`, import.meta.url).pathname);
    const results = buildResults(asAssessmentLog(log));
    const parsed = ResultsSchema.safeParse(results);
    expect(parsed.success ? [] : parsed.error.issues.slice(0, 3)).toEqual([]);
    const order = Object.keys(ResultsSchema.shape);
    expect(Object.keys(results)).toEqual(order.filter((key) => key in results));
  });

  it("is what docs/reference.md's results keys say, word for word", () => {
    const doc = readFileSync(new URL("../../docs/reference.md", import.meta.url), "utf8");
    const table = /<!-- results-keys[^>]*-->\n([\s\S]*?)\n<!-- \/results-keys -->/.exec(doc)?.[1];
    // On a difference, paste resultsReference() between the markers (the expected value below).
    expect(table).toBe(resultsReference());
  });
});
