/** Helpers for printing untrusted text (purple answers, observations) in a terminal. */

/**
 * Makes control characters visible: an answer may hold ANSI escapes or bidirectional overrides
 * that would rewrite the terminal. Newlines and tabs are kept.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** At most `maxLines` lines and `maxChars` characters, with a note of what was cut. */
export function clip(text: string, maxChars: number, maxLines: number, hint: string): string {
  const lines = text.split("\n");
  let kept = lines.slice(0, maxLines).join("\n");
  if (kept.length > maxChars) kept = kept.slice(0, maxChars);
  const cut = text.length - kept.length;
  return cut > 0 ? `${kept}… (+${cut} chars${hint})` : text;
}

/** Each line of a block prefixed with a gutter, so that a multi-line text reads as one value. */
export function indent(text: string, gutter = "  │ "): string {
  return text
    .split("\n")
    .map((line) => `${gutter}${line}`)
    .join("\n");
}

/** A number with a fixed number of decimals, or "n/a". */
export function fixed(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? "n/a" : value.toFixed(digits);
}

/** A 0..1 rate as a percentage. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "n/a" : `${(rate * 100).toFixed(1)}%`;
}

/** A signed difference with a unit. */
export function signed(delta: number | null, digits = 1, unit = ""): string {
  if (delta === null) return "n/a";
  const rounded = Number(delta.toFixed(digits));
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "±";
  return `${sign}${Math.abs(rounded).toFixed(digits)}${unit}`;
}
