import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

const BANT_ORDER = ["Budget", "Authority", "Need", "Timeline"];
const LEAD_ID = /\b00Q[A-Za-z0-9]{15}\b/g;

/**
 * The answer program: the BANT factors a lead's call transcripts state as unmet, in BANT order,
 * joined as CRMArena-Pro writes a multi-factor answer ("Authority, Need"); None when all are met.
 * The answer lives in the transcripts the generator wrote, so it is read from what it planted.
 */
export function unmetFactors(world: TwinWorld, leadId: string): string | null | undefined {
  const unmet = world.facts.leadUnmet.get(leadId);
  if (!unmet) return undefined;
  if (unmet.length === 0) return null;
  return [...unmet].sort((a, b) => BANT_ORDER.indexOf(a) - BANT_ORDER.indexOf(b)).join(", ");
}

export const leadQualification = defineTwinCategory({
  name: "lead_qualification",
  twin: ({ source, world, rng, wantNone }) => {
    const candidates = [...world.facts.leadUnmet.entries()].filter(([, unmet]) => (unmet.length === 0) === wantNone).map(([id]) => id);
    if (candidates.length === 0) return undefined;
    const leadId = rng.pick(candidates);
    const answer = unmetFactors(world, leadId);
    if (answer === undefined) return undefined;
    return {
      query: source.query.replace(LEAD_ID, leadId),
      required: source.metadata.required.replace(LEAD_ID, leadId),
      answer: [answer],
    };
  },
});
