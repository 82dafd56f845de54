import { z } from "zod";
import { defineTool } from "./spec.js";

export const sqlQuery = defineTool({
  name: "sql_query",
  final: false,
  description:
    'Run one read-only SQLite SELECT (or WITH) query over the org; one table per object, one column per field. Quote the reserved names "Case", "Order" and "User". Dates are text: YYYY-MM-DD; datetimes YYYY-MM-DDTHH:MM:SS.000+0000.',
  arguments: z.object({ query: z.string().trim().min(1, "query must not be empty").describe("The SQL query.") }).strict(),
  requires: ["sql"],
  queryText: (args) => args.query,
  trim: (args, cut) => ({ query: cut(args.query) }),
  show: (args) => `sql_query: ${args.query}`,
  // Listed first in the reminder where the backend has SQL: the form most models write unprompted.
  reminder: { slot: "query", rank: 0, args: { query: "..." } },
  run: (args, port) => port.sql(args.query),
});
