import { type Command, InvalidArgumentError } from "commander";
import { fetchData } from "../data/index.js";
import { BUILT_IN_DATASETS, datasets } from "../datasets/index.js";

const downloadable = () => datasets().filter((spec) => spec.fetch);

export function registerData(program: Command): void {
  const benchmark = BUILT_IN_DATASETS[0]!;
  program
    .command("data")
    .description("manage the real CRMArena-Pro data")
    .command("fetch")
    .description("download the CRMArena-Pro B2B tasks and org database into data/cache/ (resumable, checksum-verified)")
    .option("--force", "download again even if the files are present")
    .option(
      "--dataset <name>",
      `the dataset to download (${downloadable()
        .map((spec) => spec.name)
        .join(", ")})`,
      benchmark.name,
    )
    .action(async (options: { force?: boolean; dataset: string }) => {
      const spec = downloadable().find((candidate) => candidate.name === options.dataset);
      if (!spec)
        throw new InvalidArgumentError(
          `--dataset: ${options.dataset} is not downloaded; the datasets data fetch gets are ${downloadable()
            .map((entry) => entry.name)
            .join(", ")}`,
        );
      await fetchData({ force: options.force ?? false }, spec);
    });
}
