import type { Random } from "../../util/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";

/** Question words and acronyms that start with a capital but name no company or product. */
const NOT_NAMES = new Set(["What", "Why", "How", "Which", "Who", "When", "Where", "Does", "Do", "Is", "Are", "Can", "In", "For", "The", "A", "An"]);
/** A run of capitalised words (CamelCase and hyphens allowed): a candidate company or product name. */
const CAPITALISED_RUN = /\b[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:\s+[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)*/g;

/** The named companies and products of a question: runs of two or more capitalised words, or one mixed-case word ("InnovateMax"). */
export function namedEntities(question: string): string[] {
  const names: string[] = [];
  for (const match of question.matchAll(CAPITALISED_RUN)) {
    const words = match[0].split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has(words[0]!)) words.shift();
    if (words.length === 0) continue;
    const single = words.length === 1 ? words[0]! : undefined;
    // A lone acronym (HPC, IoT) is a domain word, not a name; a lone word with inner capitals or a hyphen is a brand.
    if (single && (/^[A-Z0-9]+$/.test(single.replace(/o/g, "O")) || !/[a-z][A-Z]|-/.test(single))) continue;
    const name = words.join(" ");
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

const BRAND_STARTS = ["Vextra", "Corvane", "Lumora", "Quillon", "Tessaro", "Brivex", "Halcyra", "Zentric", "Orvella", "Pyrana", "Solvane", "Kyntra"];
const BRAND_ENDS = ["Dynamics", "Labs", "Systems", "Works", "Logic", "Forge", "Analytics", "Studio", "Matrix", "Nexus", "Suite", "Engine"];
/** Settings for a question the generator's own FAQ articles already answer: the twin moves it to one of these and plants the answer. */
const TWIN_CONTEXTS = ["satellite ground stations", "smart grid controllers", "robotic surgery rigs", "avionics test benches", "data center fabrics", "wearable sensors"];
const ANSWER_ACTIONS = ["Layered", "Continuous", "Automated", "Adaptive", "Scheduled", "Federated", "Incremental", "Predictive"];
const ANSWER_OBJECTS = ["key rotation", "netlist auditing", "thermal profiling", "access reviews", "timing closure checks", "firmware signing", "load balancing", "trace sampling"];
const ANSWER_ENDS = [
  "across every design site",
  "with quarterly attestations",
  "before each tape-out",
  "for regulated customers",
  "under a single dashboard",
  "at the gateway level",
];

function twinName(original: string, rng: Random, taken: ReadonlySet<string>): string {
  for (;;) {
    const words = original.split(/\s+/).length;
    const name = words === 1 ? `${rng.pick(BRAND_STARTS)}${rng.pick(BRAND_ENDS)}` : `${rng.pick(BRAND_STARTS)} ${rng.pick(BRAND_ENDS)}`;
    if (!taken.has(name)) return name;
  }
}

const PURPOSES = [
  "keep yield losses below audit limits",
  "shorten the path from design to first silicon",
  "let small teams run regulated programs",
  "keep field failures traceable to a build",
];
const MEANS = ["pairing", "scheduling", "auditing", "automating"];

/** A fresh answer shaped as the question asks: a purpose for "why", a means for "how", else a noun phrase. */
function freshAnswer(question: string, rng: Random): string {
  const phrase = `${rng.pick(ANSWER_ACTIONS).toLowerCase()} ${rng.pick(ANSWER_OBJECTS)} ${rng.pick(ANSWER_ENDS)}`;
  if (/^\s*why\b/i.test(question)) return `To ${rng.pick(PURPOSES)} through ${phrase}.`;
  if (/^\s*how\b/i.test(question)) return `By ${rng.pick(MEANS)} ${phrase}.`;
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The articles this category planted per world, by question, so a question asked twice has one article. */
const planted = new WeakMap<TwinWorld, Map<string, string>>();

/**
 * The answer program: the answer the knowledge base states for a question, the FAQ_Answer__c of
 * the article titled with it (the article the twin planted, or the generator's FAQ article).
 */
export function knowledgeAnswer(world: TwinWorld, question: string): string | undefined {
  const articles = world.where("Knowledge__kav", "Title", question);
  return articles.length === 1 ? String(articles[0]!.FAQ_Answer__c) : undefined;
}

export const knowledgeQa = defineTwinCategory({
  name: "knowledge_qa",
  twin: ({ source, world, rng }) => {
    let query = source.query;
    const names = namedEntities(query);
    const taken = new Set<string>();
    for (const name of names) {
      const replacement = twinName(name, rng, taken);
      taken.add(replacement);
      query = query.split(name).join(replacement);
    }
    const byQuestion = planted.get(world) ?? new Map<string, string>();
    planted.set(world, byQuestion);
    // A question an article of the generator already answers (its FAQs paraphrase real ones) moves to a twin setting, so the twin's answer is fresh.
    if (!byQuestion.has(query) && world.where("Knowledge__kav", "Title", query).length > 0) {
      query = query.replace(/ in ([^?]+)\?$/, ` in ${rng.pick(TWIN_CONTEXTS)}?`);
      if (!byQuestion.has(query) && world.where("Knowledge__kav", "Title", query).length > 0) return undefined;
    }
    if (!byQuestion.has(query)) {
      const answer = freshAnswer(query, rng);
      world.add("Knowledge__kav", {
        Id: world.newId("Knowledge__kav"),
        Title: query,
        FAQ_Answer__c: answer,
        Summary: names.length > 0 ? `What the knowledge base records about ${[...taken].join(" and ")}.` : "Answer from the engineering knowledge base.",
        UrlName: slug(query),
      });
      byQuestion.set(query, answer);
    }
    const answer = knowledgeAnswer(world, query);
    if (!answer) return undefined;
    return { query, required: source.metadata.required, answer: [answer] };
  },
});
