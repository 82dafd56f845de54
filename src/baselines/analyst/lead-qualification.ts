import type { CategorySolver } from "./solver.js";
import { idInTask } from "./text-reading.js";

const FACTORS = ["Budget", "Authority", "Need", "Timeline"] as const;

/** Which BANT factor a statement is about, by the words people use for it (the most specific first). */
function factorOf(sentence: string): (typeof FACTORS)[number] | undefined {
  const text = sentence.toLowerCase();
  if (/\bbudget|\bfunding|\bafford/.test(text)) return "Budget";
  if (/\bauthorit|\bsign[- ]?off|\bdecision[- ]?maker/.test(text)) return "Authority";
  if (/\bneeds?\b|\brequirement/.test(text)) return "Need";
  if (/\btimeline|\bdeadline|\btimeframe|\brollout|\bdeploy/.test(text)) return "Timeline";
  return undefined;
}

const NEGATED = /\b(not|no|never|none|without|lack|lacks|nobody)\b|n't\b/i;

/**
 * BANT from the lead's call transcripts: every statement about a factor, read in call order; a
 * factor the lead's latest statement negates ("we do not have budget") fails, and the answer lists
 * the failing factors in BANT order, or None when the lead qualifies.
 */
export const leadQualification: CategorySolver = async (task, tools) => {
  const leadId = idInTask(task, "00Q");
  if (!leadId) return "None";
  const calls = await tools.soql(`SELECT Body__c, CreatedDate FROM VoiceCallTranscript__c WHERE LeadId__c = '${leadId}' ORDER BY CreatedDate ASC`);
  const verdict = new Map<string, boolean>();
  for (const call of calls)
    for (const line of String(call.Body__c ?? "").split("\n")) {
      const said = line.replace(/^[^:]{1,40}:\s*/, "");
      for (const sentence of said.split(/(?<=[.!?])\s+/)) {
        const factor = factorOf(sentence);
        if (factor) verdict.set(factor, !NEGATED.test(sentence));
      }
    }
  const unmet = FACTORS.filter((factor) => verdict.get(factor) === false);
  return unmet.length > 0 ? unmet.join(", ") : "None";
};
