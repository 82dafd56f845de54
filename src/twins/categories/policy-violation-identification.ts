import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

/**
 * The answer program: the communication-policy article the agent's words in the case's e-mails
 * or live chat break, or null. Which policy an agent's line breaks lives only in the text the
 * generator wrote (a policy's forbidden phrase in the agent's line), so the program reads the
 * generator's record of it (`facts.caseViolation`); undefined for a case the generator did not
 * write communications for.
 */
export function caseViolationAnswer(world: TwinWorld, caseId: string): string | null | undefined {
  if (!world.facts.caseViolation.has(caseId)) return undefined;
  return world.facts.caseViolation.get(caseId) ?? null;
}

const CASE_ID = /\b500[0-9A-Za-z]{12}(?:[0-9A-Za-z]{3})?\b/g;

/** The generator's cases split by None-ness, once per world. */
const casesByNoneness = new WeakMap<TwinWorld, { readonly none: string[]; readonly violated: string[] }>();

function casesOf(world: TwinWorld): { readonly none: string[]; readonly violated: string[] } {
  let split = casesByNoneness.get(world);
  if (!split) {
    split = { none: [], violated: [] };
    for (const row of world.rows("Case")) {
      const answer = caseViolationAnswer(world, String(row.Id));
      if (answer === null) split.none.push(String(row.Id));
      else if (answer !== undefined) split.violated.push(String(row.Id));
    }
    casesByNoneness.set(world, split);
  }
  return split;
}

/** Did the agent breach a communication policy in a case? The real wording verbatim, the Case Id swapped for a twin case of the wanted None-ness. */
export const policyViolationIdentification = defineTwinCategory({
  name: "policy_violation_identification",
  twin: ({ source, world, rng, wantNone }) => {
    if (source.metadata.required.search(CASE_ID) < 0) return undefined;
    const pool = wantNone ? casesOf(world).none : casesOf(world).violated;
    if (pool.length === 0) return undefined;
    const caseId = rng.pick(pool);
    return {
      query: source.query.replace(CASE_ID, caseId),
      required: source.metadata.required.replace(CASE_ID, caseId),
      answer: [caseViolationAnswer(world, caseId) ?? null],
    };
  },
});
