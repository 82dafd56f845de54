import { addDays, type Random } from "../../util/index.js";
import { defineTwinCategory } from "../category.js";
import { readPeriod } from "../window.js";
import type { TwinWorld } from "../world.js";

/** The twin org's rivals: invented names, so no real answer is ever a twin's. */
const COMPETITORS = ["Helix Chipworks", "Tessera Logic", "PolyGate Design", "OrbitSim Corp", "VeriNova Labs", "Siltrek Systems"];

export type Relation = "offer" | "advantage" | "disadvantage" | "mention";

/** How a call puts each relation to a rival into words (a rep's summary of the customer's side). */
const PHRASES: Record<Relation, readonly ((name: string) => string)[]> = {
  offer: [
    (c) => `The customer has received a competing offer from ${c}.`,
    (c) => `${c} sent them a rival proposal last week.`,
    (c) => `They are also weighing a quote that ${c} submitted.`,
  ],
  advantage: [
    (c) => `The customer said our solution is clearly ahead of ${c} on verification speed.`,
    (c) => `We have a real edge over ${c} in integration support.`,
    (c) => `They found our roadmap stronger than what ${c} showed them.`,
  ],
  disadvantage: [
    (c) => `The customer thinks ${c} is ahead of us on pricing.`,
    (c) => `We are at a disadvantage against ${c} on licensing terms.`,
    (c) => `${c} outperformed us in the benchmark they ran.`,
  ],
  mention: [(c) => `${c} came up briefly when we discussed the market.`, (c) => `The customer mentioned that they know ${c}.`],
};

interface CompetitorCall {
  readonly transcriptId: string;
  readonly opportunityId: string;
  readonly day: string;
  readonly mentions: readonly { readonly competitor: string; readonly relation: Relation }[];
}

interface SubtopicCall {
  readonly opportunityId: string;
  readonly day: string;
  readonly topics: readonly { readonly topic: string; readonly positive: boolean }[];
}

/** What this category's enricher planted in a world, and the generator's subtopic calls read once. */
const planted = new WeakMap<TwinWorld, { competitorCalls: CompetitorCall[]; subtopicCalls: SubtopicCall[] }>();

/** The generator's subtopic lines ("On <topic>, the customer <reaction>."), their sentiment from what it planted as negative. */
function subtopicCalls(world: TwinWorld): SubtopicCall[] {
  const calls: SubtopicCall[] = [];
  for (const [opportunityId, negative] of world.facts.opportunityNegativeTopics) {
    for (const transcript of world.where("VoiceCallTranscript__c", "OpportunityId__c", opportunityId)) {
      const topics = [...String(transcript.Body__c).matchAll(/^On (.+?), the customer /gm)].map((m) => {
        const topic = m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1);
        return { topic, positive: !negative.some((label) => label.toLowerCase() === m[1]!.toLowerCase()) };
      });
      if (topics.length > 0) calls.push({ opportunityId, day: String(transcript.CreatedDate).slice(0, 10), topics });
    }
  }
  return calls;
}

const insightsOf = (world: TwinWorld) => plantedIn(world);

function plantedIn(world: TwinWorld) {
  let insights = planted.get(world);
  if (!insights) {
    insights = { competitorCalls: [], subtopicCalls: subtopicCalls(world) };
    planted.set(world, insights);
  }
  return insights;
}

/** Adds one call on an opportunity in which the rep reports what the customer said about rivals, and records what it says. */
export function addCompetitorCall(world: TwinWorld, rng: Random, opportunityId: string, day: string, mentions: CompetitorCall["mentions"]): void {
  const transcriptId = world.newId("VoiceCallTranscript__c");
  const time = `${String(rng.int(8, 17)).padStart(2, "0")}:${String(rng.int(10, 59))}:00.000+0000`;
  world.add("VoiceCallTranscript__c", {
    Id: transcriptId,
    OpportunityId__c: opportunityId,
    LeadId__c: null,
    Body__c: [
      "Rep: Thanks for joining the call today.",
      ...mentions.map(({ competitor, relation }) => `Rep: ${rng.pick(PHRASES[relation])(competitor)}`),
      "Rep: I will send a summary.",
    ].join("\n"),
    CreatedDate: `${day}T${time}`,
    EndTime__c: `${day}T${time}`,
  });
  plantedIn(world).competitorCalls.push({ transcriptId, opportunityId, day, mentions });
}

