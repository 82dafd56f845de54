import type { CategorySolver } from "./solver.js";
import { idInTask, stageGuide, stageOfActivity } from "./text-reading.js";

/**
 * The stage an opportunity's tasks describe: each task's subject is matched to the stage activity
 * guide, and the stage most tasks belong to is the right one; None when the recorded stage is it.
 */
export const wrongStageRectification: CategorySolver = async (task, tools) => {
  const opportunityId = idInTask(task, "006");
  if (!opportunityId) return "None";
  const [opportunity] = await tools.soql(`SELECT StageName FROM Opportunity WHERE Id = '${opportunityId}'`);
  const tasks = await tools.soql(`SELECT Id, Subject FROM Task WHERE WhatId = '${opportunityId}'`);
  const guide = await stageGuide(task, tools);
  const votes = new Map<string, number>();
  for (const row of tasks) {
    const stage = stageOfActivity(String(row.Subject ?? ""), guide);
    if (stage) votes.set(stage, (votes.get(stage) ?? 0) + 1);
  }
  const [winner] = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  if (!winner || winner[0] === opportunity?.StageName) return "None";
  return winner[0];
};
