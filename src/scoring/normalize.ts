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
