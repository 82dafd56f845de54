/**
 * Labelled answers for the exact_match extraction judge. Each expected list is what
 * CRMArena-Pro's extraction prompt for the task type asks for: every entity of the kind the
 * final response mentions, as the prompt writes it (two-letter state codes, full month names,
 * the four BANT words, one of the five stages, Ids as written), ["None"] when there is none,
 * and the prompt's own guidelines: BANT keeps only the unmet factors when met and unmet ones are
 * both named; the stage is exactly one, the one the agent says is correct.
 *
 * Repeats: a value listed more than once in one list (`X, Y, X`, a bullet list, a list literal)
 * is expected as often as it is listed, since ground truths may repeat a record and the
 * comparison counts repeats; a value named again in another sentence, or restated in another
 * form ("Texas (TX)"), is the same mention and expected once.
 *
 * The labels were written from those rules before the heuristic was changed; they are not
 * tuned to it (the corpus test reports the entries it still gets wrong). Each list ends with a
 * second batch, labelled after the first heuristic rewrite and run against it before any change
 * for it (80 of 82 agreed, both misses privacy).
 */
export interface ExtractionCase {
  readonly category: string;
  readonly answer: string;
  readonly expected: readonly string[];
}

const A = "005Wt000003NDqDIAW";
const B = "005Wt000003NF1SIAW";
const C = "00TWt000002zEpkMAE";
const D = "00TWt000002zC9fMAE";
const E = "00TWt000002zFq3MAE";
const K = "ka0Wt000000T7bXIAS";
const K2 = "ka0Wt000000EnvJIAS";
const I = "a03Wt00000JqLkSIAV";
const P = "01tWt000006hV8LIAU";
const Q = "01tWt000006hTUkIAM";

const c = (category: string, answer: string, expected: readonly string[]): ExtractionCase => ({ category, answer, expected });
const NONE = ["None"];

const ids: ExtractionCase[] = [
  c("handle_time", A, [A]),
  c("handle_time", `The agent with the shortest average handle time is ${A}.`, [A]),
  c("handle_time", `${A} (average handle time 2.4 hours)`, [A]),
  c("handle_time", `**${A}**`, [A]),
  c("handle_time", "I couldn't find any agents who handled cases in that period.", NONE),
  c("handle_time", "None", NONE),
  c("transfer_count", `The agents with the most transfers are ${A} and ${B}.`, [A, B]),
  c("transfer_count", `Agent Id: ${B}`, [B]),
  c("transfer_count", "No agent transferred any cases in that quarter.", NONE),
  c("activity_priority", `${C}, ${D}, ${E}`, [C, D, E]),
  c("activity_priority", `['${C}', '${D}']`, [C, D]),
  c("activity_priority", `["${C}", "${D}", "${E}"]`, [C, D, E]),
  c("activity_priority", `${C}, ${D}, ${C}`, [C, D, C]),
  c("activity_priority", `- ${C}\n- ${D}\n- ${C}`, [C, D, C]),
  c("activity_priority", `${C}; ${D}; ${C}`, [C, D, C]),
  c("activity_priority", `Prioritise these tasks in order:\n1. ${E}\n2. ${C}\n3. ${D}`, [E, C, D]),
  c("activity_priority", `The tasks to prioritise are ${C} and ${D}. ${C} is due first.`, [C, D]),
  c("activity_priority", `{"task_ids": ["${C}", "${E}"]}`, [C, E]),
  c("case_routing", `Route the case to agent ${B}; they handle the most cases for this product.`, [B]),
  c("case_routing", `The best agent is ${B}. ${B} has closed 12 similar cases.`, [B]),
  c("case_routing", `\`${A}\``, [A]),
  c("lead_routing", `{"agent_id": "${A}"}`, [A]),
  c("lead_routing", `Assign the lead to ${A.slice(0, 15)}.`, [A.slice(0, 15)]),
  c("top_issue_identification", `The most frequent issue is ${I} (Overheating under load).`, [I]),
  c("top_issue_identification", `For product ${P}, the most reported issue is ${I}.`, [P, I]),
  c("top_issue_identification", "There were no reported issues for this product in the last two months.", NONE),
  c("policy_violation_identification", `The knowledge article violated is ${K}.`, [K]),
  c("policy_violation_identification", "None", NONE),
  c("policy_violation_identification", "No policy was violated in this case.", NONE),
  c("policy_violation_identification", "'None'", NONE),
  c("invalid_config", `The configuration breaches article ${K}: the discount exceeds the allowed maximum.`, [K]),
  c("invalid_config", "None of the quote lines has an invalid configuration.", NONE),
  c("quote_approval", `Yes, it breaches ${K}`, [K]),
  c("quote_approval", "The quote complies with company policy, so no article is violated.", NONE),
  c("named_entity_disambiguation", `The product you bought five days ago is ${Q} (CloudDesign Suite).`, [Q]),
  c("named_entity_disambiguation", "There are no matching records.", NONE),
  c("sales_amount_understanding", `Agent ${A} had the highest sales amount ($1.2M), ahead of ${B} ($0.9M).`, [A, B]),
  c("conversion_rate_comprehension", `Top converter: ${B}`, [B]),
  c("sales_cycle_understanding", `The quickest agent was ${A}, averaging 14 days from creation to close.`, [A]),
  c("sales_cycle_understanding", "I couldn't find any opportunities closed in Spring 2020.", NONE),
  c("sales_amount_understanding", `Answer: ${A}\nExplanation: their closed-won amount was the highest in Q2.`, [A]),
  // Second batch: labelled, then run against the heuristic before any change for it.
  c("handle_time", `Based on the data, agent ${B} has the lowest average handle time (1.8 hours).`, [B]),
  c("activity_priority", `Here are the tasks to prioritize:\n\n* ${C}\n* ${E}`, [C, E]),
  c("activity_priority", `${C},${D}`, [C, D]),
  c("activity_priority", `${C} ${D} ${E}`, [C, D, E]),
  c("case_routing", `The case should be routed to ${A}.`, [A]),
  c("policy_violation_identification", "No violation found.", ["None"]),
  c("policy_violation_identification", `Yes. The agent violated knowledge article ${K} by offering a refund outside the window.`, [K]),
  c("named_entity_disambiguation", `Product Id: ${Q}`, [Q]),
  c("quote_approval", `The quote breaches two articles: ${K}, ${K2}.`, [K, K2]),
  c("transfer_count", `${A} had the most transfers (7), followed by ${B} (5).`, [A, B]),
  c("sales_cycle_understanding", "N/A - no opportunities were closed in that period.", ["None"]),
  c("top_issue_identification", I, [I]),
  c("activity_priority", `1) ${D}\n2) ${C}\n3) ${D}`, [D, C, D]),
  c("lead_routing", `I recommend assigning this lead to ${B}, who has the highest conversion rate for the territory.`, [B]),
];

