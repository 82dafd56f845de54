export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SUFFIX_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

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

