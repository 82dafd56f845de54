import type { CategorySolver } from "./solver.js";
import { overlap, stems } from "./text-reading.js";

/** The answer of the knowledge article whose title reads most like the question (the article's FAQ answer, as written). */
export const knowledgeQa: CategorySolver = async (task, tools) => {
  const articles = await tools.soql("SELECT Id, Title, Summary, FAQ_Answer__c FROM Knowledge__kav");
  const question = stems(task.prompt);
  let best: { answer: string; score: number } | undefined;
  for (const article of articles) {
    const score = overlap(question, stems(String(article.Title ?? ""))) + 0.1 * overlap(question, stems(String(article.Summary ?? "")));
    if (article.FAQ_Answer__c && (!best || score > best.score)) best = { answer: String(article.FAQ_Answer__c), score };
  }
  return best ? best.answer : "None";
};