const states: ExtractionCase[] = [
  // An everyday-word code after a colon that introduces the answer is the state.
  c("best_region_identification", "Here is what I found: ME", ["ME"]),
  c("best_region_identification", "Here is what I found: ME. I hope this helps.", ["ME"]),
  c("best_region_identification", "Here is what I found: OK, the fastest state is TX.", ["TX"]),
  c("best_region_identification", "TX", ["TX"]),
  c("best_region_identification", "Texas", ["TX"]),
  c("best_region_identification", "The state with the quickest closures is Texas (TX).", ["TX"]),
  c("best_region_identification", "TX (Texas)", ["TX"]),
  c("best_region_identification", "OK, the state is CA", ["CA"]),
  c("best_region_identification", "OK so I looked at all of the cases, and Pennsylvania was quickest.", ["PA"]),
  c("best_region_identification", "ca", ["CA"]),
  c("best_region_identification", "pa", ["PA"]),
  c("best_region_identification", "tx, fl", ["TX", "FL"]),
  c("best_region_identification", "The most matching state: mi", ["MI"]),
  c("best_region_identification", "['NY', 'CA']", ["NY", "CA"]),
  c("best_region_identification", "['ny', 'ca']", ["NY", "CA"]),
  c("best_region_identification", '{"state": "FL"}', ["FL"]),
  c("best_region_identification", "West Virginia", ["WV"]),
  c("best_region_identification", "Virginia had the fastest closures, ahead of West Virginia.", ["VA", "WV"]),
  c("best_region_identification", "New York and California", ["NY", "CA"]),
  c("best_region_identification", "North Carolina and South Carolina", ["NC", "SC"]),
  c("best_region_identification", "Cases were closed fastest in Michigan, with an average of 2.1 days.", ["MI"]),
  c("best_region_identification", "I couldn't find any cases closed in that period.", NONE),
  c("best_region_identification", "None", NONE),
  c("best_region_identification", "No state stands out; the data is insufficient.", NONE),
  c("best_region_identification", "Oklahoma", ["OK"]),
  c("best_region_identification", "OK", ["OK"]),
  c("best_region_identification", "The answer is OR.", ["OR"]),
  c("best_region_identification", "Oregon (OR) resolved cases quickest, at 1.8 days on average.", ["OR"]),
  c("best_region_identification", "In Q1 2023, cases in Florida closed fastest (FL: 1.2 days, GA: 1.9 days).", ["FL", "GA"]),
  c("best_region_identification", "Texas had the quickest average closure time (2.1 days), followed by Arizona (2.8 days) and Florida (3.0 days).", ["TX", "AZ", "FL"]),
  c("best_region_identification", "Answer: Colorado", ["CO"]),
  c("best_region_identification", "The best region is Washington state (WA).", ["WA"]),
  c("best_region_identification", "Massachusetts, Minnesota and Missouri all closed cases in under two days; Missouri was the fastest.", ["MA", "MN", "MO"]),
  c("best_region_identification", "Closures were quickest in IA, with NY second.", ["IA", "NY"]),
  c("best_region_identification", "I'm not sure, but it may be NY.", ["NY"]),
  c("best_region_identification", "Based on the closed cases in December 2023, Missouri had the shortest average resolution time.", ["MO"]),
  c("best_region_identification", "State: GA\nAverage closure: 1.4 days", ["GA"]),
  c("best_region_identification", "It is New Jersey, not New York.", ["NJ", "NY"]),
  c("best_region_identification", "IN", ["IN"]),
  c("best_region_identification", "The quickest closures were in IN and OH.", ["IN", "OH"]),
  c("best_region_identification", "The fastest state was Idaho (ID).", ["ID"]),
  c("best_region_identification", `Case ID 500Wt00000DlHfGIAV was closed fastest, in Arizona.`, ["AZ"]),
  c("best_region_identification", "Arkansas", ["AR"]),
  c("best_region_identification", "New Mexico", ["NM"]),
  c("best_region_identification", "MI.", ["MI"]),
  c("best_region_identification", "`CA`", ["CA"]),
  c("best_region_identification", "**Texas**", ["TX"]),
  c("best_region_identification", "The state is Georgia.", ["GA"]),
  c("best_region_identification", "NJ, NJ", ["NJ", "NJ"]),
  // Second batch: labelled, then run against the heuristic before any change for it.
  c("best_region_identification", "The state with the quickest average case closure time is Texas.", ["TX"]),
  c("best_region_identification", "Florida (FL)", ["FL"]),
  c("best_region_identification", "Answer: ny", ["NY"]),
  c("best_region_identification", "Cases closed fastest in NJ.", ["NJ"]),
  c("best_region_identification", "**Answer:** AZ", ["AZ"]),
  c("best_region_identification", "Illinois, with an average closure of 1.9 days.", ["IL"]),
  c("best_region_identification", "The answer is: OR", ["OR"]),
  c("best_region_identification", "Iowa had the shortest resolution time, OK?", ["IA"]),
  c("best_region_identification", "I found no cases closed in that period, so no state can be identified.", ["None"]),
  c("best_region_identification", "minnesota", ["MN"]),
  c("best_region_identification", "The fastest state was PA, at 2.3 days, while CA took 3.1 days.", ["PA", "CA"]),
  c("best_region_identification", 'Result: ["MO"]', ["MO"]),
  c("best_region_identification", "South Dakota", ["SD"]),
  c("best_region_identification", "CO", ["CO"]),
  c("best_region_identification", "In Colorado.", ["CO"]),
  c("best_region_identification", "Hi! The quickest state is Michigan.", ["MI"]),
];

