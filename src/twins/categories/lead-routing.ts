import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

const REGION = /(Lead's region:\s*)([A-Z]{2})\b/;

/** The single best of `agents` by `score` (higher wins), or all that share it. */
function best(agents: readonly string[], score: (agent: string) => number): string[] {
  let top = Number.NEGATIVE_INFINITY;
  let winners: string[] = [];
  for (const agent of agents) {
    const value = score(agent);
    if (value > top) {
      top = value;
      winners = [agent];
    } else if (value === top) winners.push(agent);
  }
  return winners;
}

/**
 * The agent the Lead Routing Policy assigns a lead of `region` (a state code): the territory
 * whose Description (a comma-separated list of states) names it; among its users
 * (UserTerritory2Association), the most quotes with Status 'Accepted' on opportunities they own;
 * on a tie, the fewest unconverted leads they own. Undefined when no single territory matches
 * or the tie survives both steps (such a region has no unique answer).
 */
export function routeLead(world: TwinWorld, region: string): string | undefined {
  const territories = world.rows("Territory2").filter((territory) =>
    String(territory.Description ?? "")
      .split(",")
      .some((state) => state.trim().toUpperCase() === region.toUpperCase()),
  );
  if (territories.length !== 1) return undefined;
  const agents = [...new Set(world.where("UserTerritory2Association", "Territory2Id", String(territories[0]!.Id)).map((row) => String(row.UserId)))];
  const accepted = (agent: string) =>
    world
      .where("Opportunity", "OwnerId", agent)
      .reduce((sum, opportunity) => sum + world.where("Quote", "OpportunityId", String(opportunity.Id)).filter((quote) => quote.Status === "Accepted").length, 0);
  const quoteWinners = best(agents, accepted);
  if (quoteWinners.length === 1) return quoteWinners[0];
  const openLeads = (agent: string) => world.where("Lead", "OwnerId", agent).filter((lead) => Number(lead.IsConverted) !== 1).length;
  const workloadWinners = best(quoteWinners, (agent) => -openLeads(agent));
  return workloadWinners.length === 1 ? workloadWinners[0] : undefined;
}

/** Every state some territory lists, in the org's order (a twin draws its lead's region from these). */
function territoryStates(world: TwinWorld): string[] {
  return world.rows("Territory2").flatMap((territory) =>
    String(territory.Description ?? "")
      .split(",")
      .map((state) => state.trim())
      .filter((state) => /^[A-Z]{2}$/.test(state)),
  );
}

/** The twin keeps the question and the policy and names another region: a state one territory lists. Lead routing has no None answers. */
export const leadRouting = defineTwinCategory({
  name: "lead_routing",
  twin: ({ source, world, rng, wantNone }) => {
    if (wantNone || !REGION.test(source.metadata.required)) return undefined;
    const region = rng.pick(territoryStates(world));
    const agent = routeLead(world, region);
    if (!agent) return undefined;
    return { query: source.query, required: source.metadata.required.replace(REGION, (_, label: string) => `${label}${region}`), answer: [agent] };
  },
});
