import { stageGuideText } from "../../sample/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

const OPPORTUNITY_ID = /\b006[A-Za-z0-9]{15}\b/g;

/** Each stage's activities, from the generator's stage activity guide (the text its tasks were written from). */
function stageActivities(): Map<string, Set<string>> {
  const stages = new Map<string, Set<string>>();
  for (const line of stageGuideText().split("\n")) {
    const at = line.indexOf(":");
    stages.set(
      line.slice(0, at).trim(),
      new Set(
        line
          .slice(at + 1)
          .replace(/\.$/, "")
          .split(";")
          .map((activity) => activity.trim()),
      ),
    );
  }
  return stages;
}

const ACTIVITIES = stageActivities();

/**
 * The answer program: the Ids of an opportunity's 'Not Started' tasks whose activity is not one
 * of its current stage's; undefined for an opportunity whose tasks disagree with its stage as a
 * whole (a wrongly staged one, where "the opportunity's stage" would be ambiguous).
 */
export function mismatchedTasks(world: TwinWorld, opportunityId: string): string[] | undefined {
  const opportunity = world.byId(opportunityId);
  const stage = opportunity ? String(opportunity.StageName) : undefined;
  if (!stage || world.facts.opportunityTrueStage.get(opportunityId) !== stage) return undefined;
  const own = ACTIVITIES.get(stage);
  if (!own) return undefined;
  return world
    .where("Task", "WhatId", opportunityId)
    .filter((task) => task.Status === "Not Started" && !own.has(String(task.Subject)))
    .map((task) => String(task.Id));
}

export const activityPriority = defineTwinCategory({
  name: "activity_priority",
  twin: ({ source, world, rng, wantNone }) => {
    const candidates = [...world.facts.opportunityTrueStage.keys()];
    for (let tries = 0; tries < 30; tries++) {
      const opportunityId = rng.pick(candidates);
      const tasks = mismatchedTasks(world, opportunityId);
      if (!tasks || world.where("Task", "WhatId", opportunityId).length === 0 || (tasks.length === 0) !== wantNone) continue;
      return {
        query: source.query.replace(OPPORTUNITY_ID, opportunityId),
        required: source.metadata.required.replace(OPPORTUNITY_ID, opportunityId),
        answer: tasks.length === 0 ? [null] : tasks,
      };
    }
    return undefined;
  },
});
