import { categorySpec, type EntityKind } from "../datasets/index.js";
import { SALESFORCE_ID_TOKENS } from "../util/index.js";

export type { EntityKind };

/**
 * Deterministic answer extraction, standing in for CRMArena-Pro's LLM extractor when no judge
 * model is configured or the model is unreachable. Like the extraction prompts it reads every
 * entity of the task type's kind that the final answer mentions (state codes, month names, BANT
 * factors, one stage, otherwise record Ids), following the prompts' guidelines, and yields
 * ["None"] when there is none. docs/scoring.md states the rules; in short:
 *
 * - A word that is only sometimes the entity counts where it clearly is one: "may" the modal is
 *   no month, "OK," the interjection is no state, "Jan Novak" is a person, "a quote" is no stage;
 *   a lower-case code or abbreviation ("ca", "mar") counts when it stands alone as the answer or
 *   a list item.
 * - Repeats: a value listed more than once in one list ("X, Y, X", bullets, a list literal) is
 *   extracted as often as it is listed, since ground truths may repeat a record and the
 *   comparison counts repeats; naming it again elsewhere, or restating it in another form
 *   ("Texas (TX)"), refers back to the same mention.
 * - BANT keeps only the factors the answer says are unmet when it also names met ones; the stage
 *   is the one the answer says is correct, not one it rejects ("rather than X", "from X to Y").
 */
