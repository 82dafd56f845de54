import type { Command } from "commander";
import { journalBudgetBytes } from "../assessment/index.js";
import { loadCalibration, loadStartingData, namedTasksFile, resolveIdSecret, twinCacheBudgetBytes } from "../data/index.js";
import { collectGarbage, serve } from "../server/index.js";
import { createLogger } from "../util/index.js";
import { judgeFactoryFromEnv, purplesFromEnv, spendCeilingFromEnv, usersFromEnv } from "./deps-from-env.js";
import { dataOptions, int } from "./options.js";
import { checkRunsDir } from "./runs-dir.js";

export function registerServe(program: Command): void {
  dataOptions(
    program
      .command("serve")
      .description("run the green agent as an A2A server")
      .option("--host <host>", "interface to listen on", "127.0.0.1")
      .option(
        "--dataset <name>",
        "the data requests that name no dataset run on: a registered dataset (one that builds its own data, as the twins do, builds it from --tasks / ENTROPIC_TASKS / its own default)",
      )
      .option("--port <port>", "port to listen on", int("--port"), 9009)
      .option("--card-url <url>", "public URL advertised in the agent card (default http://HOST:PORT/)")
      .option("--proxy-url <url>", "the AgentBeats gateway's proxy: loopback participant URLs are reached through it (default: PROXY_URL)", process.env.PROXY_URL || undefined)
      .option("--max-assessments <n>", "assessments running or being admitted at once; more are rejected", int("--max-assessments"), 8)
      .option("--shutdown-grace <seconds>", "on SIGTERM/SIGINT, how long episodes in flight may finish before they are aborted", int("--shutdown-grace"), 5)
      .option("--no-mcp", "do not serve the episodes' tools over MCP (by default at <card URL>mcp/<token>, docs/protocol.md section 18)")
      .option("--runs-dir <dir>", "keep each assessment's journal here; the same request again continues it (default: ENTROPIC_RUNS_DIR)", process.env.ENTROPIC_RUNS_DIR),
  ).action(
    async (options: {
      host: string;
      port: number;
      cardUrl?: string;
      tasks?: string;
      org?: string;
      dataset?: string;
      runsDir?: string;
      proxyUrl?: string;
      maxAssessments: number;
      shutdownGrace: number;
      mcp: boolean;
    }) => {
      const logger = createLogger();
      // Before anything is loaded: a runs folder that cannot hold journals would fail every request.
      if (options.runsDir) checkRunsDir(options.runsDir);
      // A journal budget, twin cache size or spend ceiling the operator mistyped is refused at start, not at every request.
      journalBudgetBytes();
      twinCacheBudgetBytes();
      const spendCeiling = spendCeilingFromEnv();
      const data = await loadStartingData(options.dataset, options, logger);
      const green = await serve({
        host: options.host,
        port: options.port,
        data,
        tasksFile: namedTasksFile(options),
        logger,
        calibration: loadCalibration(),
        createJudge: judgeFactoryFromEnv(logger),
        // The Id remap's secret, at the edge: every assessment of this server remaps with it.
        idSecret: resolveIdSecret(),
        createUser: usersFromEnv(),
        createPurple: purplesFromEnv(),
        spendCeiling,
        ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}),
        ...(options.runsDir ? { runsDir: options.runsDir } : {}),
        ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
        maxAssessments: options.maxAssessments,
        mcp: options.mcp,
      });
      logger.info({ url: green.url, host: options.host, port: options.port }, "green agent listening");
      // The start-up's garbage (the data's loading, the tokenizer's) handed back before the server waits idle.
      setImmediate(collectGarbage);
      let stopping = false;
      const stop = (signal: string) => {
        // A second signal while stopping means: now.
        if (stopping) process.exit(130);
        stopping = true;
        logger.warn({ signal, graceSeconds: options.shutdownGrace }, "shutting down: no new episodes; assessments end with their partial results");
        void green.shutdown(options.shutdownGrace * 1000).then(async () => {
          await data.org.close();
          process.exit(0);
        });
      };
      process.on("SIGTERM", () => stop("SIGTERM"));
      process.on("SIGINT", () => stop("SIGINT"));
    },
  );
}
