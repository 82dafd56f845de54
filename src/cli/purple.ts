import { Option, type Command } from "commander";
import { oracleStrategy, servePurple, solverStrategy } from "../baselines/index.js";
import { chooseData } from "../data/paths.js";
import { loadTaskFile } from "../tasks/load.js";
import { createLogger } from "../util/logger.js";
import { int } from "./options.js";

export function registerPurple(program: Command): void {
  program
    .command("purple")
    .description("run a reference purple agent as an A2A server")
    .addOption(new Option("--strategy <name>", "oracle answers from the ground truth; solver queries the org").choices(["oracle", "solver"]).makeOptionMandatory())
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on", int("--port"), 9019)
    .option("--tasks <file>", "task file the oracle reads its answers from (default: as the green agent chooses)")
    .action(async (options: { strategy: "oracle" | "solver"; host: string; port: number; tasks?: string }) => {
      const strategy = options.strategy === "oracle" ? oracleStrategy(loadTaskFile(options.tasks ?? chooseData({ tasks: undefined }).tasksPath)) : solverStrategy;
      const { url } = await servePurple(options.strategy, strategy, options.host, options.port);
      createLogger().info({ url, strategy: options.strategy }, "reference purple agent listening");
    });
}
