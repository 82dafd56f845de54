const MARKER = /… \(\+(\d+) chars\)$/;

/**
 * The first `keep` characters of a text and a note of how many were cut. Texts cut this way keep
 * their true length readable (`fullLength`), so cutting a cut text again reports the same total.
 */
export function elide(text: string, keep: number): string {
  const total = fullLength(text);
  if (total <= keep) return text;
  return `${text.slice(0, keep)}… (+${total - keep} chars)`;
}

/** The length of the text before any `elide`. */
export function fullLength(text: string): number {
  const marker = MARKER.exec(text);
  if (!marker) return text.length;
  return marker.index + Number(marker[1]);
}
