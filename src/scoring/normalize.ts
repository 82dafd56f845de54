import { parsePythonList, SMALL_NUMBER_WORDS, TENS_WORDS } from "../util/index.js";

/**
 * CRMArena-Pro's `normalize_answer` and token F1 (crm_sandbox/agents/utils.py), matching
 * CPython 3 on any text, not only ASCII. Three places where JavaScript's defaults differ from
 * Python's are spelled out here:
 *
 * - Whitespace. Python's `str.split()` and `str.strip()` split on the characters for which
 *   `str.isspace()` is true. JavaScript's `\s` differs: it includes U+FEFF and leaves out
 *   U+001C..U+001F and U+0085.
 * - Word boundaries. Python's `re` is Unicode-aware for str patterns: a word character is one
 *   for which `str.isalnum()` is true, or `_`. So in `\b(a|an|the)\b` the `a` of "éa" is not a
 *   word of its own. JavaScript's `\b` knows only ASCII letters and digits; the boundaries are
 *   written here as look-arounds over Unicode letters and numbers (`\p{L}`, `\p{N}`), which
 *   are exactly the characters `isalnum()` accepts.
 * - Lower-casing. `String.prototype.toLowerCase()` applies the same full Unicode mappings as
 *   Python's `str.lower()` (İ becomes i + U+0307, a final Σ becomes ς), so it is used as is.
 *
 * The character tables of Python 3.11 (Unicode 14) and Node 20 (a newer Unicode) agree on every
 * character assigned in Unicode 14; they differ only on characters assigned later, which also
 * differ between Python versions.
 */

/** Exactly the characters for which Python's `str.isspace()` is true. */
const PYTHON_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE}]+`, "u");

/** Python's `re` word character for str patterns: `str.isalnum()` or `_`. */
const WORD = "[\\p{L}\\p{N}_]";
/** `re.sub(r'\b(a|an|the)\b', ' ', text)` with Python's Unicode word boundaries. */
const ARTICLE = new RegExp(`(?<!${WORD})(?:a|an|the)(?!${WORD})`, "gu");

/** `string.punctuation` plus the four quote marks CRMArena-Pro adds. */
const PUNCTUATION = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "\u2018", "\u2019", "\u00b4", "`"]);

/** Python's `text.split()`: split on runs of Python whitespace, dropping empty strings. */
export function pythonSplit(text: string): string[] {
  return text.split(WHITESPACE_RUN).filter((token) => token.length > 0);
}

/** CRMArena-Pro's `normalize_answer`, step by step and in its order. */
export function normalizeAnswer(text: string): string {
  let s = text.replaceAll("_", " ");
  s = s.toLowerCase();
  // Code points, as Python iterates a str (a surrogate pair is one character).
  s = Array.from(s, (ch) => (PUNCTUATION.has(ch) ? " " : ch)).join("");
  s = s.replace(ARTICLE, " ");
  return pythonSplit(s).join(" ");
}

