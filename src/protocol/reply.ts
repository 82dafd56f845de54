/** What the purple agent sent in one turn, reduced to its parts. */
export interface PurpleReply {
  readonly texts: readonly string[];
  readonly data: readonly Record<string, unknown>[];
}

/** The text of a reply, parts joined by newlines as the predecessor's messenger did. */
export function replyText(reply: PurpleReply): string {
  return reply.texts.join("\n");
}

/**
 * Every text a person reading a reply is shown: its text parts (joined, as `replyText`) and each
 * data part's keys and values, one `key: value` line per leaf. The parsed action is one of these;
 * a value hidden in a part beside it is shown all the same.
 */
export function shownTexts(replyText: string, data: readonly Record<string, unknown>[]): string[] {
  const texts = replyText.trim() === "" ? [] : [replyText];
  for (const part of data) {
    const lines: string[] = [];
    leaves(part, "", lines, 0);
    if (lines.length > 0) texts.push(lines.join("\n"));
  }
  return texts;
}

/** Nesting read at most, and lines kept per data part: a purple's data is bounded by the reply's size cap anyway. */
const MAX_DEPTH = 20;
const MAX_LINES = 10_000;

function leaves(value: unknown, key: string, lines: string[], depth: number): void {
  if (lines.length >= MAX_LINES || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) leaves(item, key, lines, depth + 1);
  } else if (typeof value === "object" && value !== null) {
    for (const [name, inner] of Object.entries(value)) leaves(inner, name, lines, depth + 1);
  } else if (value !== undefined) {
    lines.push(key === "" ? String(value) : `${key}: ${String(value)}`);
  }
}