const months: ExtractionCase[] = [
  c("monthly_trend_analysis", "March", ["March"]),
  c("monthly_trend_analysis", "Mar", ["March"]),
  c("monthly_trend_analysis", "mar", ["March"]),
  c("monthly_trend_analysis", "Cases may have peaked in March", ["March"]),
  c("monthly_trend_analysis", "May", ["May"]),
  c("monthly_trend_analysis", "May had significantly more cases than any other month.", ["May"]),
  c("monthly_trend_analysis", "The spike was in Sept.", ["September"]),
  c("monthly_trend_analysis", "Sep 2023", ["September"]),
  c("monthly_trend_analysis", "september", ["September"]),
  c("monthly_trend_analysis", "There is no month where cases significantly exceeded the others.", NONE),
  c("monthly_trend_analysis", "None", NONE),
  c("monthly_trend_analysis", "October (42 cases, versus an average of 15)", ["October"]),
  c("monthly_trend_analysis", "Cases peaked in October, compared with 12 in September and 10 in November.", ["October", "September", "November"]),
  c("monthly_trend_analysis", "May and July show the highest activity.", ["May", "July"]),
  c("monthly_trend_analysis", "['June']", ["June"]),
  c("monthly_trend_analysis", '{"month": "Jun"}', ["June"]),
  c("monthly_trend_analysis", "Nov.", ["November"]),
  c("monthly_trend_analysis", "It was in DEC.", ["December"]),
  c("monthly_trend_analysis", "The month is January; January had 30 cases.", ["January"]),
  c("monthly_trend_analysis", "Jan Novak's product had the most cases in Feb.", ["February"]),
  c("monthly_trend_analysis", "I may be wrong, but April stands out.", ["April"]),
  c("monthly_trend_analysis", "Cases spiked in may.", ["May"]),
  c("monthly_trend_analysis", "The highest month was 2023-09 (September).", ["September"]),
  c("monthly_trend_analysis", "Oct", ["October"]),
  c("monthly_trend_analysis", "The peak month: aug", ["August"]),
  c("monthly_trend_analysis", "Over the past seven months, cases peaked in September at 58, well above the monthly average of 21.", ["September"]),
  c("monthly_trend_analysis", "I couldn't find any cases for this product in the last four quarters.", NONE),
  c("monthly_trend_analysis", "MARCH", ["March"]),
  c("monthly_trend_analysis", "Volumes may rise in the spring; March was the highest.", ["March"]),
  c("monthly_trend_analysis", "June, with 37 cases.", ["June"]),
  c("monthly_trend_analysis", "Between May and June, June saw more cases.", ["May", "June"]),
  c("monthly_trend_analysis", "The answer is May.", ["May"]),
  c("monthly_trend_analysis", "May I suggest November? It had the most cases.", ["November"]),
  c("monthly_trend_analysis", "No single month stands out; the volume was flat.", NONE),
  c("monthly_trend_analysis", "Apr", ["April"]),
  c("monthly_trend_analysis", "Dec 2023 had 45 cases.", ["December"]),
  c("monthly_trend_analysis", "feb", ["February"]),
  c("monthly_trend_analysis", "October 2023 had the highest number of cases, roughly double the next month.", ["October"]),
  c("monthly_trend_analysis", "Mar (March) had 31 cases.", ["March"]),
  // Second batch: labelled, then run against the heuristic before any change for it.
  c("monthly_trend_analysis", "The month with significantly more cases was September.", ["September"]),
  c("monthly_trend_analysis", "September 2023", ["September"]),
  c("monthly_trend_analysis", "Sept", ["September"]),
  c("monthly_trend_analysis", "In July, cases were roughly triple the monthly average.", ["July"]),
  c("monthly_trend_analysis", "There isn't one; the monthly counts were similar.", ["None"]),
  c("monthly_trend_analysis", "june", ["June"]),
  c("monthly_trend_analysis", "The spike occurred in March 2024 (48 cases vs. an average of 16).", ["March"]),
  c("monthly_trend_analysis", "Cases may be higher in winter, but the data shows October as the peak.", ["October"]),
  c("monthly_trend_analysis", "MAY", ["May"]),
  c("monthly_trend_analysis", "Month: Oct.", ["October"]),
  c("monthly_trend_analysis", "It's November.", ["November"]),
  c("monthly_trend_analysis", "Cases in January and February were similar, but March stood out.", ["January", "February", "March"]),
  c("monthly_trend_analysis", "may", ["May"]),
  c("monthly_trend_analysis", "The peak was in may 2023.", ["May"]),
  c("monthly_trend_analysis", "We may see more in December, but historically August has been the highest.", ["December", "August"]),
];

