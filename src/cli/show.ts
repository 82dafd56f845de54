import type { Command } from "commander";
import { episodeIndexText, episodeViews, showText } from "../report/index.js";
import { loadResults, logOptions } from "./results-input.js";

export function registerShow(program: Command): void {
  logOptions(
    program
      .command("show")
      .description("print one episode turn by turn: actions, observations, tokens, timings, the answer, the verdict and the scores")
      .argument("<results>", "a results file (assess --out, or the AgentBeats artifact's data part)")
      .option("--task <idx>", "the task index (task_idx) of the episode; without it, list the episodes")
      .option("--full", "print observations whole (default: their first lines)"),
  ).action(async (path: string, options: { task?: string; full?: boolean; log?: string | boolean }) => {
    const loaded = await loadResults(path, options.log);
    const episodes = episodeViews(loaded.results, loaded.log?.episodes);
    if (options.task === undefined) {
      process.stdout.write(episodeIndexText(episodes));
      return;
    }
    const episode = episodes.find((candidate) => candidate.idx === options.task);
    if (!episode) {
      const known = episodes.map((candidate) => candidate.idx);
      throw new Error(`${path} has no task ${options.task}; its tasks are ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … (${known.length} in all)` : ""}`);
    }
    process.stdout.write(showText(episode, { full: options.full === true, source: loaded.source, weights: loaded.results.weights }));
  });
}
