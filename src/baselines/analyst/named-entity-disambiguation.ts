import { rowsWhereIn } from "./agent-ranking.js";
import type { CategorySolver } from "./solver.js";
import { analystDayBack, daysBefore } from "./window.js";

const WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10, fourteen: 14, thirty: 30 };

/** The purchase day the query points at; "N days past" is read here, as the shared window reading does not take it. */
function purchaseDay(prompt: string, today: string): string | undefined {
  const day = analystDayBack(prompt, today);
  if (day) return day;
  const past = /\b(\d+|[a-z]+)\s+days?\s+past\b/i.exec(prompt);
  const count = past ? (WORDS[past[1]!.toLowerCase()] ?? Number(past[1])) : Number.NaN;
  return Number.isFinite(count) ? daysBefore(today, count) : undefined;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/**
 * The product the contact means: their account's activated orders effective on the day the
 * query points back to, and among those orders' products the one whose name or description
 * carries the query's description of it ("the <description> I purchased …").
 */
export const namedEntityDisambiguation: CategorySolver = async (task, tools) => {
  const context = `${task.requiredContext}\n${task.prompt}`;
  const contactId = /Contact Id[^:\n]*:\s*(003[A-Za-z0-9]{12,15})/i.exec(context)?.[1];
  const today = /Today's date:\s*(\d{4}-\d{2}-\d{2})/i.exec(context)?.[1];
  const described = /\b(?:display|show)(?:\s+me)?\s+(?:the|my)\s+(.+?)\s+(?=purchase\s+I\s+made|(?:that\s+)?I\s+(?:purchased|bought|ordered|requested))/i.exec(task.prompt)?.[1];
  if (!contactId || !today || !described) return "None";
  const day = purchaseDay(task.prompt, today);
  if (!day) return "None";
  const contact = (await tools.soql(`SELECT AccountId FROM Contact WHERE Id = '${contactId}'`))[0];
  if (!contact?.AccountId) return "None";
  const orders = await tools.soql(`SELECT Id, Status FROM Order WHERE AccountId = '${String(contact.AccountId)}' AND EffectiveDate = ${day}`);
  const activated = orders.filter((row) => String(row.Status ?? "Activated") === "Activated");
  if (activated.length === 0) return "None";
  const items = await rowsWhereIn(
    tools,
    "Product2Id",
    "OrderItem",
    "OrderId",
    activated.map((row) => String(row.Id)),
  );
  const products = await rowsWhereIn(
    tools,
    "Id, Name, Description",
    "Product2",
    "Id",
    items.map((row) => String(row.Product2Id)),
  );
  const wanted = words(described);
  const matching = products.filter(
    (product) => ` ${words(String(product.Name ?? ""))} `.includes(` ${wanted} `) || ` ${words(String(product.Description ?? ""))} `.includes(` ${wanted} `),
  );
  return matching.length > 0 ? String(matching[0]!.Id) : "None";
};
