import type { CategorySolver } from "./solver.js";
import { idInTask, stageGuide, stageOfActivity } from "./text-reading.js";

/** The opportunity's 'Not Started' tasks whose activity belongs to another stage than the opportunity's, by the stage activity guide. */
export const activityPriority: CategorySolver = async (task, tools) => {
  const opportunityId = idInTask(task, "006");
  if (!opportunityId) return "None";
  const [opportunity] = await tools.soql(`SELECT StageName FROM Opportunity WHERE Id = '${opportunityId}'`);
  const open = await tools.soql(`SELECT Id, Subject FROM Task WHERE WhatId = '${opportunityId}' AND Status = 'Not Started'`);
  const guide = await stageGuide(task, tools);
  const off = open.filter((row) => {
    const stage = stageOfActivity(String(row.Subject ?? ""), guide);
    return stage !== undefined && stage !== opportunity?.StageName;
  });
  return off.length > 0 ? off.map((row) => String(row.Id)).join(", ") : "None";
};