/** Token F1 between a prediction and a ground truth, exactly as CRMArena-Pro computes it. */
export function tokenF1(prediction: string, groundTruth: string): number {
  const predicted = pythonSplit(normalizeAnswer(prediction));
  const expected = pythonSplit(normalizeAnswer(groundTruth));
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/*
 * Beyond CRMArena-Pro: spellings folded for the benchmark's own verdict (`success`, success.ts).
 * Nothing above this line uses what follows; `tokenF1` stays the original's.
 */

/** Lower case without accents or compatibility forms ("Lucía" and "LUCIA" fold alike). */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The folded runs of letters and digits of a text: punctuation, spaces and symbols separate them. */
export function foldedWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

// Plain objects (not maps), as the normaliser has always looked words up in them.
const SMALL_NUMBERS: Record<string, number> = Object.fromEntries(SMALL_NUMBER_WORDS.map((word, value) => [word, value]));
/** The tens, and "fourty", a misspelling common enough in answers to be read as forty. */
const TENS: Record<string, number> = Object.fromEntries([...TENS_WORDS.flatMap((word, tens) => (word ? [[word, tens * 10] as const] : [])), ["fourty", 40] as const]);
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const isNumberWord = (word: string | undefined) => word !== undefined && (word in SMALL_NUMBERS || word in TENS || word === "hundred" || word in SCALES);

/**
 * Number words as digits, in folded words: "twenty five thousand" is "25000", "forty two" is "42".
 * Digit words in a row that do not make one number stay separate ("four one five" is "4", "1",
 * "5"), so that a phone number read out digit by digit still concatenates to its digits; "point"
 * between number words makes a decimal ("twelve point five" is "12.5"). Linear in the words.
 */
export function spellNumbers(words: readonly string[]): string[] {
  return spelledNumbers(words).map((word) => word.text);
}

/** A word of `spellNumbers`' output, and whether number words made it. */
export interface SpelledWord {
  readonly text: string;
  readonly spelled: boolean;
}

/** `spellNumbers`, saying which words came from number words. */
export function spelledNumbers(words: readonly string[]): SpelledWord[] {
  const out: SpelledWord[] = [];
  let i = 0;
  while (i < words.length) {
    if (!isNumberWord(words[i])) {
      out.push({ text: words[i]!, spelled: false });
      i++;
      continue;
    }
    let total = 0;
    let current = 0;
    /** What the last word of the number was, which decides what may follow it. */
    let last: "start" | "unit" | "teen" | "tens" | "hundred" | "scale" = "start";
    let j = i;
    for (; j < words.length; j++) {
      const word = words[j]!;
      const small = SMALL_NUMBERS[word];
      if (small !== undefined && small < 10 && (last === "start" || last === "tens" || last === "hundred" || last === "scale")) {
        current += small;
        last = "unit";
      } else if (small !== undefined && small >= 10 && (last === "start" || last === "hundred" || last === "scale")) {
        current += small;
        last = "teen";
      } else if (TENS[word] !== undefined && (last === "start" || last === "hundred" || last === "scale")) {
        current += TENS[word]!;
        last = "tens";
      } else if (word === "hundred" && (last === "start" || last === "unit" || last === "teen") && current % 100 < 100) {
        current = (current === 0 ? 1 : current) * 100;
        last = "hundred";
      } else if (SCALES[word] !== undefined && last !== "scale") {
        total += (current === 0 ? 1 : current) * SCALES[word]!;
        current = 0;
        last = "scale";
      } else if (word === "and" && (last === "hundred" || last === "scale") && isNumberWord(words[j + 1])) {
        // "one hundred and twenty": part of the number
      } else break;
    }
    let number = String(total + current);
    // "twelve point five": the digits after "point", each a unit word.
    if (words[j] === "point" && SMALL_NUMBERS[words[j + 1] ?? ""] !== undefined && SMALL_NUMBERS[words[j + 1]!]! < 10) {
      let decimals = "";
      j++;
      while (j < words.length && SMALL_NUMBERS[words[j]!] !== undefined && SMALL_NUMBERS[words[j]!]! < 10) decimals += String(SMALL_NUMBERS[words[j++]!]);
      number += `.${decimals}`;
    }
    out.push({ text: number, spelled: true });
    i = j;
  }
  return out;
}

/*
 * The fuzzy rule: is an answer a correct paraphrase of a free-text ground truth? Token F1 (above)
 * punishes a correct answer for its length and rewards a hedge that names two candidates; this
 * rule compares content words instead, with a precision floor, and refuses hedges.
 */

/** Function words: they carry no content of an answer. */
const STOPWORDS = new Set(
  (
    "a an the and or nor but if then so than that this these those there here it its it's itself they them their theirs we us our ours you your yours i me my mine he him his she her hers " +
    "is are was were be been being am do does did done doing have has had having can could would should will shall may might must " +
    "of in on at by for with without to from into onto over under about as like such via per within across through between among " +
    "which what who whom whose when where why how also very more most much many some any each every all both either neither not no only just " +
    "because since while whereas although though however therefore thus hence well rather quite really e g i e etc answer reply"
  ).split(" "),
);

/** A light suffix stripper: "breaches" and "breach", "amplifies" and "amplify", "automating" and "automate" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith("ly")) return w.slice(0, -2);
  else return w;
  // "cutting" and "planned" lose the doubled consonant, as "cut" and "plan" never had it.
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ss|ll|ff|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/**
 * Two stems name the same content when they are equal, or when both have at least 5 letters and
 * share a prefix no shorter than the shorter stem less one letter, the longer one adding at most
 * a suffix of three letters ("encrypt" / "encryption", "efficient" / "efficiency", "secure" /
 * "security"). That keeps "integrity" from "integration" and a name ("CircuitWave") from a word
 * inside it ("circuit").
 */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 5) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= 5 && common >= shorter - 1 && Math.max(a.length, b.length) - common <= 3;
}