export const US_STATES: Readonly<Record<string, string>> = {
  alabama: "AL",
  alaska: "AK",
  arizona: "AZ",
  arkansas: "AR",
  california: "CA",
  colorado: "CO",
  connecticut: "CT",
  delaware: "DE",
  florida: "FL",
  georgia: "GA",
  hawaii: "HI",
  idaho: "ID",
  illinois: "IL",
  indiana: "IN",
  iowa: "IA",
  kansas: "KS",
  kentucky: "KY",
  louisiana: "LA",
  maine: "ME",
  maryland: "MD",
  massachusetts: "MA",
  michigan: "MI",
  minnesota: "MN",
  mississippi: "MS",
  missouri: "MO",
  montana: "MT",
  nebraska: "NE",
  nevada: "NV",
  "new hampshire": "NH",
  "new jersey": "NJ",
  "new mexico": "NM",
  "new york": "NY",
  "north carolina": "NC",
  "north dakota": "ND",
  ohio: "OH",
  oklahoma: "OK",
  oregon: "OR",
  pennsylvania: "PA",
  "rhode island": "RI",
  "south carolina": "SC",
  "south dakota": "SD",
  tennessee: "TN",
  texas: "TX",
  utah: "UT",
  vermont: "VT",
  virginia: "VA",
  washington: "WA",
  "west virginia": "WV",
  wisconsin: "WI",
  wyoming: "WY",
  "district of columbia": "DC",
  "washington d.c.": "DC",
  "washington, d.c.": "DC",
  "washington dc": "DC",
};
const STATE_CODES = new Set(Object.values(US_STATES));
/** Longest names first, so "West Virginia" and "Washington D.C." win over the names inside them. */
const STATE_NAMES = new RegExp(
  `\\b(?:${Object.keys(US_STATES)
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.]/g, "\\."))
    .join("|")})(?!\\w)`,
  "gi",
);
/** Codes that are also common English words or abbreviations ("OK,", "IN", "OR", "ID"). */
const AMBIGUOUS_CODES = new Set(["OK", "IN", "OR", "ME", "HI", "ID"]);
/** Words before a code that make it a state ("the state is OK", "in IN"). */
const STATE_CONTEXT = /\b(?:in|state|states|region|is|are|was|were|from|of|to|than)\W*$/i;
/** An answer introduced by a colon and ending its sentence ("Here is what I found: ME."): an everyday-word code there is the state. */
const introducedAnswer = (text: string, start: number, end: number) => /:\s*$/.test(tail(text, start)) && /^\s*(?:[.!?](?:\s|$)|$)/.test(text.slice(end, end + 3));
/** An everyday-word code that is the answer's whole first line ("ME" and a line of justification under it): the state. */
const firstLineAnswer = (text: string, start: number, end: number) => /^\s*$/.test(text.slice(0, start)) && /^[.!]?[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 4));

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const MONTH_NAMES = new RegExp(`\\b(?:${MONTHS.join("|")})\\b`, "gi");
const MONTH_ABBREVIATED = /\b(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?/gi;
/** "Jan Novak" is a person: "Jan" before a capitalised word that is not a month. */
const PERSON_AFTER_JAN = new RegExp(`^\\s+(?!(?:${MONTHS.join("|")})\\b)[A-Z][a-z]+`);
const MONTH_ABBREVIATIONS: Record<string, string> = {
  jan: "January",
  feb: "February",
  mar: "March",
  apr: "April",
  jun: "June",
  jul: "July",
  aug: "August",
  sep: "September",
  sept: "September",
  oct: "October",
  nov: "November",
  dec: "December",
};
/** Month names that are also everyday words in lower case: "may" the modal, "march" the verb. */
const AMBIGUOUS_MONTHS = new Set(["may", "march"]);
/** Words before a lower-case "may"/"march" that make it a month ("in may", "since march"). */
const MONTH_CONTEXT = /\b(?:in|of|during|since|until|till|through|from|to|by|before|after|between|early|late|mid|month|is|was)\W*$/i;
/** What follows the modal "May" at a sentence start ("May I suggest", "May be"). */
const MODAL_FOLLOWER = /^\s+(?:I|we|you|he|she|it|they|be|have|not|also|well|need)\b/;
/** What may follow a lower-case month "may"/"march": an end, a number, a conjunction or a verb of the month ("may had"), never a bare verb ("may have"). */
const MONTH_FOLLOWER = /^(?:\s*(?:$|[.,;:!?)\]"'`]|\d)|\s+(?:and|or|to|through|until|vs\.?|versus|was|had|has|is|saw|showed|stood|with|compared)\b)/i;

/**
 * Which entity CRMArena-Pro's extractor looks for in a category's answers: the catalogue's
 * (src/datasets/), record Ids for a category no catalogue knows.
 */
export function entityKindFor(category: string): EntityKind {
  return categorySpec(category)?.entityKind ?? "id";
}

export function extractAnswers(text: string, category: string): string[] {
  return extractEntities(text, entityKindFor(category));
}

/** The entities of one kind an answer names, as CRMArena-Pro's extractor gives them; ["None"] when it names none. */
export function extractEntities(text: string, kind: EntityKind): string[] {
  const mentions = accepted(text, FINDERS[kind](text));
  const chosen = kind === "bant" ? unmetFactors(text, mentions) : kind === "stage" ? correctStage(text, mentions) : mentions;
  const values = tally(text, chosen);
  return values.length > 0 ? values : ["None"];
}

/**
 * A place where the answer names an entity. `rule` says when a candidate counts: `sure` always,
 * `item` when it stands alone as a list item, `whole` only when the whole answer is a bare value
 * or list of them, `listed` also after a context word or in a list next to a counted mention,
 * `cued` (stages) when a stage cue precedes it or it stands alone.
 */
interface Mention {
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly form: string;
  readonly rule: "sure" | "item" | "listed" | "whole" | "cued";
  readonly context?: RegExp;
}

const FINDERS: Record<EntityKind, (text: string) => Mention[]> = {
  id: (text) => matches(text, SALESFORCE_ID_TOKENS).map(([start, word]) => mention(start, word, word, "id", "sure")),
  state: (text) => [
    ...matches(text, /\b[a-zA-Z]{2}\b/g).flatMap(([start, word]) => {
      const code = word.toUpperCase();
      if (!STATE_CODES.has(code)) return [];
      const ambiguous = AMBIGUOUS_CODES.has(code);
      if (word === code) {
        const standsAsAnswer = introducedAnswer(text, start, start + 2) || firstLineAnswer(text, start, start + 2);
        return [mention(start, word, code, "code", ambiguous && !standsAsAnswer ? "listed" : "sure", STATE_CONTEXT)];
      }
      // In lower case "in", "or", "me", "ok" are words in any list ("TX, or FL"): a state only as the whole answer.
      return [mention(start, word, code, "code", ambiguous ? "whole" : "item")];
    }),
    ...matches(text, STATE_NAMES).map(([start, word]) => mention(start, word, US_STATES[word.toLowerCase()]!, "name", "sure")),
  ],
  month: (text) => [
    ...matches(text, MONTH_NAMES).flatMap(([start, word]) => {
      const value = capitalise(word);
      const lower = word === word.toLowerCase();
      if (AMBIGUOUS_MONTHS.has(word.toLowerCase()) && lower) {
        const after = text.slice(start + word.length);
        return MONTH_FOLLOWER.test(after) ? [mention(start, word, value, "name", followedByNumber(text, start + word.length) ? "sure" : "listed", MONTH_CONTEXT)] : [];
      }
      if (word === "May" && atSentenceStart(text, start) && MODAL_FOLLOWER.test(text.slice(start + 3))) return [];
      return [mention(start, word, value, "name", "sure")];
    }),
    ...matches(text, MONTH_ABBREVIATED).flatMap(([start, raw]) => {
      const word = raw.replace(/\.$/, "");
      const value = MONTH_ABBREVIATIONS[word.toLowerCase()]!;
      if (/^jan$/i.test(word) && PERSON_AFTER_JAN.test(text.slice(start + word.length))) return [];
      const written = word === capitalise(word) || word === word.toUpperCase();
      return [mention(start, word, value, "abbr", written || followedByNumber(text, start + word.length) ? "sure" : "item")];
    }),
  ],
  bant: (text) =>
    matches(text, /\b(?:budget|authority|need|timeline)\b/gi).flatMap(([start, word]) => {
      // "need to", "they need": the verb, not the factor.
      if (
        word === "need" &&
        (/^\s+to\b/.test(text.slice(start + 4)) || /\b(?:I|you|we|they|he|she|it|will|would|may|might|could|should|don['’]t|doesn['’]t|didn['’]t)\s+$/i.test(tail(text, start)))
      )
        return [];
      return [mention(start, word, capitalise(word), "word", "sure")];
    }),
  stage: (text) =>
    matches(text, /\b(?:qualification|discovery|quote|negotiation|closed(?:[\s-]+(?:won|lost))?)\b/gi).flatMap(([start, word]) => {
      const value = capitalise(word.split(/[\s-]/)[0]!);
      if (word === word.toLowerCase() && /\b(?:a|an)\s+$/i.test(tail(text, start))) return [];
      return [mention(start, word, value, "word", word === word.toLowerCase() ? "cued" : "sure")];
    }),
};

function mention(start: number, word: string, value: string, form: string, rule: Mention["rule"], context?: RegExp): Mention {
  return { start, end: start + word.length, value, form, rule, ...(context ? { context } : {}) };
}

function matches(text: string, pattern: RegExp): [number, string][] {
  return [...text.matchAll(pattern)].map((match) => [match.index, match[0]]);
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
/**
 * The text just before `at`, for patterns anchored at its end: a bounded window keeps every test
 * constant-time on long answers (a purple may send megabytes). `^` in such a pattern means the
 * start of the answer only when the window reaches it, so the window is marked with a leading
 * NUL when it does not.
 */
const LOOK_BACK = 80;
const tail = (text: string, at: number) => (at > LOOK_BACK ? `\0${text.slice(at - LOOK_BACK, at)}` : text.slice(0, at));
const followedByNumber = (text: string, end: number) => /^\.?\s+\d/.test(text.slice(end));
const atSentenceStart = (text: string, start: number) => /(?:^|[.!?]\s+|\n\s*)$/.test(tail(text, start));

/** Before a list item: the start, a delimiter, or "and"/"or", then perhaps a bullet. */
const ITEM_BEFORE = /(?:^|[,;:\n[\]{}()"'`|]|\band|\bor)\s*(?:(?:[-*•]|\d+[.)])\s+)?[*_]*$/i;
/** After a list item: perhaps a full stop, then the end, a delimiter, or "and"/"or". */
const ITEM_AFTER = /^[*_]*\.?\s*(?:$|[,;:\n[\]{}()"'`|]|(?:and|or)\b)/i;
/** Between two items of one list: delimiters, "and"/"or", bullets; a full stop only at a line end. */
const listGap = (separators: string) => new RegExp(String.raw`^(?:[\s${separators}&/|"'\`[\](){}*_]|\.(?=\s*\n)|\n\s*(?:[-*•]|\d+[.)])\s|\b(?:and|or)\b)*$`, "i");
const LIST_GAP = listGap(",;");
/** Within one clause: what is said of "Budget, Need and Timeline" is said of all three, but not across a ";". */
const CLAUSE_LIST_GAP = listGap(",");
/** A list gap with a delimiter in it, not only a space ("OK, TX", not "in Michigan"). */
const DELIMITED = /[,;&/|"'`[\](){}\n]|\b(?:and|or)\b/i;
/** Between a value and its restatement in another form: "Texas (TX)", "TX - Texas", "Mar (March)". */
const APPOSITION_GAP = /^[\s([\-–—:"'`*]*$/;

const standsAlone = (text: string, m: Mention) => ITEM_BEFORE.test(tail(text, m.start)) && ITEM_AFTER.test(text.slice(m.end));
/** Only delimiters and "and"/"or" around and between the candidates: the answer is a bare value or list ("OK", "['OK', 'IN']", not "In Colorado"). */
const BARE = /^(?:[\s"'`[\](){}*.,;:!&/|-]|\b(?:and|or)\b)*$/i;
const isBareList = (text: string, found: readonly Mention[]) => {
  const gaps = found.map((m, i) => text.slice(i === 0 ? 0 : found[i - 1]!.end, m.start));
  return BARE.test(gaps.join("") + text.slice(found[found.length - 1]?.end ?? 0)) && gaps.every((gap, i) => i === 0 || DELIMITED.test(gap));
};
const listed = (text: string, a: Mention, b: Mention) => {
  const gap = text.slice(a.end, b.start);
  return (LIST_GAP.test(gap) && DELIMITED.test(gap)) || (a.value === b.value && a.form !== b.form && APPOSITION_GAP.test(gap));
};

/** The candidates that count, in order of appearance, a longer name winning over one inside it. */
function accepted(text: string, candidates: Mention[]): Mention[] {
  const sorted = [...candidates].sort((a, b) => a.start - b.start || b.end - a.end);
  let reach = -1;
  const found = sorted.filter((m) => {
    const inside = m.start < reach;
    reach = Math.max(reach, m.end);
    return !inside;
  });
  const bare = isBareList(text, found);
  const counted = found.map(
    (m) =>
      bare || m.rule === "sure" || m.rule === "cued" || (m.rule === "item" && standsAlone(text, m)) || (m.rule === "listed" && (m.context?.test(tail(text, m.start)) ?? false)),
  );
  // A listed word next to a counted mention counts too ("OK, TX", "March and may"): one sweep each
  // way carries that along a whole list.
  const join = (i: number, j: number) => {
    if (!counted[i] && counted[j] && found[i]!.rule === "listed") counted[i] = j < i ? listed(text, found[j]!, found[i]!) : listed(text, found[i]!, found[j]!);
  };
  for (let i = 1; i < found.length; i++) join(i, i - 1);
  for (let i = found.length - 2; i >= 0; i--) join(i, i + 1);
  return found.filter((_, i) => counted[i]);
}

/** Consecutive mentions of one list ("Budget, Need, and Timeline"), after merging restatements. */
function runs(text: string, mentions: readonly Mention[], gap: RegExp = LIST_GAP): Mention[][] {
  const merged = mentions.filter((m, i) => {
    const previous = mentions[i - 1];
    return !(previous && previous.value === m.value && previous.form !== m.form && APPOSITION_GAP.test(text.slice(previous.end, m.start)));
  });
  const groups: Mention[][] = [];
  merged.forEach((m, i) => {
    const previous = merged[i - 1];
    if (previous && gap.test(text.slice(previous.end, m.start))) groups[groups.length - 1]!.push(m);
    else groups.push([m]);
  });
  return groups;
}

/**
 * Each value once, or as often as one list repeats it as an item of its own, in order of first
 * appearance ("X, Y, X" gives X twice; "May and June, June saw more" gives June once).
 */
function tally(text: string, mentions: readonly Mention[]): string[] {
  const times = new Map<string, number>();
  for (const group of runs(text, mentions)) {
    const inGroup = new Map<string, number>();
    for (const m of group) {
      const sofar = inGroup.get(m.value) ?? 0;
      // Only an item of its own repeats a value; "June, June saw more" restates the subject.
      inGroup.set(m.value, group.length > 1 && standsAlone(text, m) ? sofar + 1 : Math.max(1, sofar));
    }
    for (const [value, n] of inGroup) times.set(value, Math.max(times.get(value) ?? 0, n));
  }
  return [...times].flatMap(([value, n]) => Array<string>(n).fill(value));
}

/**
 * Where the clause holding `at` starts: after a sentence end, a line break or a contrast ("but",
 * "though"), and at most LOOK_BACK * 4 characters back (the nearest cues are what matter).
 */
function clauseStart(text: string, at: number): number {
  const from = Math.max(0, at - LOOK_BACK * 4);
  const breaks = [...text.slice(from, at).matchAll(/[.!?;\n]|\b(?:but|however|though|although|while|whereas|yet|except)\b/gi)];
  const last = breaks[breaks.length - 1];
  return from + (last ? last.index + last[0].length : 0);
}

const MET = String.raw`meets?|met|satisf(?:y|ies|ied)|confirmed|fine|ok(?:ay)?|good|strong|clear|established|present|qualif(?:y|ies|ied)|adequate|sufficient|approved|allocated|secured|available|identified|defined|aligned|covered|solid|in\s+place|has|have|had`;
const UNMET = `lack(?:s|ing|ed)?|missing|absent|unmet|unknown|unclear|undefined|unconfirmed|unqualified|insufficient|inadequate|limited|weak|fail(?:s|ed|ing|ure)?|gap|issue|problem|concern|blocker|obstacle|shortfall|reason|open|pending|uncertain|without`;
const NEGATION_WORDS = String.raw`not|no|never|cannot|\w+n['’]t`;
const NEGATION = new RegExp(String.raw`\b(?:${NEGATION_WORDS})\b`, "i");
const CUE = new RegExp(String.raw`\b(?:(${MET})|(${UNMET}))\b|(✅|✓|✔)|(❌|✗|✘)`, "gi");
/** The same cues, matched only where a predicate starts (sticky). */
const PREDICATE = new RegExp(CUE.source, "iy");
/** Words that may sit between a factor and what the answer says of it ("Budget has not been allocated"). */
const LINK = new RegExp(
  String.raw`^(?:\s*(?:[:(\-–—]|(?:is|are|was|were|remains?|seems?|appears?|looks?|has|have|had|been|being|both|all|still|also|currently|clearly|the|a|an|only|fully|definitely|very|quite|really|${NEGATION_WORDS})\b))*\s*`,
  "i",
);

type Polarity = "met" | "unmet" | undefined;
const polarityOf = (match: RegExpExecArray): Polarity => (match[1] || match[3] ? "met" : "unmet");
const flip = (polarity: Polarity, negated: boolean): Polarity => (negated ? (polarity === "met" ? "unmet" : "met") : polarity);

/** What the answer says of a group of factors: a predicate right after it, else the nearest cue before it in its clause. */
function bantPolarity(text: string, group: readonly Mention[]): Polarity {
  const last = group[group.length - 1]!;
  const after = text.slice(last.end);
  const link = LINK.exec(after)![0];
  PREDICATE.lastIndex = link.length;
  const predicate = PREDICATE.exec(after);
  if (predicate) return flip(polarityOf(predicate), NEGATION.test(link));
  const before = text.slice(clauseStart(text, group[0]!.start), group[0]!.start);
  const cues = [...before.matchAll(CUE)];
  const nearest = cues[cues.length - 1];
  if (!nearest) return NEGATION.test(before) ? "unmet" : undefined;
  // A negation just before the cue or between it and the factor turns it round ("doesn't have", "has no").
  const wordsBefore = before.slice(0, nearest.index).split(/\s+/).slice(-3).join(" ");
  return flip(polarityOf(nearest), NEGATION.test(`${wordsBefore} ${before.slice(nearest.index + nearest[0].length)}`));
}

/** The factors not said to be met; all of them when every factor named is met. */
function unmetFactors(text: string, mentions: readonly Mention[]): Mention[] {
  const kept = runs(text, mentions, CLAUSE_LIST_GAP).flatMap((group) => (bantPolarity(text, group) === "met" ? [] : group));
  return kept.length > 0 ? kept : [...mentions];
}

/** Cues before a stage that make it the one the answer proposes ("should be", "move it to", "→"). */
const STAGE_FOR = [
  /\b(?:should|must|would|needs?\s+to|ought\s+to)\s+(?:\w+\s+){0,3}?(?:be|move|go|progress|advance|sit|stay|remain)(?:\s+\w+){0,2}?(?:\s+(?:to|in|into|at|as))?$/i,
  /\b(?:correct|right|appropriate|proper|accurate|actual|true|new|better)(?:\s+(?:stage|label|stage\s+name|one))?\s*(?:is|would\s+be|should\s+be|=|:)$/i,
  /\b(?:to|into|as)$|→$|->$|=>$/i,
  /\bbelongs?\s+(?:in|to)$/i,
  /\b(?:indicates?|suggests?|points?\s+to|reflects?|shows?|matches|fits)(?:\s+(?:a|an|the))?$/i,
];
/** Cues that make a stage the one the answer rejects ("rather than", "currently", "from"). */
const STAGE_AGAINST =
  /\b(?:rather\s+than|instead\s+of|not|no\s+longer|isn['’]t|wasn['’]t|currently|presently|originally|previously|formerly|incorrect(?:ly)?|wrong(?:ly)?|mistaken(?:ly)?|outdated|(?:listed|marked|recorded|labell?ed|set)\s+(?:as|at)|from|out\s+of|past)\b/i;
const STAGE_AFTER_FOR = /^\W{0,3}(?:stage\s+)?(?:is|would\s+be|seems|looks)?\s*(?:the\s+)?(?:\w+\s+)?(?:correct|right|appropriate|accurate|proper)\b/i;
const STAGE_AFTER_AGAINST =
  /^\W{0,3}(?:stage\s+)?(?:is|was|seems|looks)\s+(?:\w+\s+)?(?:wrong|incorrect|outdated|inaccurate|mistaken|not\s+(?:correct|right|accurate|appropriate))\b/i;

/** Exactly one stage: the one the answer says is correct (the first of the best-supported). */
function correctStage(text: string, mentions: readonly Mention[]): Mention[] {
  let best: { m: Mention; score: number } | undefined;
  let previousEnd = 0;
  for (const group of runs(text, mentions, CLAUSE_LIST_GAP)) {
    const first = group[0]!;
    const window = text.slice(Math.max(previousEnd, clauseStart(text, first.start)), first.start).replace(/[\s"'`‘’“”*]+$/, "");
    const after = text.slice(group[group.length - 1]!.end);
    const against = STAGE_AGAINST.test(window) || STAGE_AFTER_AGAINST.test(after);
    const cued = STAGE_FOR.some((cue) => cue.test(window)) || STAGE_AFTER_FOR.test(after);
    const score = against ? -1 : cued ? 1 : 0;
    previousEnd = group[group.length - 1]!.end;
    for (const m of group) {
      if (m.rule === "cued" && !cued && !standsAlone(text, m)) continue;
      if (!best || score > best.score) best = { m, score };
    }
  }
  return best ? [best.m] : [];
}
