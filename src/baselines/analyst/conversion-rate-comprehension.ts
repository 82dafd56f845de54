import { dateTimeIn, rankedAgent, taskWindow, wantsHighest, within } from "./agent-ranking.js";
import type { CategorySolver } from "./solver.js";

const converted = (value: unknown) => value === true || value === 1 || value === "1" || String(value).toLowerCase() === "true";

/**
 * Lead conversion rate per agent, as the Conversion Rate Policy reads: of each owner's leads
 * created in the window, the share converted within the same window.
 */
export const conversionRateComprehension: CategorySolver = async (task, tools) => {
  const window = taskWindow(task);
  const highest = wantsHighest(task.prompt) ?? true;
  if (!window) return "None";
  const leads = await tools.soql(`SELECT OwnerId, IsConverted, ConvertedDate FROM Lead WHERE ${dateTimeIn("CreatedDate", window)}`);
  const counts = new Map<string, { total: number; converted: number }>();
  for (const lead of leads) {
    if (!lead.OwnerId) continue;
    const count = counts.get(String(lead.OwnerId)) ?? { total: 0, converted: 0 };
    count.total += 1;
    if (converted(lead.IsConverted) && within(lead.ConvertedDate, window)) count.converted += 1;
    counts.set(String(lead.OwnerId), count);
  }
  return rankedAgent(new Map([...counts].map(([owner, count]) => [owner, count.converted / count.total])), highest);
};