/** The enricher: calls on opportunities where the customer talks about rivals, spread over the org's timeline (about six a week). */
function enrich(world: TwinWorld, rng: Random): void {
  const opportunities = world.rows("Opportunity").map((row) => String(row.Id));
  plantedIn(world);
  const relations: Relation[] = ["offer", "advantage", "disadvantage", "mention"];
  for (let i = 0; i < 1600; i++) {
    const opportunityId = rng.pick(opportunities);
    const day = addDays("2020-01-01", rng.int(0, 1825));
    const mentions = rng.sample(COMPETITORS, rng.int(1, 2)).map((competitor) => ({ competitor, relation: rng.pick(relations) }));
    addCompetitorCall(world, rng, opportunityId, day, mentions);
  }
}

export interface InsightQuestion {
  readonly about: "competitor" | "subtopic";
  readonly relation: Relation;
  readonly positive: boolean;
}

/** What a real question asks, from its wording: rivals or subtopics, which relation, which sentiment. */
export function readInsightQuestion(query: string): InsightQuestion {
  const text = query.toLowerCase();
  const about = /subtopic|aspect/.test(text) ? "subtopic" : "competitor";
  const relation: Relation = /disadvantage|challeng|over us|against/.test(text)
    ? "disadvantage"
    : /advantage|edge/.test(text)
      ? "advantage"
      : /offer|proposal/.test(text)
        ? "offer"
        : "mention";
  return { about, relation, positive: !/negative/.test(text) };
}

const matches = (relation: Relation, wanted: Relation) => wanted === "mention" || relation === wanted;

/** The answer program for one opportunity: its rivals in the relation asked (in order of first mention), or its subtopics of the sentiment asked (every occurrence). */
export function opportunityInsight(world: TwinWorld, opportunityId: string, question: InsightQuestion): string | undefined {
  const insights = insightsOf(world);
  const names: string[] = [];
  if (question.about === "competitor") {
    const calls = insights.competitorCalls.filter((call) => call.opportunityId === opportunityId).sort((a, b) => a.day.localeCompare(b.day));
    for (const call of calls) for (const { competitor, relation } of call.mentions) if (matches(relation, question.relation) && !names.includes(competitor)) names.push(competitor);
  } else {
    for (const call of insights.subtopicCalls.filter((c) => c.opportunityId === opportunityId))
      for (const { topic, positive } of call.topics) if (positive === question.positive) names.push(topic);
  }
  return names.length > 0 ? names.join(", ") : undefined;
}

/** The answer program across all opportunities in a window: the rival or subtopic counted most often; undefined on a tie. */
export function windowInsight(world: TwinWorld, start: string, end: string, question: InsightQuestion): string | undefined {
  const insights = insightsOf(world);
  const counts = new Map<string, number>();
  const bump = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  if (question.about === "competitor") {
    for (const call of insights.competitorCalls)
      if (call.day >= start && call.day <= end) for (const m of call.mentions) if (matches(m.relation, question.relation)) bump(m.competitor);
  } else {
    for (const call of insights.subtopicCalls) if (call.day >= start && call.day <= end) for (const t of call.topics) if (t.positive === question.positive) bump(t.topic);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[1]![1] === ranked[0]![1])) return undefined;
  return ranked[0]![0];
}

const OPPORTUNITY_ID = /\b006[A-Za-z0-9]{15}\b/g;

export const salesInsightMining = defineTwinCategory({
  name: "sales_insight_mining",
  enrich,
  twin: ({ source, world, rng }) => {
    const question = readInsightQuestion(source.query);
    const required = source.metadata.required;
    if (/\b006[A-Za-z0-9]{15}\b/.test(required)) {
      const insights = insightsOf(world);
      const pool: readonly { readonly opportunityId: string }[] = question.about === "competitor" ? insights.competitorCalls : insights.subtopicCalls;
      const opportunityId = rng.pick(pool).opportunityId;
      const answer = opportunityInsight(world, opportunityId, question);
      if (!answer) return undefined;
      return { query: source.query, required: required.replace(OPPORTUNITY_ID, opportunityId), answer: [answer] };
    }
    // A window across all opportunities ends on today: the twin states its today in the required context, as the real dated tasks do.
    const today = addDays("2021-01-01", rng.int(0, 1460));
    const period = readPeriod(source.query, today);
    if (!period) return undefined;
    const answer = windowInsight(world, period.start, period.end, question);
    if (!answer) return undefined;
    return { query: source.query, required: `${required.trimEnd()}\n        - Today's date: ${today}\n`, answer: [answer] };
  },
});