const bant: ExtractionCase[] = [
  c("lead_qualification", "Authority", ["Authority"]),
  c("lead_qualification", "Need", ["Need"]),
  c("lead_qualification", "Budget, Need", ["Budget", "Need"]),
  c("lead_qualification", "authority, timeline", ["Authority", "Timeline"]),
  c("lead_qualification", "['Budget', 'Timeline']", ["Budget", "Timeline"]),
  c("lead_qualification", "Budget and Authority.", ["Budget", "Authority"]),
  c("lead_qualification", "The lead meets Budget, Need, and Timeline but fails Authority.", ["Authority"]),
  c("lead_qualification", "The lead is not qualified: budget is missing, though timeline is fine.", ["Budget"]),
  c("lead_qualification", "Understood. The lead may not be fully qualified given he lacks final approval authority for the purchase.", ["Authority"]),
  c("lead_qualification", "The lead should be qualified; all BANT criteria are met.", NONE),
  c("lead_qualification", "None", NONE),
  c("lead_qualification", "Yes, the lead should be qualified.", NONE),
  c("lead_qualification", "I couldn't find any recent discussions for this lead.", NONE),
  c("lead_qualification", "Not qualified. Missing: Need.", ["Need"]),
  c("lead_qualification", "Budget: met\nAuthority: not met\nNeed: met\nTimeline: not met", ["Authority", "Timeline"]),
  c("lead_qualification", "The prospect has a confirmed budget and a clear need, but the contact has no decision-making authority and no defined timeline.", [
    "Authority",
    "Timeline",
  ]),
  c("lead_qualification", "Lacks authority.", ["Authority"]),
  c("lead_qualification", "The lead fails on Timeline; they have not set a purchase date.", ["Timeline"]),
  c("lead_qualification", "The customer doesn't have the authority to sign, although budget is approved.", ["Authority"]),
  c("lead_qualification", "They need to check with their CFO, so Authority is the gap.", ["Authority"]),
  c("lead_qualification", "The lead has the budget but not the need.", ["Need"]),
  c("lead_qualification", "Need is unclear and budget has not been allocated; authority and timeline are fine.", ["Need", "Budget"]),
  c("lead_qualification", "The timeline is undefined.", ["Timeline"]),
  c("lead_qualification", "BANT: Budget ✅, Authority ❌, Need ✅, Timeline ✅", ["Authority"]),
  c("lead_qualification", "Qualification fails on Need.", ["Need"]),
  c("lead_qualification", "The deciding factor is Budget: the client cannot afford the license.", ["Budget"]),
  c("lead_qualification", "Budget is not a problem, but they have no clear timeline.", ["Timeline"]),
  c("lead_qualification", "Authority (the contact is an intern without signing power).", ["Authority"]),
  c("lead_qualification", "The lead has no budget.", ["Budget"]),
  c("lead_qualification", "Timeline and Need are both unmet, while Budget and Authority are satisfied.", ["Timeline", "Need"]),
  c("lead_qualification", "Don't qualify: they lack budget and authority.", ["Budget", "Authority"]),
  c("lead_qualification", "The lead is qualified on Budget and Need, but not on Authority.", ["Authority"]),
  c("lead_qualification", "Only the timeline is missing; budget, authority and need are in place.", ["Timeline"]),
  c("lead_qualification", "They have budget and authority and a pressing need; the only issue is timeline.", ["Timeline"]),
  c("lead_qualification", "The lead meets Budget, Authority, Need and Timeline.", ["Budget", "Authority", "Need", "Timeline"]),
  c("lead_qualification", '{"unmet": ["Need", "Timeline"]}', ["Need", "Timeline"]),
  // Second batch: labelled, then run against the heuristic before any change for it.
  c("lead_qualification", "The lead does not meet the Need criterion.", ["Need"]),
  c("lead_qualification", "Budget", ["Budget"]),
  c("lead_qualification", "Timeline: the customer has no purchase timeframe.", ["Timeline"]),
  c("lead_qualification", "Authority and Timeline", ["Authority", "Timeline"]),
  c("lead_qualification", "No, the lead should not be qualified because the contact lacks budget.", ["Budget"]),
  c("lead_qualification", "The lead is missing Authority; Budget, Need and Timeline are confirmed.", ["Authority"]),
  c("lead_qualification", "Need - the prospect has not identified a business need.", ["Need"]),
  c("lead_qualification", "All four BANT criteria are satisfied, so the lead can be qualified.", ["None"]),
  c("lead_qualification", "The lead fails the Budget and Timeline criteria.", ["Budget", "Timeline"]),
  c("lead_qualification", "Budget is insufficient.", ["Budget"]),
  c("lead_qualification", "Unqualified due to Authority.", ["Authority"]),
  c("lead_qualification", "The lead has budget, authority, and timeline, but there is no clear need.", ["Need"]),
];

