/** A whole value that is a 15- or 18-character Salesforce Id. */
export const SALESFORCE_ID = /^[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?$/;

const ID_IN_TEXT = /\b(?=[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{18}\b/g;

/** Every token of a text that has the shape of a 15- or 18-character Id (letters and digits, both), for `matchAll`. */
export const SALESFORCE_ID_TOKENS = /\b(?=[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?\b/g;

/** The distinct 18-character Ids a text names (an answer, an observation). */
export function idsIn(text: string): string[] {
  return [...new Set(text.match(ID_IN_TEXT) ?? [])];
}

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The characters of the case-safe suffix: the value of 5 bits, one per letter of a chunk of 5 (set: upper case). */
export const SUFFIX_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

/** Salesforce's 3-character case-safe suffix that turns a 15-character Id into 18 characters. */
export function caseSafeSuffix(id15: string): string {
  let suffix = "";
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let i = 0; i < 5; i++) {
      const ch = id15[chunk * 5 + i]!;
      if (ch >= "A" && ch <= "Z") bits |= 1 << i;
    }
    suffix += SUFFIX_CHARS[bits];
  }
  return suffix;
}
