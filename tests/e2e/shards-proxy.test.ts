import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { QUERIES } from "../../leaderboard/queries.js";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { mergeShards } from "../../src/report/index.js";
import { assessmentParams, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

/** A reverse proxy on a port of its own, as the AgentBeats gateway puts one before each shard's purple. */
function proxyTo(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

const data = await sampleData();
const servers: Server[] = [];
const work = mkdtempSync(join(tmpdir(), "entropic-shards-"));
afterAll(async () => {
  for (const server of servers) server.close();
  rmSync(work, { recursive: true, force: true });
  await data.org.close();
});

describe("shards reached through proxies on different ports", () => {
  it("are one run: the same run id, merged exactly, and shown once in the leaderboard's All Runs (a sample run is off the ranked track)", async () => {
    const purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    servers.push(purple.server);
    const [first, second] = await Promise.all([proxyTo(purple.url), proxyTo(purple.url)]);
    servers.push(first.server, second.server);
    expect(first.url).not.toBe(second.url);
    const green = await startGreen(data);
    servers.push(green.server);
    const shard = async (url: string, index: number) => {
      const { body } = await rawRpc(
        green.url,
        "message/send",
        assessmentParams({ participants: { agent: url }, config: { task_limit: 6, num_shards: 2, shard_index: index, seed: 5 } }),
      );
      expect(body.result.status.state).toBe("completed");
      return resultsOf(body.result);
    };
    const shards = [await shard(first.url, 0), await shard(second.url, 1)];
    expect(shards[0].run.id).toBe(shards[1].run.id);
    expect(shards[0].participants.agent).not.toBe(shards[1].participants.agent);
    const merged = mergeShards(shards);
    expect(merged.summary.total_tasks).toBe(6);

    // As the AgentBeats workflow writes a sharded run: one file, the shards' result objects in it.
    const folder = join(work, "results");
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    writeFileSync(join(folder, "run.json"), JSON.stringify({ participants: { agent: "0d7c5f1e-agent" }, results: shards }));
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    try {
      await connection.run(`CREATE VIEW results AS SELECT * FROM read_json_auto('${join(folder, "*.json")}')`);
      // A sample run is off the ranked track: the first three tabs leave it out, All Runs shows it once, its shards added up.
      for (const { name, query } of QUERIES.slice(0, 3)) expect((await connection.runAndReadAll(query)).getRowObjectsJson(), name).toHaveLength(0);
      const allRuns = QUERIES.find((entry) => entry.name === "All Runs")!;
      const rows = (await connection.runAndReadAll(allRuns.query)).getRowObjectsJson() as Record<string, unknown>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.Tasks).toBe(6);
      expect(String(rows[0]!["Why Not Ranked"])).toMatch(/sample/);
    } finally {
      connection.closeSync();
    }
  }, 120_000);
});
