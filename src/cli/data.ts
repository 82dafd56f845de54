import type { Command } from "commander";
import { fetchData } from "../data/index.js";

export function registerData(program: Command): void {
  program
    .command("data")
    .description("manage the real CRMArena-Pro data")
    .command("fetch")
    .description("download the CRMArena-Pro B2B tasks and org database into data/cache/ (resumable, checksum-verified)")
    .option("--force", "download again even if the files are present")
    .action(async (options: { force?: boolean }) => {
      await fetchData({ force: options.force ?? false });
    });
}
