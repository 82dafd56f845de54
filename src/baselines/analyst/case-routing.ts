import type { Row } from "./service.js";
import type { CategorySolver } from "./solver.js";

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 3),
  );

/** Per owner, how many of the rows they own. */
function perOwner(rows: readonly Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(String(row.OwnerId), (counts.get(String(row.OwnerId)) ?? 0) + 1);
  return counts;
}

function leaders(candidates: readonly string[], counts: ReadonlyMap<string, number>, highest: boolean): string[] {
  const values = candidates.map((agent) => counts.get(agent) ?? 0);
  const target = highest ? Math.max(...values) : Math.min(...values);
  return candidates.filter((_, i) => values[i] === target);
}

/**
 * The Case Routing Policy: the issue most like the given case (its name in the subject, else the
 * most shared words with its name and description), the product it names; the agent who closed
 * the most cases of the issue, then of the product, then with the fewest cases not Closed.
 */
export const caseRouting: CategorySolver = async (task, tools) => {
  const subject = /Case Subject:\s*(.+)/.exec(task.prompt)?.[1] ?? "";
  const description = /Case Description:\s*(.+)/.exec(task.prompt)?.[1] ?? "";
  const given = `${subject} ${description}`.toLowerCase();
  const issues = await tools.soql("SELECT Id, Name, Description__c FROM Issue__c");
  const givenWords = words(given);
  const score = (issue: Row) => {
    if (subject.toLowerCase().includes(String(issue.Name).toLowerCase())) return 1000;
    return [...words(`${String(issue.Name)} ${String(issue.Description__c ?? "")}`)].filter((word) => givenWords.has(word)).length;
  };
  const issue = [...issues].sort((a, b) => score(b) - score(a))[0];
  if (!issue) return "None";
  const products = await tools.soql("SELECT Id, Name FROM Product2");
  const product = [...products].sort((a, b) => String(b.Name).length - String(a.Name).length).find((row) => given.includes(String(row.Name).toLowerCase()));

  const byIssue = perOwner(await tools.soql(`SELECT OwnerId FROM Case WHERE Status = 'Closed' AND IssueId__c = '${String(issue.Id)}'`));
  let tied = leaders([...byIssue.keys()], byIssue, true);
  if (tied.length > 1 && product)
    tied = leaders(tied, perOwner(await tools.soql(`SELECT OwnerId FROM Case WHERE Status = 'Closed' AND OrderItemId__r.Product2Id = '${String(product.Id)}'`)), true);
  if (tied.length > 1) tied = leaders(tied, perOwner(await tools.soql("SELECT OwnerId FROM Case WHERE Status != 'Closed'")), false);
  return tied[0] ?? "None";
};