/** The distinct stems of a text's content words (number words as digits, function words dropped). */
export function contentStems(text: string): string[] {
  return [
    ...new Set(
      spellNumbers(foldedWords(text))
        .filter((word) => !STOPWORDS.has(word))
        .map(stem),
    ),
  ];
}

const hasStem = (stems: readonly string[], word: string) => stems.some((other) => sameStem(word, other));

/** Word-level recall needed of the truth's key words. */
export const PARAPHRASE_RECALL = 0.75;
/** Share of the answer's own content words that must come from the truth: free text (a reason, an explanation) may add more than a label may. */
export const PARAPHRASE_PRECISION = { text: 0.4, labels: 0.5 } as const;
/** An answer with more content words than this many times the truth's is not compared word by word (it fails the precision floor anyway). */
const MAX_CONTENT_RATIO = 50;

export interface FuzzyContext {
  /** The task's texts: words an answer takes from the question are neither credit nor extra content. */
  readonly taskText: string;
  /** The answers are labels (competitor names, subtopics: sales_insight_mining), not free text. */
  readonly labels: boolean;
}

export interface ParaphraseVerdict {
  readonly equivalent: boolean;
  /** Share of the truth's key words the answer has. */
  readonly recall: number;
  /** Share of the answer's own content words that the truth has. */
  readonly precision: number;
  /** What makes the answer wrong whatever its words (a hedge, a missing figure or label), when something does; then it is never equivalent. */
  readonly defect: string | null;
}

/**
 * The deterministic paraphrase rule (docs/scoring.md, "The benchmark's verdict"): the answer must
 * hold at least PARAPHRASE_RECALL of the truth's key words (its content words that the question
 * does not already say; all of them when the question says them all), and at least the precision
 * floor of the answer's own content words (those not taken from the question, numbers aside) must
 * come from the truth; and it must have no defect (`fuzzyDefect`: a hedge, a missing figure or label).
 */
export function paraphraseVerdict(answer: string, truth: string, context: FuzzyContext): ParaphraseVerdict {
  const truthStems = contentStems(truth);
  if (truthStems.length === 0) {
    // A truth of function words only ("No", "Yes"): the answer must open with it.
    const expected = foldedWords(truth);
    const opening = foldedWords(answer).slice(0, expected.length);
    const equivalent = expected.length > 0 && expected.every((word, i) => opening[i] === word);
    return { equivalent, recall: equivalent ? 1 : 0, precision: equivalent ? 1 : 0, defect: null };
  }
  const taskStems = contentStems(context.taskText);
  const keys = truthStems.filter((word) => !hasStem(taskStems, word));
  const key = keys.length > 0 ? keys : truthStems;
  const answerStems = contentStems(answer);
  if (key.length === 0 || answerStems.length > MAX_CONTENT_RATIO * Math.max(1, truthStems.length)) return { equivalent: false, recall: 0, precision: 0, defect: null };
  const recall = key.filter((word) => hasStem(answerStems, word)).length / key.length;
  const own = answerStems.filter((word) => hasStem(truthStems, word) || (!hasStem(taskStems, word) && !/^\d+(?:\.\d+)?$/.test(word)));
  const precision = own.length === 0 ? 0 : own.filter((word) => hasStem(truthStems, word)).length / own.length;
  const defect = fuzzyDefect(answer, truth, context);
  const floor = context.labels ? PARAPHRASE_PRECISION.labels : PARAPHRASE_PRECISION.text;
  return { equivalent: defect === null && recall >= PARAPHRASE_RECALL && precision >= floor, recall, precision, defect };
}

const isNumber = (word: string) => /^\d+(?:\.\d+)?$/.test(word);

/**
 * What makes a free-text answer wrong however many of the truth's words it shares, which token F1
 * cannot see: a hedge (`hedgeIn`); a figure of the truth the answer does not give ("Five years"
 * for "Three years", unless the question gives it); a label of a list truth it leaves out (for
 * labels, a label is there when half its content words are). Returns why, or null.
 */
