import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

const OPPORTUNITY_ID = /\b006[A-Za-z0-9]{15}\b/g;

/**
 * The answer program: the stage an opportunity's tasks describe (the generator planted each
 * opportunity's activities from one true stage), None when the recorded stage already is it.
 */
export function rectifiedStage(world: TwinWorld, opportunityId: string): string | null | undefined {
  const trueStage = world.facts.opportunityTrueStage.get(opportunityId);
  const opportunity = world.byId(opportunityId);
  if (!trueStage || !opportunity || world.where("Task", "WhatId", opportunityId).length === 0) return undefined;
  return opportunity.StageName === trueStage ? null : trueStage;
}

export const wrongStageRectification = defineTwinCategory({
  name: "wrong_stage_rectification",
  twin: ({ source, world, rng, wantNone }) => {
    const candidates = [...world.facts.opportunityTrueStage.entries()].filter(([id, stage]) => (world.byId(id)?.StageName === stage) === wantNone).map(([id]) => id);
    if (candidates.length === 0) return undefined;
    const opportunityId = rng.pick(candidates);
    const answer = rectifiedStage(world, opportunityId);
    if (answer === undefined) return undefined;
    return {
      query: source.query.replace(OPPORTUNITY_ID, opportunityId),
      required: source.metadata.required.replace(OPPORTUNITY_ID, opportunityId),
      answer: [answer],
    };
  },
});