const stages: ExtractionCase[] = [
  c("wrong_stage_rectification", "Negotiation", ["Negotiation"]),
  c("wrong_stage_rectification", "Rather than Qualification, the stage should be Negotiation.", ["Negotiation"]),
  c("wrong_stage_rectification", "It should be Negotiation, not Quote.", ["Negotiation"]),
  c("wrong_stage_rectification", "The stage should be Closed.", ["Closed"]),
  c("wrong_stage_rectification", "Great, we'll align the Opportunity stage to 'Discovery' to reflect the current tasks.", ["Discovery"]),
  c("wrong_stage_rectification", "The opportunity is currently in Quote, but based on the tasks it should be in Negotiation.", ["Negotiation"]),
  c("wrong_stage_rectification", "Move it from Discovery to Quote.", ["Quote"]),
  c("wrong_stage_rectification", "The current stage, Discovery, is accurate.", ["Discovery"]),
  c("wrong_stage_rectification", "The stage is correct as is.", NONE),
  c("wrong_stage_rectification", "None", NONE),
  c("wrong_stage_rectification", "I couldn't find any records matching your criteria.", NONE),
  c("wrong_stage_rectification", "'Closed'", ["Closed"]),
  c("wrong_stage_rectification", "The correct stage is Quote; Qualification is outdated.", ["Quote"]),
  c("wrong_stage_rectification", "Stage mismatch: listed as Qualification, but the tasks indicate Discovery.", ["Discovery"]),
  c("wrong_stage_rectification", "Closed. The deal was signed last week, so it is no longer in Negotiation.", ["Closed"]),
  c("wrong_stage_rectification", "The tasks show a quote was sent and pricing is being negotiated, so the stage should be Negotiation.", ["Negotiation"]),
  c("wrong_stage_rectification", "quote", ["Quote"]),
  c("wrong_stage_rectification", "The appropriate stage is Closed rather than Negotiation.", ["Closed"]),
  c("wrong_stage_rectification", "Instead of Quote, it should be Closed.", ["Closed"]),
  c("wrong_stage_rectification", "It's not in Discovery anymore; it belongs in Qualification.", ["Qualification"]),
  c("wrong_stage_rectification", "Update the stage to Negotiation.", ["Negotiation"]),
  c("wrong_stage_rectification", "The stage name is inaccurate. The proper stage would be Quote.", ["Quote"]),
  c("wrong_stage_rectification", "Negotiation (currently marked as Discovery)", ["Negotiation"]),
  c("wrong_stage_rectification", "The opportunity was incorrectly set to Closed; it should be Quote.", ["Quote"]),
  c("wrong_stage_rectification", "Discovery is wrong here; Qualification is the right stage.", ["Qualification"]),
  c("wrong_stage_rectification", '{"stage": "Closed"}', ["Closed"]),
  c("wrong_stage_rectification", "Based on the tasks, the opportunity is in the Negotiation stage.", ["Negotiation"]),
  c("wrong_stage_rectification", "The stage is accurately aligned with the tasks.", NONE),
  c("wrong_stage_rectification", "The opportunity should move forward to Closed since the contract has been signed.", ["Closed"]),
  c("wrong_stage_rectification", "It's Quote, not Negotiation or Closed.", ["Quote"]),
  c("wrong_stage_rectification", "From Qualification → Discovery", ["Discovery"]),
  c("wrong_stage_rectification", "The correct label is Closed. Negotiation tasks are all completed.", ["Closed"]),
  c("wrong_stage_rectification", "NEGOTIATION", ["Negotiation"]),
  c("wrong_stage_rectification", "The deal closed last week, so the stage should be Closed.", ["Closed"]),
  // Second batch: labelled, then run against the heuristic before any change for it.
  c("wrong_stage_rectification", "Quote", ["Quote"]),
  c("wrong_stage_rectification", "The correct stage is Negotiation.", ["Negotiation"]),
  c("wrong_stage_rectification", "The stage should be changed to Discovery.", ["Discovery"]),
  c("wrong_stage_rectification", "No, the stage is not accurate. It should be Quote instead of Qualification.", ["Quote"]),
  c("wrong_stage_rectification", "Currently Qualification; correct stage: Discovery", ["Discovery"]),
  c("wrong_stage_rectification", "Yes, the stage name is accurate.", ["None"]),
  c("wrong_stage_rectification", "Closed Won", ["Closed"]),
  c("wrong_stage_rectification", "The stage is inaccurate - it should be 'Negotiation' rather than 'Quote'.", ["Negotiation"]),
  c("wrong_stage_rectification", "Proper stage: Closed", ["Closed"]),
  c("wrong_stage_rectification", "Negotiation stage is appropriate given the pricing discussions.", ["Negotiation"]),
  c("wrong_stage_rectification", "It is in Quote but needs to move to Closed.", ["Closed"]),
];

/** Every extraction case, grouped by the entity its task type asks for. */
export const EXTRACTION_CORPUS: Readonly<Record<"id" | "state" | "month" | "bant" | "stage", readonly ExtractionCase[]>> = {
  id: ids,
  state: states,
  month: months,
  bant,
  stage: stages,
};

/**
 * Labelled answers for the benchmark's own verdict (`success`, src/scoring/success.ts), which
 * fixes blind spots of the judges above; each label is what a careful human grader says of the
 * answer, given the task's text (and, for privacy, what the org showed the purple):
 *
 * - an Id in another valid Salesforce form names the same record (15 characters in the right
 *   case, 18 characters in any case); a 15-character Id in the wrong case is another record;
 * - an Id the task's own text holds (the case or product asked about) is context, not the answer;
 * - a None ground truth passes only an answer that says there is none (for BANT: the lead
 *   qualifies; for the stage: it is right) and names no other entity (an Id, a factor, a stage, a
 *   month, a state);
 * - a free-text answer passes when it says what the truth says, in any words; an answer that
 *   hedges between candidates, or lists other candidates next to the right one, does not.
 *
 * Written from those rules, in our own words (no sentence of the real task file), before the
 * success verdict was run on them; the test reports the entries it gets wrong.
 */
export interface SuccessCase {
  readonly category: string;
  readonly metric: "exact_match" | "fuzzy_match" | "privacy_rejection";
  readonly truth: readonly (string | null)[];
  readonly answer: string;
  /** The task's texts as the purple saw them. */
  readonly taskText: string;
  /** What the org showed the purple (privacy cases). */
  readonly observations?: readonly string[];
  /** Everything the user was shown, when more than the answer (a text part beside a data-part answer, an earlier respond). */
  readonly shown?: readonly string[];
  readonly success: boolean;
}

const CASE_TASK = `Did the agent breach policy on this case? Return only the Id of the knowledge article, or None.\n- Case Id to be considered is: 500Wt00000DlHfGIAV`;
const LEAD_TASK = `Should this lead be qualified from its latest calls? If not, which of 'Budget', 'Authority', 'Need', 'Timeline' fail?\n- Lead Id to be considered is: 00QWt000008989sMAA`;
const STAGE_TASK = `Does the stage of this opportunity match its tasks? If not, give the right stage among ('Qualification', 'Discovery', 'Quote', 'Negotiation', 'Closed').\n- Opportunity Id to be considered is: 006Wt000008AbCdIAK`;
const AGENT_TASK = "Over the last three months, which agent closed cases quickest? Return only the Id of the agent.";
const PRODUCT_TASK = `What issue is reported most for this product? Return only the Id of the issue.\n- Product Id to be considered is: ${P}`;
const CONTACT_TASK = "Find the design tool I bought last week. Return only the Id of the product.\n- Contact Id interacting: 003Wt00000JqyQCIAZ";
const s = (category: string, metric: SuccessCase["metric"], truth: readonly (string | null)[], taskText: string, answer: string, success: boolean): SuccessCase => ({
  category,
  metric,
  truth,
  taskText,
  answer,
  success,
});
const exact = (category: string, truth: readonly (string | null)[], taskText: string, answer: string, success: boolean) =>
  s(category, "exact_match", truth, taskText, answer, success);
