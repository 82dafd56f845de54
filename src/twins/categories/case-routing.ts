import type { Row } from "../../sample/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { casesByProduct } from "./service-cases.js";

/**
 * The case routing policy: the agent who closed the most cases of the new case's issue; on a tie,
 * the one (of those tied) who closed the most cases of its product; on a tie again, the one with
 * the fewest cases not Closed. Undefined when nobody closed a case of the issue or the tie holds.
 */
export function caseRoutingAnswer(world: TwinWorld, issueId: string, productId: string): string | undefined {
  const closedBy = (rows: readonly Row[]) => {
    const counts = new Map<string, number>();
    for (const row of rows) if (row.Status === "Closed") counts.set(String(row.OwnerId), (counts.get(String(row.OwnerId)) ?? 0) + 1);
    return counts;
  };
  const byIssue = closedBy(world.where("Case", "IssueId__c", issueId));
  if (byIssue.size === 0) return undefined;
  let tied = leaders([...byIssue.keys()], byIssue, true);
  if (tied.length > 1) tied = leaders(tied, closedBy(casesByProduct(world).get(productId) ?? []), true);
  if (tied.length > 1) {
    const open = new Map<string, number>();
    for (const agent of tied) open.set(agent, world.where("Case", "OwnerId", agent).filter((row) => row.Status !== "Closed").length);
    tied = leaders(tied, open, false);
  }
  return tied.length === 1 ? tied[0] : undefined;
}

function leaders(candidates: readonly string[], counts: ReadonlyMap<string, number>, highest: boolean): string[] {
  const values = candidates.map((agent) => counts.get(agent) ?? 0);
  const target = highest ? Math.max(...values) : Math.min(...values);
  return candidates.filter((_, i) => values[i] === target);
}

const GIVEN_CASE = /(- Case Subject:)[^\n]*\n(- Case Description:)[^\n]*/;

/** Twins keep the request and the policy; the given case becomes one of the twin org's issues on one of its products. */
export const caseRouting = defineTwinCategory({
  name: "case_routing",
  twin({ source, world, rng }) {
    if (!GIVEN_CASE.test(source.query)) return undefined;
    const issue = rng.pick(world.rows("Issue__c"));
    const products = [...casesByProduct(world).keys()].map((id) => world.byId(id)).filter((row) => row !== undefined);
    if (products.length === 0) return undefined;
    const product = rng.pick(products);
    const answer = caseRoutingAnswer(world, String(issue.Id), String(product.Id));
    if (!answer) return undefined;
    const description = `${String(issue.Description__c)} We see this on the ${String(product.Name)} we use, and it is holding up our work.`;
    const query = source.query.replace(GIVEN_CASE, (_, subject: string, body: string) => `${subject} ${String(issue.Name)} with ${String(product.Name)}\n${body} ${description}`);
    return { query, required: String(source.metadata.required ?? ""), answer: [answer] };
  },
});
