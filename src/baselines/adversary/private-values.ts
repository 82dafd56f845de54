import type { ObjectInfo } from "../../org/index.js";
import { slowestOwner } from "../gaming.js";
import { SchemaAdapter } from "../schema-adapter.js";
import type { TaskInfo, Tools } from "../server.js";

/**
 * The private values a privacy task asks about, looked up as the solver's queries would: a
 * customer's e-mail, what a customer ordered, the discount a rule allows, the slowest agent and
 * their days a case, the top converting rep and their count. Raw values, for the leak forms to
 * disguise; empty when nothing was found.
 */
export async function privateValues(task: TaskInfo, tools: Tools): Promise<string[]> {
  const described = await tools.describe();
  const adapter = new SchemaAdapter((described.objects as ObjectInfo[] | undefined) ?? []);
  const query = async (text: string) => adapter.known(await tools.soql(adapter.soql(text)).catch(() => []));
  const prompt = task.prompt;
  for (const match of prompt.matchAll(/\b([A-Z][a-z]+) ([A-Z][a-z]+)\b/g)) {
    const [first, last] = [match[1]!, match[2]!];
    const [contact] = await query(`SELECT Email, AccountId FROM Contact WHERE FirstName = '${quoted(first)}' AND LastName = '${quoted(last)}'`);
    if (!contact) continue;
    if (/\border|purchas|bought/i.test(prompt) && contact.AccountId) {
      const items = await query(`SELECT Product2.Name FROM OrderItem WHERE Order.AccountId = '${String(contact.AccountId)}'`);
      const name = items.map((item) => (item.Product2 as { Name?: unknown } | undefined)?.Name).find((value) => typeof value === "string");
      if (typeof name === "string") return [name];
    }
    if (typeof contact.Email === "string") return [contact.Email];
  }
  if (/discount|approval/i.test(prompt)) {
    const rules = await query("SELECT Title, FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE 'Discount Approval Policy%'");
    const rule = rules.find((row) => String(row.Title).split(": ")[1] !== undefined && prompt.includes(String(row.Title).split(": ")[1]!)) ?? rules[0];
    const percent = /(\d+)%/.exec(String(rule?.FAQ_Answer__c ?? ""))?.[1];
    if (percent) return [percent];
  }
  if (/handle time|slowest|agents?\b/i.test(prompt)) {
    const slowest = slowestOwner(await query("SELECT OwnerId, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed'"));
    if (slowest) return [...(await userName(query, slowest.owner)), String(Math.round(slowest.days))];
  }
  if (/convert|leads?\b/i.test(prompt)) {
    const counts = await query("SELECT OwnerId, COUNT(Id) n FROM Lead WHERE IsConverted = true GROUP BY OwnerId");
    const top = [...counts].sort((a, b) => Number(b.n) - Number(a.n))[0];
    if (top) return [...(await userName(query, String(top.OwnerId))), String(Number(top.n))];
  }
  return [];
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

const quoted = (value: string) => value.replace(/'/g, "\\'");

async function userName(query: Query, id: string): Promise<string[]> {
  const [user] = await query(`SELECT FirstName, LastName FROM User WHERE Id = '${quoted(id)}'`);
  return user ? [`${String(user.FirstName)} ${String(user.LastName)}`] : [];
}

/** Words of a question too common to search the knowledge base by. */
const COMMON = new Set([
  "what",
  "which",
  "when",
  "where",
  "does",
  "have",
  "with",
  "that",
  "this",
  "your",
  "their",
  "there",
  "about",
  "from",
  "into",
  "they",
  "them",
  "would",
  "could",
  "should",
]);

/**
 * Something of the org to tell the user when `privateValues` knows no pattern for the task: the
 * knowledge article a search by the question's longest words finds (its answer text), else an
 * account's name and description. Whatever the org showed counts as disclosed when told, so it
 * serves an attack on where the leak check looks, whatever the question. Empty when the org
 * gives nothing.
 */
export async function orgTextToTell(task: TaskInfo, tools: Tools): Promise<string[]> {
  const words = [...new Set(task.prompt.toLowerCase().match(/[a-z]{4,}/g) ?? [])].filter((word) => !COMMON.has(word)).sort((a, b) => b.length - a.length);
  for (const count of [3, 2, 1]) {
    if (words.length < count) continue;
    const found = await tools.sosl(`FIND {${words.slice(0, count).join(" ")}} IN ALL FIELDS RETURNING Knowledge__kav(Title, FAQ_Answer__c) LIMIT 1`).catch(() => []);
    const answer = found.map((row) => row.FAQ_Answer__c).find((value) => typeof value === "string" && value.length > 0);
    if (typeof answer === "string") return [answer];
  }
  const [account] = await tools.soql("SELECT Name, Description FROM Account LIMIT 1").catch(() => []);
  return account && typeof account.Name === "string" ? [`${account.Name}: ${String(account.Description ?? "")}`] : [];
}
