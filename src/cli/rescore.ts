import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { readResults, rescore } from "../assessment/index.js";
import { CACHE_DIR, calibrationFor } from "../data/index.js";
import { llmConfigFromEnv } from "../llm/index.js";
import { readLog } from "../log/index.js";
import { buildResults } from "../report/index.js";
import { createJudge, HeuristicJudge, type Judge, offlineJudge } from "../scoring/index.js";
import { runLogCandidates } from "./results-input.js";

export function registerRescore(program: Command): void {
  program
    .command("rescore")
    .description("re-score a finished assessment from its run log (the journal named in the results)")
    .argument("<results>", "a results file (the green agent's results object, or a leaderboard file wrapping it)")
    .option("--log <file>", "the run's log (default: the one the results name)")
    .option("--no-llm", "never call a model: judgements come from the cache, else the heuristic")
    .option("--judge-cache <dir>", "the judgement cache (default: ENTROPIC_JUDGE_CACHE or data/cache/judgements)")
    .option("--out <file>", "write the re-scored results here (default: stdout)")
    .action(async (path: string, options: { log?: string; llm: boolean; judgeCache?: string; out?: string }) => {
      const recorded = await readResults(path);
      if (!options.log && !recorded.log_file) throw new Error(`${path} names no run log; pass --log FILE (assess writes one beside the results)`);
      // The log as the results name it, from where `assess` ran or beside the results file, as `show` and `report` find it.
      const logPath = options.log ?? runLogCandidates(path, recorded.log_file!)[0];
      if (!logPath) throw new Error(`cannot find the run log ${recorded.log_file} that ${path} names (looked for it as written and beside the results); pass --log FILE`);
      const stored = await readLog(logPath);
      const llm = llmConfigFromEnv();
      const cacheDir = options.judgeCache ?? llm.cacheDir ?? join(CACHE_DIR, "judgements");
      const recordedJudge = stored.header.judge;
      const judge: Judge =
        recordedJudge.mode === "heuristic"
          ? new HeuristicJudge()
          : !options.llm || !llm.primary.apiKey
            ? offlineJudge({ primary: recordedJudge.primaryModel ?? llm.primary.model, cheap: recordedJudge.cheapModel ?? llm.cheap.model }, cacheDir)
            : createJudge(llm, { cacheDir });
      const results = buildResults(await rescore(stored, judge, calibrationFor(stored.header.data.dataset), recorded.run.id), { logFile: logPath });
      const text = `${JSON.stringify(results, null, 2)}\n`;
      if (options.out) await writeFile(options.out, text);
      else process.stdout.write(text);
      process.stderr.write(
        `Re-scored ${results.summary.total_tasks} tasks (${results.judge.verdicts.cache} cached, ${results.judge.verdicts.llm} new model, ${results.judge.verdicts.heuristic} heuristic verdicts): passed ${recorded.summary.total_passed} -> ${results.summary.total_passed}, avg score ${recorded.summary.avg_score} -> ${results.summary.avg_score}\n`,
      );
    });
}
