import { z } from "zod";
import { defineTool } from "./spec.js";

export const soslSearch = defineTool({
  name: "sosl_search",
  final: false,
  description: "Run a SOSL text search, e.g. FIND {network scalability} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c).",
  arguments: z.object({ search: z.string().trim().min(1, "search must not be empty").describe("The SOSL search.") }).strict(),
  requires: ["sosl"],
  queryText: (args) => args.search,
  trim: (args, cut) => ({ search: cut(args.search) }),
  show: (args) => `sosl_search: ${args.search}`,
  run: (args, port, context) => port.sosl(args.search, context),
});
