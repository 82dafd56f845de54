import type { Command } from "commander";
import { loadAssessmentData, loadCalibration, resolveIdSecret } from "../data/index.js";
import { serve } from "../server/index.js";
import { createLogger } from "../util/index.js";
import { judgeFactoryFromEnv } from "./judge-from-env.js";
import { dataOptions, int } from "./options.js";

export function registerServe(program: Command): void {
  dataOptions(
    program
      .command("serve")
      .description("run the green agent as an A2A server")
      .option("--host <host>", "interface to listen on", "127.0.0.1")
      .option("--port <port>", "port to listen on", int("--port"), 9009)
      .option("--card-url <url>", "public URL advertised in the agent card (default http://HOST:PORT/)")
      .option("--proxy-url <url>", "the AgentBeats gateway's proxy: loopback participant URLs are reached through it (default: PROXY_URL)", process.env.PROXY_URL || undefined)
      .option("--max-assessments <n>", "assessments running or being admitted at once; more are rejected", int("--max-assessments"), 8)
      .option("--shutdown-grace <seconds>", "on SIGTERM/SIGINT, how long episodes in flight may finish before they are aborted", int("--shutdown-grace"), 5)
      .option("--runs-dir <dir>", "keep each assessment's journal here; the same request again continues it (default: ENTROPIC_RUNS_DIR)", process.env.ENTROPIC_RUNS_DIR),
  ).action(
    async (options: {
      host: string;
      port: number;
      cardUrl?: string;
      tasks?: string;
      org?: string;
      runsDir?: string;
      proxyUrl?: string;
      maxAssessments: number;
      shutdownGrace: number;
    }) => {
      const logger = createLogger();
      const data = await loadAssessmentData(options, logger);
      // The Id remap's secret, at the edge: every assessment of this server remaps with it.
      process.env.ENTROPIC_ID_SECRET = resolveIdSecret();
      const green = await serve({
        host: options.host,
        port: options.port,
        data,
        logger,
        calibration: loadCalibration(),
        createJudge: judgeFactoryFromEnv(logger),
        ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}),
        ...(options.runsDir ? { runsDir: options.runsDir } : {}),
        ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
        maxAssessments: options.maxAssessments,
      });
      logger.info({ url: green.url, host: options.host, port: options.port }, "green agent listening");
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
