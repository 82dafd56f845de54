import { HeuristicJudge, scoreOriginal, scoreSuccess } from "./src/scoring/index.ts";
import { contentStems } from "./src/scoring/normalize.ts";
import { loadTaskFile } from "./src/tasks/load.ts";
const tasks = loadTaskFile("../shared/data/crmarenapro/b2b_tasks.json").tasks;
const judge = new HeuristicJudge();
const textOf = (task: any) => `${task.query}\n${task.metadata.required}\n${task.metadata.optional}`;
const JUST = ["It comes up most often in the records for the period you asked about.", "That is what the transcripts and notes point to most clearly.", "I read every relevant call and this stands out above the rest."];
const rows = new Map<string, { n: number; pass: number; fails: string[] }>();
const add = async (name: string, task: any, answer: string) => {
  const scored = { task: task.task, reward_metric: task.reward_metric, answer: task.answer };
  const original = await scoreOriginal(scored, answer, [answer], judge);
  const success = await scoreSuccess(scored, answer, original, { taskText: textOf(task), observations: [] }, judge);
  const row = rows.get(name) ?? { n: 0, pass: 0, fails: [] };
  row.n++; if (success.passed) row.pass++; if ((name.includes('justified')||name.includes('there are')||name.includes('such')) !== success.passed && row.fails.length < 4) row.fails.push(`${task.task}: ${answer.slice(0, 140)} [${success.method}: ${success.reason?.slice(0, 100)}]`);
  rows.set(name, row);
};
let k = 0;
for (const task of tasks) {
  const truth = task.answer.map((v: any) => v ?? "None");
  if (task.reward_metric === "fuzzy_match") {
    const own = new Set(contentStems(truth[0]!));
    const rivals = tasks.filter((o: any) => o.task === task.task && o.answer[0] && contentStems(o.answer[0]).every((w: string) => !own.has(w)));
    const rival = rivals[(task.idx * 7) % Math.max(1, rivals.length)]?.answer[0];
    k++;
    await add(`${task.task} justified`, task, `${truth[0]}. ${JUST[k % 3]}`);
    if (!rival) continue;
    await add(`${task.task} json hedge`, task, JSON.stringify([truth[0], rival]));
    await add(`${task.task} numbered`, task, `1. ${truth[0]} 2. ${rival}`);
    await add(`${task.task} if not`, task, `${truth[0]}; if not, then ${rival.toLowerCase()}`);
    await add(`${task.task} lower rival`, task, `${truth[0]}, ${rival.toLowerCase()}`);
  }
  if (task.reward_metric === "exact_match" && truth.length === 1 && truth[0] === "None") {
    await add("none: I don't know", task, "I don't know.");
    await add("none: unable to determine", task, "Unable to determine.");
    await add("none: there are none", task, "There are none.");
    if (!["lead_qualification", "wrong_stage_rectification"].includes(task.task)) await add("none: no such record", task, "No such record exists.");
  }
}
for (const [name, row] of rows) console.log(name.padEnd(40), `${row.pass}/${row.n}`, (100 * row.pass / row.n).toFixed(1), "\n   " + row.fails.join("\n   "));
