/**
 * A hostile purple in a process of its own (so its work never lands on the green's event loop in
 * a test): `node --import tsx tests/support/hostile-purple.ts <mode> [mcp]` serves on a loopback port,
 * prints its URL, then a line `query` for every query it sends. Until it reads `stop` on stdin every
 * episode sends its mode's query turn after turn; after that each answers None at once. With `mcp`
 * the queries go over the episode's MCP endpoint instead, as many at once as the green serves an
 * episode (and one more, which it refuses), the answer in the first A2A reply.
 */
import { createInterface } from "node:readline";
import { type Strategy, servePurple } from "../../src/baselines/index.js";

/** What each hostile mode sends, over and over. */
export const HOSTILE_QUERIES = {
  /** An endless recursive CTE counted: it never hands a row back, so only a kill stops it. */
  "cte-bomb": "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r",
  /** A cross join of about 100 million rows counted: a second or more of SQLite each. */
  "cross-join": `SELECT count(*) FROM Task a, Task b, Contact c`,
  /** As many rows as the limits let through: about a megabyte per observation. */
  "large-result": "SELECT * FROM EmailMessage a, EmailMessage b",
} as const;

export type HostileMode = keyof typeof HOSTILE_QUERIES;

const mode = process.argv[2] as HostileMode;
const overMcp = process.argv[3] === "mcp";
const query = HOSTILE_QUERIES[mode];
if (!query) throw new Error(`mode must be one of ${Object.keys(HOSTILE_QUERIES).join(", ")} (got ${mode})`);

let stopped = false;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "stop") stopped = true;
});
process.stdin.on("end", () => process.exit(0));

/** Turns an episode may take: under the request's max_steps (100), so every episode still ends by answering. */
const MAX_QUERIES = 95;

/** Calls an episode keeps in flight over MCP: the green serves 4 at once (SIDE_CALLS_IN_FLIGHT) and refuses the fifth. */
const LANES = overMcp ? 5 : 1;

const strategy: Strategy = async (_task, tools) => {
  let sent = 0;
  const lane = async () => {
    while (sent < MAX_QUERIES && !stopped) {
      sent++;
      process.stdout.write("query\n");
      await tools.sql(query).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return "None";
};

const { url } = await servePurple(`hostile ${mode}${overMcp ? " over MCP" : ""}`, strategy, "127.0.0.1", 0, { mcp: overMcp });
process.stdout.write(`${url}\n`);