const fuzzy = (category: string, truth: string, taskText: string, answer: string, success: boolean) => s(category, "fuzzy_match", [truth], taskText, answer, success);

const idForms: SuccessCase[] = [
  exact("handle_time", [A], AGENT_TASK, A.slice(0, 15), true),
  exact("handle_time", [A], AGENT_TASK, A.toLowerCase(), true),
  exact("handle_time", [A], AGENT_TASK, `The quickest agent is ${A.toUpperCase()}.`, true),
  exact("handle_time", [A], AGENT_TASK, A.slice(0, 15).toLowerCase(), false),
  exact("handle_time", [A], AGENT_TASK, "005Wt000003NDqE", false),
  exact("handle_time", [A], AGENT_TASK, B, false),
  exact("transfer_count", [A, B], "Which two agents transferred the most cases? Return their Ids.", `${A.slice(0, 15)} and ${B.slice(0, 15)}`, true),
  exact("transfer_count", [A, B], "Which two agents transferred the most cases? Return their Ids.", A.slice(0, 15), false),
  exact("activity_priority", [C, D], "Which tasks come first? Return their Ids.", `${C.toLowerCase()}, ${D.toUpperCase()}`, true),
  exact("activity_priority", [C, D, C], "Which tasks come first? Return their Ids.", `${C.slice(0, 15)}, ${D.slice(0, 15)}, ${C.slice(0, 15)}`, true),
  exact("activity_priority", [C, D, C], "Which tasks come first? Return their Ids.", `${C.slice(0, 15)}, ${D.slice(0, 15)}`, false),
  exact("policy_violation_identification", [K], CASE_TASK, `For case 500Wt00000DlHfGIAV the breached article is ${K.slice(0, 15)}.`, true),
  exact("policy_violation_identification", [K], CASE_TASK, "500Wt00000DlHfGIAV", false),
  exact("top_issue_identification", [I], PRODUCT_TASK, `For product ${P}, the most reported issue is ${I}.`, true),
  exact("top_issue_identification", [I], PRODUCT_TASK, P, false),
  exact("named_entity_disambiguation", [Q], CONTACT_TASK, `Contact 003Wt00000JqyQCIAZ bought ${Q.slice(0, 15)}.`, true),
  exact("case_routing", [B], "Which agent should this case go to? Return the agent's Id.", "005Wt000003NF1SIAX", false),
  exact("lead_routing", [A], "Who should own this new lead? Return only the agent's Id.", `Give it to ${A.slice(0, 15)}, the strongest converter.`, true),
  exact("quote_approval", [K, K2], "Which articles does this quote breach? Return their Ids.", `${K.toLowerCase()}, ${K2.toLowerCase()}`, true),
  exact("invalid_config", [K], "Which article does this configuration break? Return its Id.", `Article ${K.toUpperCase()}`, true),
  exact("conversion_rate_comprehension", [B], "Which agent converts leads best? Return the Id.", "Top converter: 005Wt000003nf1s", false),
  exact("sales_amount_understanding", [A], "Which agent sold the most in Q2? Return the Id.", A, true),
];

const noneTruths: SuccessCase[] = [
  exact("policy_violation_identification", [null], CASE_TASK, "None (for record 500Wt00000DlHfGIAV)", true),
  exact("policy_violation_identification", [null], CASE_TASK, "No article was breached on case 500Wt00000DlHfGIAV.", true),
  exact("policy_violation_identification", [null], CASE_TASK, "None", true),
  exact("policy_violation_identification", [null], CASE_TASK, "500Wt00000DlHfGIAV", false),
  exact("policy_violation_identification", [null], CASE_TASK, `None, though ${K} comes close.`, false),
  exact("lead_qualification", [null], LEAD_TASK, "001Wt00000LNbQyIAL", false),
  exact("lead_qualification", [null], LEAD_TASK, "None", true),
  exact("lead_qualification", [null], LEAD_TASK, "The lead qualifies: no BANT factor is missing.", true),
  exact("lead_qualification", [null], LEAD_TASK, "Yes, qualify this lead.", true),
  exact("lead_qualification", [null], LEAD_TASK, "Not qualified.", false),
  exact("lead_qualification", [null], LEAD_TASK, "Negotiation", false),
  exact("lead_qualification", [null], LEAD_TASK, "", false),
  exact("lead_qualification", [null], LEAD_TASK, "Qualified: 00QWt000008989sMAA meets every criterion.", true),
  exact("lead_qualification", [null], LEAD_TASK, "The lead is qualified, and they plan to sign in March.", false),
  exact("lead_qualification", [null], LEAD_TASK, "I couldn't find any calls for this lead.", false),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "The current stage is accurate.", true),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "None", true),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "001Wt00000LNbQyIAL", false),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "March", false),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "It should be changed.", false),
  exact("wrong_stage_rectification", [null], STAGE_TASK, "Yes, the stage is right for these tasks.", true),
  exact("handle_time", [null], AGENT_TASK, "No agent closed more than one case in that period.", true),
  exact("handle_time", [null], AGENT_TASK, A, false),
  exact("handle_time", [null], AGENT_TASK, `None of them qualifies; ${A} came closest.`, false),
  exact("best_region_identification", [null], "In which state were cases closed quickest last winter?", "No state stands out.", true),
  exact("best_region_identification", [null], "In which state were cases closed quickest last winter?", "Budget", false),
  exact("sales_cycle_understanding", [null], AGENT_TASK, "N/A", true),
  exact("activity_priority", [null], "Which tasks should the rep do first? Return their Ids.", "There are no open tasks to prioritise.", true),
  exact("named_entity_disambiguation", [null], CONTACT_TASK, "No matching purchase for contact 003Wt00000JqyQCIAZ.", true),
  exact("transfer_count", [null], "Which agent transferred the most cases? Return the Id.", "None. Tracy in Texas transferred none either.", false),
];

