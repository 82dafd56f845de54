import { addDays, addMonths, countWordValue } from "../../util/index.js";
import type { TaskInfo, Tools } from "../server.js";

/** Readings of plain-English CRM texts the text categories share: Ids in the context, today, windows, the stage activity guide. */

export type Row = Record<string, unknown>;

export const STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"] as const;

/** The Id of a record of the given key prefix named in the task ("- Opportunity Id to be considered is: 006..."). */
export function idInTask(task: TaskInfo, prefix: string): string | undefined {
  return new RegExp(`\\b${prefix}[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?\\b`).exec(`${task.requiredContext}\n${task.prompt}`)?.[0];
}

export function todayOf(task: TaskInfo): string | undefined {
  return /Today's date:\s*(\d{4}-\d{2}-\d{2})/.exec(`${task.requiredContext}\n${task.prompt}`)?.[1];
}

/** "over the last 5 quarters", "in the past two weeks", "last month": the first day of the window that ends today. */
export function windowStart(prompt: string, today: string): string | undefined {
  const match = /\b(?:last|past|previous|recent)\s+(?:(\w+)\s+)?(days?|weeks?|months?|quarters?|years?)\b/i.exec(prompt);
  if (!match) return undefined;
  const n = match[1] === undefined ? 1 : (countWordValue(match[1]) ?? Number(match[1]));
  if (!Number.isFinite(n)) return undefined;
  const unit = match[2]!.toLowerCase().replace(/s$/, "");
  if (unit === "day") return addDays(today, -n);
  if (unit === "week") return addDays(today, -7 * n);
  if (unit === "month") return addMonths(today, -n);
  if (unit === "quarter") return addMonths(today, -3 * n);
  return addMonths(today, -12 * n);
}

const STOP = new Set(["a", "an", "the", "to", "of", "for", "and", "or", "in", "on", "with", "etc", "any", "such", "as", "more", "is", "are", "be"]);

/** A text's content words, each cut to its first five letters so "researching prospects" meets "research prospect". */
export function stems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => !STOP.has(word)).map((word) => word.slice(0, 5));
}

export function overlap(a: readonly string[], b: readonly string[]): number {
  const right = new Set(b);
  const shared = new Set(a.filter((word) => right.has(word))).size;
  return shared / Math.max(1, new Set([...a, ...b]).size);
}

/** Each stage's activities: the org's stage activity article ("Stage: activity; activity.") and the guide in the task's own context ("Stage:" then "- activity" lines). */
export async function stageGuide(task: TaskInfo, tools: Tools): Promise<Map<string, string[]>> {
  const guide = new Map<string, string[]>(STAGES.map((stage) => [stage, []]));
  const articles = await tools.soql("SELECT Title, FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE '%Stage%'").catch(() => [] as Row[]);
  for (const article of articles) {
    for (const line of String(article.FAQ_Answer__c ?? "").split("\n")) {
      const match = /^\s*(Qualification|Discovery|Quote|Negotiation|Closed)\s*:\s*(.+)$/.exec(line);
      if (match)
        guide.get(match[1]!)!.push(
          ...match[2]!
            .split(/[;.]/)
            .map((activity) => activity.trim())
            .filter(Boolean),
        );
    }
  }
  let current: string | undefined;
  for (const line of task.requiredContext.split("\n")) {
    const header = /^\s*(Qualification|Discovery|Quote|Negotiation|Closed)\s*:/.exec(line);
    if (header) current = header[1];
    else if (current && /^\s*-\s+/.test(line) && !/^\s*-\s*etc\b/i.test(line) && !/Id to be considered/.test(line)) guide.get(current)!.push(line.replace(/^\s*-\s+/, "").trim());
  }
  return guide;
}

/** The stage whose activity reads most like a task's subject: an exact activity first, else the closest wording. */
export function stageOfActivity(subject: string, guide: ReadonlyMap<string, readonly string[]>): string | undefined {
  const wanted = subject.trim().toLowerCase();
  for (const [stage, activities] of guide) if (activities.some((activity) => activity.toLowerCase() === wanted)) return stage;
  const words = stems(subject);
  let best: { stage: string; score: number } | undefined;
  for (const [stage, activities] of guide)
    for (const activity of activities) {
      const score = overlap(words, stems(activity));
      if (score > 0 && (!best || score > best.score)) best = { stage, score };
    }
  return best?.stage;
}
