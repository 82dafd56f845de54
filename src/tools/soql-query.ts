import { z } from "zod";
import { defineTool } from "./spec.js";

export const soqlQuery = defineTool({
  name: "soql_query",
  final: false,
  description:
    "Run a SOQL query, as on Salesforce: relationship paths (Account.ShippingState, Owner.Name), semi-joins, date literals (LAST_N_DAYS:30, THIS_QUARTER, 2023-01-31, 2023-01-31T00:00:00Z), aggregates with GROUP BY/HAVING, child subqueries. TODAY is the task's date.",
  arguments: z
    .object({
      query: z.string().trim().min(1, "query must not be empty").describe("The SOQL query, e.g. SELECT Id, Subject FROM Case WHERE Status = 'Closed' LIMIT 5."),
    })
    .strict(),
  requires: ["soql"],
  queryText: (args) => args.query,
  trim: (args, cut) => ({ query: cut(args.query) }),
  show: (args) => `soql_query: ${args.query}`,
  reminder: { slot: "query", rank: 1, args: { query: "..." } },
  run: (args, port, context) => port.soql(args.query, context),
});

/** The JSON tool call the first message shows as its example. */
export const SOQL_EXAMPLE = { query: "SELECT Id, Name FROM Account LIMIT 5" };
