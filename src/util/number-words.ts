/**
 * The English number words, in one table: the generators write them, the readers (the solver,
 * the analyst, the twins' window reader, the answer normaliser) read them, so that what one writes
 * the others read.
 */

/** The words of the numbers below twenty, by value. */
export const SMALL_NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
] as const;

/** The words of the tens, by value / 10 (none below twenty). */
export const TENS_WORDS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"] as const;

const VALUES: ReadonlyMap<string, number> = new Map([
  ...SMALL_NUMBER_WORDS.map((word, value) => [word, value] as const),
  ...TENS_WORDS.flatMap((word, tens) => (word ? [[word, tens * 10] as const] : [])),
]);

/** The value of one number word ("seven" 7, "forty" 40), lower case; undefined for any other word. */
export function numberWordValue(word: string): number | undefined {
  return VALUES.get(word);
}

/**
 * How many a window's count word says: a number word, or "a"/"an" (one: "in the past a week" is
 * not English, but "a week ago" is), case-insensitive; undefined for any other word.
 */
export function countWordValue(word: string): number | undefined {
  const lower = word.toLowerCase();
  return lower === "a" || lower === "an" ? 1 : numberWordValue(lower);
}

/** Every number word as a regular expression's alternation, longest first (so "fourteen" is not read as "four"). */
export const NUMBER_WORDS_PATTERN = [...SMALL_NUMBER_WORDS, ...TENS_WORDS.filter((word) => word !== "")].sort((a, b) => b.length - a.length).join("|");