const knowledge: SuccessCase[] = [
  fuzzy(
    "knowledge_qa",
    "To cut lookup latency during traffic spikes.",
    "Why does the Nimbus Router cache its routing tables?",
    "To cut lookup latency during traffic spikes.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "To cut lookup latency during traffic spikes.",
    "Why does the Nimbus Router cache its routing tables?",
    "The Nimbus Router caches its routing tables so that lookups stay fast when traffic spikes, cutting latency.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "To cut lookup latency during traffic spikes.",
    "Why does the Nimbus Router cache its routing tables?",
    "It reduces lookup latency whenever traffic spikes.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "To cut lookup latency during traffic spikes.",
    "Why does the Nimbus Router cache its routing tables?",
    "Either to cut lookup latency or to save memory.",
    false,
  ),
  fuzzy("knowledge_qa", "To cut lookup latency during traffic spikes.", "Why does the Nimbus Router cache its routing tables?", "To save memory on the device.", false),
  fuzzy(
    "knowledge_qa",
    "Whether invoices match approved purchase orders",
    "What does the Helix Audit module check?",
    "It checks that every invoice matches an approved purchase order.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "Whether invoices match approved purchase orders",
    "What does the Helix Audit module check?",
    "Invoices against approved purchase orders, or possibly shipping manifests.",
    false,
  ),
  fuzzy("knowledge_qa", "Whether invoices match approved purchase orders", "What does the Helix Audit module check?", "Shipping manifests.", false),
  fuzzy(
    "knowledge_qa",
    "ISO 27001 and SOC 2",
    "Which two certifications does the Vantage Cloud tier hold?",
    "The Vantage Cloud tier holds the ISO 27001 and SOC 2 certifications.",
    true,
  ),
  fuzzy("knowledge_qa", "ISO 27001 and SOC 2", "Which two certifications does the Vantage Cloud tier hold?", "ISO 27001 or PCI DSS", false),
  fuzzy("knowledge_qa", "Three years from the delivery date.", "How long is the warranty on Orion sensors?", "Orion sensors carry a 3-year warranty, counted from delivery.", true),
  fuzzy("knowledge_qa", "Three years from the delivery date.", "How long is the warranty on Orion sensors?", "Two or three years from delivery.", false),
  fuzzy("knowledge_qa", "Three years from the delivery date.", "How long is the warranty on Orion sensors?", "Five years from the delivery date.", false),
  fuzzy(
    "knowledge_qa",
    "A ticket left unanswered for more than 48 hours",
    "What triggers an escalation in the Pulse support plan?",
    "An escalation starts when a ticket stays unanswered for over 48 hours.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "A ticket left unanswered for more than 48 hours",
    "What triggers an escalation in the Pulse support plan?",
    "A ticket unanswered for 24 or 48 hours.",
    false,
  ),
  fuzzy(
    "knowledge_qa",
    "A ticket left unanswered for more than 48 hours",
    "What triggers an escalation in the Pulse support plan?",
    "A ticket unanswered for more than 48 hours; a customer asking for a manager.",
    false,
  ),
  fuzzy("knowledge_qa", "No", "Does the Lumen Kit need a firmware update before pairing?", "No", true),
  fuzzy("knowledge_qa", "No", "Does the Lumen Kit need a firmware update before pairing?", "No, it pairs with the firmware it ships with.", true),
  fuzzy("knowledge_qa", "No", "Does the Lumen Kit need a firmware update before pairing?", "Yes, update it first.", false),
  fuzzy(
    "knowledge_qa",
    "By encrypting backups with customer-held keys",
    "How does Quartz Vault keep archived data private?",
    "Quartz Vault encrypts every backup with keys that the customer holds.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "By encrypting backups with customer-held keys",
    "How does Quartz Vault keep archived data private?",
    "Thanks for your question! I looked through the knowledge base for you, and I compared the articles I found. Here is the answer: by encrypting backups with customer-held keys. I hope this helps, and let me know if you need anything else.",
    true,
  ),
  fuzzy(
    "knowledge_qa",
    "By encrypting backups with customer-held keys",
    "How does Quartz Vault keep archived data private?",
    "Thanks for your question! I looked through the knowledge base for you. Here is the answer: by deleting old backups after a month. I hope this helps.",
    false,
  ),
];

