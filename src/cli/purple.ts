import { type Command, Option } from "commander";
import { analystStrategy, LLM_MODES, type LlmMode, llmPurpleConfigFromEnv, oracleStrategy, serveLlmPurple, servePurple, solverStrategy } from "../baselines/index.js";
import { chooseData, resolveIdSecret } from "../data/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { createLogger } from "../util/index.js";
import { int } from "./options.js";

export function registerPurple(program: Command): void {
  program
    .command("purple")
    .description("run a reference purple agent as an A2A server")
    .addOption(
      new Option(
        "--strategy <name>",
        "oracle answers from the ground truth; solver queries the org (written for the bundled sample); analyst queries the org (written from the real tasks' wording, for twins and the real data); llm drives an OpenAI-compatible model (docs/llm-purple.md)",
      )
        .choices(["oracle", "solver", "analyst", "llm"])
        .makeOptionMandatory(),
    )
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on", int("--port"), 9019)
    .option("--card-url <url>", "URL the agent card advertises (AgentBeats passes it to every container)")
    .option("--tasks <file>", "task file the oracle reads its answers from (default: as the green agent chooses)")
    .option("--model <name>", "llm: the model (overrides PURPLE_LLM_MODEL)")
    .addOption(
      new Option("--mode <mode>", "llm: native tool calls, CRMArena-Pro tags, or native tool calls with the tools of the green's MCP endpoint (overrides PURPLE_LLM_MODE)").choices(
        [...LLM_MODES],
      ),
    )
    .action(
      async (options: { strategy: "oracle" | "solver" | "analyst" | "llm"; host: string; port: number; cardUrl?: string; tasks?: string; model?: string; mode?: LlmMode }) => {
        exitOnSignals();
        if (options.strategy === "llm") {
          const config = llmPurpleConfigFromEnv(process.env, { ...(options.model ? { model: options.model } : {}), ...(options.mode ? { mode: options.mode } : {}) });
          const { url } = await serveLlmPurple({ config, host: options.host, port: options.port, ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}) });
          createLogger().info(
            { url, strategy: "llm", model: config.model, mode: config.mode, baseURL: config.baseURL ?? "https://api.openai.com/v1" },
            "reference purple agent listening",
          );
          return;
        }
        // The oracle holds what only the green holds, the Id remap's secret: this installation's, as the green's.
        const strategy =
          options.strategy === "oracle"
            ? oracleStrategy(loadTaskFile(options.tasks ?? chooseData({ tasks: undefined }).tasksPath), { secret: resolveIdSecret() })
            : options.strategy === "analyst"
              ? analystStrategy
              : solverStrategy;
        const { url } = await servePurple(options.strategy, strategy, options.host, options.port, options.cardUrl ? { cardUrl: options.cardUrl } : {});
        createLogger().info({ url, strategy: options.strategy }, "reference purple agent listening");
      },
    );
}

/**
 * Exits at once on SIGTERM or SIGINT: a reference purple keeps nothing worth waiting for (replies
 * in flight are cut; the green treats them as a purple that went away). Node running as PID 1 (a
 * container whose runner replaces the image's entrypoint, and with it tini) has no default action
 * for SIGTERM, so without this `docker stop` would wait out its timeout and then kill the agent.
 */
function exitOnSignals(): void {
  const exit = (signal: NodeJS.Signals) => {
    createLogger().info({ signal }, "reference purple agent stopping");
    process.exit(0);
  };
  process.once("SIGTERM", exit);
  process.once("SIGINT", exit);
}
