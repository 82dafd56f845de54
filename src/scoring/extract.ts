/**
 * Deterministic answer extraction, standing in for CRMArena-Pro's LLM extractor until a
 * judge model is configured. It reads the same entity per task type that the original
 * prompts ask for (state codes, month names, BANT factors, one stage, otherwise Ids) and,
 * like the original, yields ["None"] when the answer names no such entity.
 */
const US_STATES: Record<string, string> = {
  alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO", connecticut: "CT",
  delaware: "DE", florida: "FL", georgia: "GA", hawaii: "HI", idaho: "ID", illinois: "IL", indiana: "IN", iowa: "IA",
  kansas: "KS", kentucky: "KY", louisiana: "LA", maine: "ME", maryland: "MD", massachusetts: "MA", michigan: "MI",
  minnesota: "MN", mississippi: "MS", missouri: "MO", montana: "MT", nebraska: "NE", nevada: "NV", "new hampshire": "NH",
  "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC", "north dakota": "ND", ohio: "OH",
  oklahoma: "OK", oregon: "OR", pennsylvania: "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
  tennessee: "TN", texas: "TX", utah: "UT", vermont: "VT", virginia: "VA", washington: "WA", "west virginia": "WV",
  wisconsin: "WI", wyoming: "WY", "district of columbia": "DC",
};
const STATE_CODES = new Set(Object.values(US_STATES));
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const BANT = ["Budget", "Authority", "Need", "Timeline"];
const STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"];
const SALESFORCE_ID = /\b(?=[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?\b/g;

export type EntityKind = "state" | "month" | "bant" | "stage" | "id";

/** Which entity CRMArena-Pro's extractor looks for in each task type. */
export function entityKindFor(category: string): EntityKind {
  switch (category) {
    case "best_region_identification":
      return "state";
    case "monthly_trend_analysis":
      return "month";
    case "lead_qualification":
      return "bant";
    case "wrong_stage_rectification":
      return "stage";
    default:
      return "id";
  }
}

export function extractAnswers(text: string, category: string): string[] {
  const found = extractEntities(text, entityKindFor(category));
  return found.length > 0 ? found : ["None"];
}

function extractEntities(text: string, kind: EntityKind): string[] {
  switch (kind) {
    case "state":
      return unique(statesIn(text));
    case "month":
      return unique(wordsIn(text, MONTHS));
    case "bant":
      return unique(wordsIn(text, BANT));
    case "stage":
      return wordsIn(text, STAGES).slice(0, 1);
    case "id":
      return unique(text.match(SALESFORCE_ID) ?? []);
  }
}

function statesIn(text: string): string[] {
  const found: { at: number; code: string }[] = [];
  for (const match of text.matchAll(/\b[A-Z]{2}\b/g)) {
    if (STATE_CODES.has(match[0])) found.push({ at: match.index, code: match[0] });
  }
  const lower = text.toLowerCase();
  for (const [name, code] of Object.entries(US_STATES)) {
    for (const match of lower.matchAll(new RegExp(`\\b${name}\\b`, "g"))) {
      // "West Virginia" also contains "Virginia": keep only the longer name.
      const shadowed = name === "virginia" && lower.slice(Math.max(0, match.index - 5), match.index) === "west ";
      if (!shadowed) found.push({ at: match.index, code });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.code);
}

/** The vocabulary words in order of appearance (whole words, any case). */
function wordsIn(text: string, vocabulary: readonly string[]): string[] {
  const found: { at: number; word: string }[] = [];
  for (const word of vocabulary) {
    for (const match of text.matchAll(new RegExp(`\\b${word}\\b`, "gi"))) found.push({ at: match.index, word });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.word);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
