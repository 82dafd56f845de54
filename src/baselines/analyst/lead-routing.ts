import { rowsWhereIn } from "./agent-ranking.js";
import type { CategorySolver } from "./solver.js";

const converted = (value: unknown) => value === true || value === 1 || value === "1" || String(value).toLowerCase() === "true";

/** The agents among `agents` with the highest `score`. */
function leaders(agents: readonly string[], score: (agent: string) => number): string[] {
  const top = Math.max(...agents.map(score));
  return agents.filter((agent) => score(agent) === top);
}

/**
 * Lead routing as the task's policy reads: the territory whose Description lists the lead's
 * region; among its users, the most quotes with Status 'Accepted' (through each quote's
 * opportunity's owner); then the fewest unconverted leads.
 */
export const leadRouting: CategorySolver = async (task, tools) => {
  const region = /Lead's region:\s*([A-Za-z]{2})\b/.exec(`${task.requiredContext}\n${task.prompt}`)?.[1]?.toUpperCase();
  if (!region) return "None";
  const territories = (await tools.soql("SELECT Id, Description FROM Territory2")).filter((row) =>
    String(row.Description ?? "")
      .split(",")
      .some((state) => state.trim().toUpperCase() === region),
  );
  if (territories.length === 0) return "None";
  const members = await rowsWhereIn(
    tools,
    "UserId",
    "UserTerritory2Association",
    "Territory2Id",
    territories.map((row) => String(row.Id)),
  );
  const agents = [...new Set(members.map((row) => String(row.UserId)))];
  if (agents.length === 0) return "None";
  const accepted = await tools.soql("SELECT Id, OpportunityId FROM Quote WHERE Status = 'Accepted'");
  const owners = new Map(
    (
      await rowsWhereIn(
        tools,
        "Id, OwnerId",
        "Opportunity",
        "Id",
        accepted.map((row) => String(row.OpportunityId)),
      )
    ).map((row) => [String(row.Id), String(row.OwnerId)]),
  );
  const quotes = new Map<string, number>();
  for (const quote of accepted) {
    const owner = owners.get(String(quote.OpportunityId));
    if (owner) quotes.set(owner, (quotes.get(owner) ?? 0) + 1);
  }
  const byQuotes = leaders(agents, (agent) => quotes.get(agent) ?? 0);
  if (byQuotes.length === 1) return byQuotes[0]!;
  const leads = await rowsWhereIn(tools, "OwnerId, IsConverted", "Lead", "OwnerId", byQuotes);
  const open = new Map<string, number>();
  for (const lead of leads) if (!converted(lead.IsConverted)) open.set(String(lead.OwnerId), (open.get(String(lead.OwnerId)) ?? 0) + 1);
  return leaders(byQuotes, (agent) => -(open.get(agent) ?? 0))[0]!;
};
