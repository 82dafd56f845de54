import { knowledgeArticles, namedId } from "./record-reads.js";
import type { CategorySolver } from "./solver.js";

/**
 * Did the agent breach a communication policy in the case? Read what was said in the case (its
 * e-mails and live chat transcripts) and the policy articles, each of which quotes what agents
 * must never say; the answer is the article whose forbidden words the case's messages contain.
 */
export const policyViolationIdentification: CategorySolver = async (task, tools) => {
  const caseId = namedId(task, "500");
  if (!caseId) return "None";
  const emails = await tools.soql(`SELECT Subject, TextBody FROM EmailMessage WHERE ParentId = '${caseId}'`);
  const chats = await tools.soql(`SELECT Body FROM LiveChatTranscript WHERE CaseId = '${caseId}'`);
  const said = [...emails.map((email) => String(email.TextBody ?? "")), ...chats.map((chat) => String(chat.Body ?? ""))].join("\n").toLowerCase();
  if (said.trim() === "") return "None";
  for (const article of await knowledgeArticles(tools)) {
    const forbidden = [...article.text.matchAll(/never (?:say|write|tell|promise|state)[^"“]*["“]([^"”]+)["”]/gi)].map((m) => m[1]!.toLowerCase());
    if (forbidden.some((phrase) => said.includes(phrase))) return article.id;
  }
  return "None";
};