export function fuzzyDefect(answer: string, truth: string, context: FuzzyContext): string | null {
  const hedge = hedgeIn(answer, truth, context);
  if (hedge) return `is a hedge: it ${hedge}`;
  const said = contentStems(answer);
  const asked = contentStems(context.taskText);
  const figures = contentStems(truth).filter((word) => isNumber(word) && !asked.includes(word) && !said.includes(word));
  if (figures.length > 0) return `does not give the truth's ${figures.length === 1 ? "figure" : "figures"} ${figures.join(", ")}`;
  if (context.labels && truth.includes(",")) {
    const labels = [...new Set(truth.split(",").map((label) => label.trim()))].filter((label) => label.length > 0);
    const missing = labels.filter((label) => {
      const stems = contentStems(label);
      return stems.filter((word) => hasStem(said, word)).length * 2 < stems.length;
    });
    if (missing.length > 0) return `leaves out the ${missing.length === 1 ? "label" : "labels"} ${missing.join(", ")}`;
  }
  return null;
}

/**
 * Words of courtesy and of an agent telling how it worked ("Thank you for your patience", "I went
 * through the relevant records", "I hope this helps, let me know if you need anything else").
 * A sentence of these words and function words only carries no content: no candidate, no claim.
 */
const CHATTER = new Set(
  (
    "thank thanks thankyou patience patient waiting wait question questions asking ask asked reaching reach out help helps helped helpful hope hoping glad happy pleased " +
    "please let know need needs anything else further more additional assist assistance support sure certainly course absolutely great " +
    "look looked looking went go going checked check checking searched search searching reviewed review reviewing dug dig into found find finding " +
    "carefully thoroughly quickly closely double result results information info data records record relevant org system crm database knowledge base articles " +
    "call calls transcripts conversations notes emails messages history " +
    "against other others compared comparing confirm confirmed verify verified make sure here below following summary "
  ).split(" "),
);
const isChatter = (text: string) => {
  const words = foldedWords(text);
  return words.length > 0 && words.every((word) => STOPWORDS.has(word) || CHATTER.has(word));
};
/** An introducer before a colon ("Here is what I found: "), a courtesy that closes a sentence ("... I hope this helps, and ..."). */
const INTRODUCER = /^[^:\n]{0,120}:\s*/;
const CLOSING = /\s*\b(?:I\s+hope|please|let\s+me\s+know|feel\s+free|if\s+you\s+(?:have|need))\b/i;

/**
 * The answer without the courtesy around it: every sentence made only of courtesy and function
 * words (`CHATTER`: "Thank you for your patience.", "I checked the relevant records."), an
 * introducer of such words before a colon ("Here is what I found: "), and a closing run of them
 * ("... I hope this helps, and please let me know ..."). Only words that carry no content are
 * dropped, so no candidate, figure or claim can hide in what is set aside; an answer that is all
 * courtesy is returned as it is. Linear in the answer.
 */
export function withoutCourtesy(answer: string): string {
  let kept = "";
  let lineBreak = false;
  // The separators are kept (a capture group): a line break between two kept sentences stays one,
  // since a line break separates the items of a list and the answer from its justification.
  for (const [i, piece] of answer.split(/((?<=[.!?])\s+|\n+)/).entries()) {
    if (i % 2 === 1) {
      lineBreak ||= piece.includes("\n");
      continue;
    }
    let text = piece.trim();
    const introduced = INTRODUCER.exec(text);
    if (introduced && isChatter(introduced[0])) text = text.slice(introduced[0].length);
    const closing = CLOSING.exec(text);
    if (closing && closing.index > 0 && isChatter(text.slice(closing.index))) text = text.slice(0, closing.index).trim();
    if (text.length === 0 || isChatter(text)) continue;
    kept += kept.length === 0 ? text : `${lineBreak ? "\n" : " "}${text}`;
    lineBreak = false;
  }
  return kept.length > 0 ? kept : answer;
}

/**
 * Words that offer an alternative: "either X or Y", "X/Y", "X, possibly Y", and the conditional
 * ones: "X; if not, Y", "X, failing that Y", "X, else Y", "X, second choice Y".
 */
