import type { Row } from "../../sample/index.js";
import { addDays, type Random } from "../../util/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { inPeriod, type WindowScores, windowedTwin } from "./agent-ranking.js";

/**
 * Each agent's lead conversion rate in a window, by the Conversion Rate Policy: of the leads an
 * agent owns that were created in the window, the share converted (IsConverted, ConvertedDate)
 * within that same window.
 */
export const conversionRates: WindowScores = (world, period) => {
  const counts = new Map<string, { total: number; converted: number }>();
  for (const lead of world.rows("Lead")) {
    if (!lead.OwnerId || !inPeriod(lead.CreatedDate, period)) continue;
    const owner = String(lead.OwnerId);
    const count = counts.get(owner) ?? { total: 0, converted: 0 };
    count.total += 1;
    if (Number(lead.IsConverted) === 1 && inPeriod(lead.ConvertedDate, period)) count.converted += 1;
    counts.set(owner, count);
  }
  return new Map([...counts].map(([owner, count]) => [owner, count.converted / count.total]));
};

/** How many sales agents own the org's leads after enrichment. */
const LEAD_TEAM = 6;

/**
 * The generator spreads its leads over every sales agent (a handful each over five years), so
 * in most windows several agents tie at 0% or 100% and the question has no unique answer. A
 * lead team of a dozen agents gives each one enough leads per window for rates to differ. Lead
 * conversion follows within one to 45 days of creation (the generator's up to 120 days leave
 * short windows with no conversion at all). Lead ownership and ConvertedDate are read only by this category and lead_routing (whose answers are computed after
 * this, on the same org); the leads themselves, their Ids and transcripts, are unchanged.
 */
function concentrateLeadOwnership(world: TwinWorld, rng: Random): void {
  const team = rng.sample(world.facts.salesAgents, LEAD_TEAM);
  // In place, before any twin is made: no index over Lead.OwnerId exists yet (earlier enrichers do not group leads by owner).
  for (const lead of world.rows("Lead")) {
    const row = lead as Row;
    row.OwnerId = rng.pick(team);
    // Conversions within weeks rather than months, so short windows ("the last six weeks") see some.
    if (Number(row.IsConverted) === 1 && row.CreatedDate) row.ConvertedDate = addDays(String(row.CreatedDate).slice(0, 10), rng.int(1, 45));
  }
}

/** The twin keeps the question and the policy, and moves today (and a named window's year) into the twin org's timeline. */
export const conversionRateComprehension = defineTwinCategory({
  name: "conversion_rate_comprehension",
  enrich: concentrateLeadOwnership,
  twin: (context) => windowedTwin(context, conversionRates),
});
