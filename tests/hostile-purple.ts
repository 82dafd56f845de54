/**
 * A hostile purple in a process of its own (so its work never lands on the green's event loop in
 * a test): `node --import tsx tests/hostile-purple.ts <mode>` serves on a loopback port, prints
 * its URL, then a line `query` for every query it sends. Until it reads `stop` on stdin every
 * episode sends its mode's query turn after turn; after that each answers None at once.
 */
import { createInterface } from "node:readline";
import { type Strategy, servePurple } from "../src/baselines/index.js";

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
const query = HOSTILE_QUERIES[mode];
if (!query) throw new Error(`mode must be one of ${Object.keys(HOSTILE_QUERIES).join(", ")} (got ${mode})`);

let stopped = false;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "stop") stopped = true;
});
process.stdin.on("end", () => process.exit(0));

/** Turns an episode may take: under the request's max_steps (100), so every episode still ends by answering. */
const MAX_QUERIES = 95;

const strategy: Strategy = async (_task, tools) => {
  for (let sent = 0; sent < MAX_QUERIES && !stopped; sent++) {
    process.stdout.write("query\n");
    await tools.sql(query).catch(() => undefined);
  }
  return "None";
};

const { url } = await servePurple(`hostile ${mode}`, strategy, "127.0.0.1", 0);
process.stdout.write(`${url}\n`);
