import { addDays } from "../../util/index.js";
import type { CategorySolver } from "./solver.js";
import { idInTask, type Row, todayOf, windowStart } from "./text-reading.js";

type Stance = "offer" | "advantage" | "disadvantage" | "any";

/** What the question asks: rivals (in which standing) or subtopics (of which sentiment). */
function readQuestion(prompt: string): { subtopics: boolean; stance: Stance; negative: boolean } {
  const text = prompt.toLowerCase();
  const subtopics = /subtopic|aspect|topic/.test(text) && !/competitor|rival/.test(text);
  let stance: Stance = "any";
  if (/disadvantage|challeng|over us|against/.test(text)) stance = "disadvantage";
  else if (/advantage|edge|ahead/.test(text)) stance = "advantage";
  else if (/offer|proposal|bid/.test(text)) stance = "offer";
  return { subtopics, stance, negative: /negative/.test(text) };
}

const POSITIVE = /\b(pleased|enthusiastic|satisfied|praised|happy|impressed|liked|loved|appreciated|excited)\b/i;
const NEGATIVE = /\b(frustrated|concerns?|disappointed|unhappy|dissatisfied|complained|worried|annoyed|upset)\b/i;
const NEGATED = /\b(not|never|no)\b|n't\b/i;

/** A sentence's sentiment: its sentiment words, turned round when the sentence negates them. */
function sentiment(sentence: string): "positive" | "negative" | undefined {
  const flip = NEGATED.test(sentence);
  if (NEGATIVE.test(sentence)) return flip ? "positive" : "negative";
  if (POSITIVE.test(sentence)) return flip ? "negative" : "positive";
  return undefined;
}

/** A company name: two or more capitalised words, not a sentence's opening pronoun or article. */
const NAME = /\b[A-Z][A-Za-z0-9-]*(?:\s+[A-Z][A-Za-z0-9-]*)+/g;
const NOT_NAME_START = new Set(["The", "We", "They", "Our", "Rep", "I", "On", "Thanks"]);

function namesIn(sentence: string): { name: string; at: number }[] {
  const names: { name: string; at: number }[] = [];
  for (const match of sentence.matchAll(NAME)) {
    const words = match[0].split(/\s+/);
    let at = match.index;
    while (words.length > 0 && NOT_NAME_START.has(words[0]!)) at += words.shift()!.length + 1;
    if (words.length >= 2) names.push({ name: words.join(" "), at });
  }
  return names;
}

/** Where our side stands against a rival named in a sentence: their offer on the table, our edge over them, or theirs over us. */
function stanceOf(sentence: string, name: string, at: number): Exclude<Stance, "any"> | undefined {
  const text = sentence.toLowerCase();
  const before = text.slice(0, at);
  const after = text.slice(at + name.length);
  if (/\b(ahead of|better than|stronger than|outperform\w*|beat|beats)\s+us\b|disadvantage|losing (deals )?to|behind\b/.test(text) && !/ahead of\s*$|than (what\s*)?$/.test(before))
    return "disadvantage";
  if (/edge over\s*$|ahead of\s*$|advantage over\s*$|than (what\s*)?$|over\s*$/.test(before) || /\bfalls? short|\blags?\b/.test(after)) return "advantage";
  if (/\boffer|\bproposal|\bquote|\bbid\b/.test(text)) return "offer";
  return undefined;
}

const sentencesOf = (body: string) =>
  body
    .split("\n")
    .map((line) => line.replace(/^[A-Za-z ]{1,30}:\s*/, ""))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .filter(Boolean);

/**
 * Insights from call transcripts: the subtopics a customer reacted to ("On pricing, the customer
 * was frustrated") with their sentiment, and the rivals named with where we stand against them;
 * for one opportunity the list, across all opportunities in a window the one counted most often.
 */
export const salesInsightMining: CategorySolver = async (task, tools) => {
  const question = readQuestion(task.prompt);
  const opportunityId = idInTask(task, "006");
  let calls: Row[];
  if (opportunityId) {
    calls = await tools.soql(`SELECT Body__c, CreatedDate FROM VoiceCallTranscript__c WHERE OpportunityId__c = '${opportunityId}' ORDER BY CreatedDate ASC`);
  } else {
    const today = todayOf(task);
    const start = today ? windowStart(task.prompt, today) : undefined;
    const window = today && start ? ` AND CreatedDate >= ${start}T00:00:00Z AND CreatedDate < ${addDays(today, 1)}T00:00:00Z` : "";
    calls = await tools.soql(`SELECT Body__c, CreatedDate FROM VoiceCallTranscript__c WHERE OpportunityId__c != null${window} ORDER BY CreatedDate ASC`);
  }
  const found: string[] = [];
  for (const call of calls)
    for (const sentence of sentencesOf(String(call.Body__c ?? ""))) {
      if (question.subtopics) {
        const topic = /^(?:on|about|regarding)\s+([^,]+),/i.exec(sentence)?.[1];
        const feeling = sentiment(sentence);
        if (topic && feeling && (feeling === "negative") === question.negative) found.push(topic.charAt(0).toUpperCase() + topic.slice(1));
        continue;
      }
      for (const { name, at } of namesIn(sentence)) {
        if (question.stance === "any" || stanceOf(sentence, name, at) === question.stance) found.push(name);
      }
    }
  if (found.length === 0) return "None";
  if (opportunityId) return question.subtopics ? found.join(", ") : [...new Set(found)].join(", ");
  const counts = new Map<string, number>();
  for (const name of found) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
};
