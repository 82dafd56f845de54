import { describeSchema } from "./describe-schema.js";
import { respond } from "./respond.js";
import { soqlQuery } from "./soql-query.js";
import { soslSearch } from "./sosl-search.js";
import type { ToolSpec } from "./spec.js";
import { sqlQuery } from "./sql-query.js";

/** The built-in tools, one line each, in the order the purple is shown them. */
export const BUILT_IN_TOOLS: readonly ToolSpec[] = [describeSchema, soqlQuery, soslSearch, sqlQuery, respond];