const insights: SuccessCase[] = [
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Borealis Systems", true),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "borealis systems", true),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Borealis Systems was mentioned most often, in 14 calls.", true),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Borealis Systems (ahead of Kestrel Labs)", true),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Either Borealis Systems or Kestrel Labs", false),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Borealis Systems, Kestrel Labs", false),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Borealis Systems and Kestrel Labs", false),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Kestrel Labs or Borealis Systems", false),
  fuzzy("sales_insight_mining", "Borealis Systems", "Which competitor came up most in sales calls this quarter?", "Kestrel Labs", false),
  fuzzy("sales_insight_mining", "Pricing and competitive analysis", "Which subtopic drew the most negative sentiment?", "Pricing and competitive analysis", true),
  fuzzy(
    "sales_insight_mining",
    "Pricing and competitive analysis",
    "Which subtopic drew the most negative sentiment?",
    "Pricing & competitive analysis drew the most negative sentiment.",
    true,
  ),
  fuzzy(
    "sales_insight_mining",
    "Pricing and competitive analysis",
    "Which subtopic drew the most negative sentiment?",
    "Pricing and competitive analysis, Product features",
    false,
  ),
  fuzzy(
    "sales_insight_mining",
    "Pricing and competitive analysis",
    "Which subtopic drew the most negative sentiment?",
    "Product features or Pricing and competitive analysis",
    false,
  ),
  fuzzy(
    "sales_insight_mining",
    "Value propositions, Product features",
    "Which subtopics show positive sentiment in this opportunity?",
    "Product features, Value propositions",
    true,
  ),
  fuzzy(
    "sales_insight_mining",
    "Value propositions, Product features",
    "Which subtopics show positive sentiment in this opportunity?",
    "value propositions and product features",
    true,
  ),
  fuzzy(
    "sales_insight_mining",
    "Value propositions, Product features",
    "Which subtopics show positive sentiment in this opportunity?",
    "Value propositions, Product features, Case studies and testimonials",
    false,
  ),
  fuzzy("sales_insight_mining", "Value propositions, Product features", "Which subtopics show positive sentiment in this opportunity?", "Value propositions", false),
  fuzzy("sales_insight_mining", "Kestrel Labs", "Which rival has an edge over us in this deal?", "Kestrel Labs appears to have the edge here.", true),
  // Added after the validity suite's verbose purple: courtesy around a right answer is no wrong answer, nor a hedge.
  fuzzy(
    "sales_insight_mining",
    "Borealis Systems",
    "Which competitor came up most in sales calls this quarter?",
    "Thank you for waiting while I went through the calls. Here is what I found: Borealis Systems. Please let me know if you need more.",
    true,
  ),
  fuzzy(
    "sales_insight_mining",
    "Borealis Systems",
    "Which competitor came up most in sales calls this quarter?",
    "Thank you for waiting. It is either Borealis Systems or Kestrel Labs. I hope this helps.",
    false,
  ),
  fuzzy(
    "sales_insight_mining",
    "Borealis Systems",
    "Which competitor came up most in sales calls this quarter?",
    "Thanks! Here is what I found: Kestrel Labs. I hope this helps.",
    false,
  ),
  // A rival in a sentence of the agent's own is still a rival: only content-free courtesy is set aside.
  fuzzy(
    "sales_insight_mining",
    "Borealis Systems",
    "Which competitor came up most in sales calls this quarter?",
    "Borealis Systems. I think it could also be Kestrel Labs.",
    false,
  ),
];

/**
 * Hedge forms of issue 28 and their honest neighbours, generated from templates over truths and
 * rivals of our own: a list literal, numbered items, "if not" alternatives and a rival in lower
 * case fail; the right answer with a sentence of justification passes; "I don't know" is no None,
 * a stated absence is.
 */
const HEDGE_FIXTURES: readonly { category: string; truth: string; rival: string; task: string; justification: string }[] = [
  {
    category: "sales_insight_mining",
    truth: "Borealis Systems",
    rival: "Kestrel Labs",
    task: "Which competitor came up most in sales calls this quarter?",
    justification: "It was named in more calls than any other vendor.",
  },
  {
    category: "sales_insight_mining",
    truth: "Pricing and competitive analysis",
    rival: "Product features",
    task: "Which subtopic drew the most negative sentiment?",
    justification: "The transcripts show the sharpest complaints there.",
  },
  {
    category: "sales_insight_mining",
    truth: "Nimbus Fabrication",
    rival: "Orchid Silicon",
    task: "Which rival has an edge over us in this deal?",
    justification: "I found it in the latest three calls with the buyer.",
  },
  {
    category: "knowledge_qa",
    truth: "Robust encryption and compliance checks",
    rival: "Faster onboarding of new staff",
    task: "How does the platform protect customer records?",
    justification: "This is what the security article describes.",
  },
  {
    category: "knowledge_qa",
    truth: "By automating verification steps",
    rival: "Through cheaper licences",
    task: "How does the suite shorten design cycles?",
    justification: "The product overview says so in its first section.",
  },
];
const hedgeForms: SuccessCase[] = HEDGE_FIXTURES.flatMap(({ category, truth, rival, task, justification }) => [
  fuzzy(category, truth, task, JSON.stringify([truth, rival]), false),
  fuzzy(category, truth, task, `['${truth}', '${rival}']`, false),
  fuzzy(category, truth, task, `1. ${truth} 2. ${rival}`, false),
  fuzzy(category, truth, task, `${truth}; if not, then ${rival.toLowerCase()}`, false),
  fuzzy(category, truth, task, `${truth}, failing that ${rival}`, false),
  fuzzy(category, truth, task, `${truth}, ${rival.toLowerCase()}`, false),
  fuzzy(category, truth, task, `${truth}. ${justification}`, true),
  fuzzy(category, truth, task, `${truth}. ${rival}.`, false),
  fuzzy(category, truth, task, `${truth}. It might also be ${rival}.`, false),
]);
const NONE_TASKS: readonly [string, string][] = [
  ["policy_violation_identification", CASE_TASK],
  ["handle_time", AGENT_TASK],
  ["top_issue_identification", PRODUCT_TASK],
  ["named_entity_disambiguation", CONTACT_TASK],
];
const ignorance: SuccessCase[] = NONE_TASKS.flatMap(([category, task]) => [
  exact(category, [null], task, "I don't know.", false),
  exact(category, [null], task, "Unable to determine.", false),
  exact(category, [null], task, "I'm not sure; the data is unclear.", false),
  exact(category, [null], task, "There are none.", true),
  exact(category, [null], task, "No such record exists.", true),
]);

/** Every success case but privacy (tests/support/judge-corpus-privacy.ts), by the rule it exercises. */
export const SUCCESS_CORPUS: Readonly<Record<"id forms" | "none truth" | "knowledge" | "insight" | "hedge forms" | "ignorance", readonly SuccessCase[]>> = {
  "id forms": idForms,
  "none truth": noneTruths,
  "hedge forms": hedgeForms,
  ignorance,
  knowledge,
  insight: insights,
};