const ALTERNATION =
  /\beither\b|\bor\b|\band\/or\b|(?<=[\p{L}\p{N}])\s*\/\s*(?=[\p{L}\p{N}])|\b(?:possibly|perhaps|maybe|alternatively|otherwise|else|failing\s+that|if\s+not|if\s+(?:that|this|it)(?:['’]s|\s+is)\s+(?:not|wrong|incorrect)|(?:might|could|may)\s+(?:also\s+|well\s+)?be|second\s+(?:choice|guess|option|best)|next\s+best|as\s+a\s+(?:fallback|backup))\b/giu;
const PRONOUN_OPENING = /^\s*(?:i|we|my|our|it|its|this|these|those|they|their)\b/i;
/** A numbered item's mark inside a line ("1. X 2. Y", "1) X 2) Y"): each item is a candidate. */
const NUMBERED_ITEM = /(?:^|\s)\(?\d{1,2}[.)]\s+(?=\S)/gu;
/** Words that open an explanation, not a candidate, after a comma: "X, cited in 9 calls", "X, which ...". */
const EXPLAINS =
  /^\s*(?:i|we|my|our|here|there|because|since|as|which|who|whose|that|with|in|on|from|based|due|given|according|per|by|while|where|when|after|before|it|its|this|these|those|they|their|mentioned|cited|referenced|noted|seen|raised|appearing|appears|showing|having|being|accounting|representing|reflecting|driven|followed|ahead|mostly|most|especially|particularly|notably|including|such|e\.?g|i\.?e|for\s+example|for\s+instance|thanks|making|leading|resulting|helping|allowing|ensuring|so|and\s+(?:it|this|that))\b/i;

/**
 * Separators of a written list: ";", "|", "&", a line break, "vs", a comma before a capital
 * ("X, Y Corp", not "X, so that ..."); for labels also " and " before a capital ("Competing
 * offers and Product features"), since labels hold a lower-case "and" themselves.
 */
const LIST_SEPARATOR = /[;\n|&]|,(?=\s*(?:and\s+)?[\s\-*•]*[\p{Lu}\p{N}])|\bvs\.?|\bversus\b/gu;
const LABEL_SEPARATOR = new RegExp(`${LIST_SEPARATOR.source}|\\band\\s+(?=\\p{Lu})|(?<=[.!?])\\s+`, "gu");
/** The pieces a list hedge is looked for in: the list's separators, every comma, and (for free text) every sentence end. */
const LIST_PIECES = new RegExp(`${LIST_SEPARATOR.source}|,|(?<=[.!?])\\s+`, "gu");
const LABEL_PIECES = new RegExp(`${LABEL_SEPARATOR.source}|,`, "gu");

/**
 * A hedge: the answer names the right candidate next to a competing one, so that one of them is
 * bound to match. Two forms:
 *
 * - Alternatives ("either X or Y", "X or Y", "X/Y", "X, possibly Y"): the answer, cut at those
 *   words, has a piece that matches the truth and another one, a rival: of a candidate's size (no
 *   more content words than the truth's key words plus two) and mostly foreign to the truth.
 * - A list ("X; Y", "X, Y Corp", for labels also "X and Y Corp") when the truth is one item: a
 *   piece matches the truth and another is a rival written as a candidate is, starting with a
 *   capital that is not a word of the question (a piece in lower case explains: "FlexEDA
 *   Innovations, cited in 9 calls"; "By automating compliance, so that ...").
 *
 * Words the question already holds and bare numbers are no candidate. Returns why, or null.
 */
export function hedgeIn(answer: string, truth: string, context: FuzzyContext): string | null {
  const truthStems = contentStems(truth);
  const taskStems = contentStems(context.taskText);
  const keyCount = Math.max(1, truthStems.filter((word) => !hasStem(taskStems, word)).length);
  /** Each piece's content words, the question's aside; in a list, bare numbers too ("X, in 9 calls": a count is evidence, not a candidate). */
  const piecesOf = (separator: RegExp, numbers: boolean) =>
    answer.split(separator).map((text) => ({ text, stems: contentStems(text).filter((word) => !hasStem(taskStems, word) && (numbers || !/^\d+(?:\.\d+)?$/.test(word))) }));
  const matches = (stems: readonly string[]) => stems.some((word) => hasStem(truthStems, word));
  /** Mostly foreign to the truth, and no longer than `most` content words. */
  const rival = (stems: readonly string[], most: number) =>
    stems.length > 0 && stems.length <= most && stems.filter((word) => !hasStem(truthStems, word)).length * 2 > stems.length;
  const hedged = (pieces: { text: string; stems: string[] }[], most: number, candidate: (text: string) => boolean) =>
    pieces.some((piece, i) => matches(piece.stems) && pieces.some((other, j) => j !== i && rival(other.stems, most) && candidate(other.text)));
  // Numbers offered as alternatives ("24 or 48 hours", "3/4", "2 to 3 years"), one of them the truth's.
  const truthNumbers = contentStems(truth).filter(isNumber);
  if (truthNumbers.length > 0) {
    const words = spellNumbers(foldedWords(answer.replace(/(?<=\d)\s*[/–-]\s*(?=\d)/g, " or ")));
    for (let i = 0; i + 2 < words.length; i++) {
      const [left, joint, right] = [words[i]!, words[i + 1]!, words[i + 2]!];
      if (isNumber(left) && isNumber(right) && (joint === "or" || joint === "to") && truthNumbers.includes(left) !== truthNumbers.includes(right))
        return "offers alternative figures to choose from";
    }
  }
  // A truth that says "or" itself ("unusual patterns or anomalies") makes "or" no sign of a hedge.
  const truthAlternates = new RegExp(ALTERNATION.source, "iu").test(truth);
  if (!truthAlternates && hedged(piecesOf(ALTERNATION, true), 3 * keyCount + 3, () => true)) return "offers alternatives to choose from";
  // A list literal (JSON or Python) or numbered items: every item is a candidate, in any case.
  const items = listItems(answer);
  if (
    items &&
    hedged(
      items.map((text) => ({ text, stems: contentStems(text).filter((word) => !hasStem(taskStems, word)) })),
      3 * keyCount + 3,
      () => true,
    )
  )
    return "lists candidates to choose from";
  if ((answer.match(NUMBERED_ITEM)?.length ?? 0) >= 2 && hedged(piecesOf(NUMBERED_ITEM, false), 3 * keyCount + 3, () => true)) return "lists numbered candidates to choose from";
  // Free text may go on with the question's subject ("..., TechPulse lightens the load"): that explains, it names no rival;
  // a piece that opens with an article after ";" or a line break is a noun phrase, a candidate ("...; a customer asking for a manager").
  /** Clauses after a comma inside a sentence (not a sentence of their own). */
  const afterComma = new Set(answer.split(/(?<=[.!?])\s+/).flatMap((sentence) => sentence.split(",").slice(1)));
  /** Sentences after the first: one of four content words or more explains, it is no candidate. */
  const laterSentences = new Set(answer.split(/(?<=[.!?])\s+/).slice(1));
  const written = (text: string) => {
    if (laterSentences.has(text) && contentStems(text).length >= 4) return false;
    if (!context.labels && /^\s*(?:a|an|the)\s/i.test(text)) return true;
    // A sentence or clause that opens as an explanation ("It came up in 14 calls", "which ...") names no candidate; after a
    // comma in free text a pronoun opens a second answer run on ("X, they cut costs"), not an explanation.
    if (EXPLAINS.test(text) && (context.labels || !afterComma.has(text) || !PRONOUN_OPENING.test(text))) return false;
    const first = /^[\s\-*•]*(?:\d+[.)]\s+)?(?:and\s+)?(\p{Lu}[\p{L}\p{N}]*|\p{N}+)/u.exec(text)?.[1];
    if (first !== undefined) return context.labels || !hasStem(taskStems, stem(foldText(first)));
    // A rival in lower case: any other piece (for labels, one with no figure: "in 9 calls" is evidence).
    return !context.labels || !/\p{N}/u.test(text);
  };
  // Lower-case pieces are split at every comma and sentence end (the separators above want a capital after a comma).
  // Lower-case pieces are split at every comma and sentence end too (the list separators want a capital after a comma).
  if (hedged(piecesOf(context.labels ? LABEL_PIECES : LIST_PIECES, false), 3 * keyCount + 3, written))
    return context.labels ? "lists other labels next to the right one" : "lists other answers next to the right one";
  return null;
}

/** The items of an answer written as a list literal (`["X", "Y"]`, `['X', 'Y']`), or undefined when it is none. */
function listItems(answer: string): string[] | undefined {
  const text = answer.trim();
  if (!text.startsWith("[") || !text.endsWith("]")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed.map((item) => String(item));
  } catch {
    // Not JSON: perhaps Python's form.
  }
  try {
    return parsePythonList(text).map((item) => item ?? "None");
  } catch {
    return undefined;
  }
}
