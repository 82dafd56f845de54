/** What the purple agent sent in one turn, reduced to its parts. */
export interface PurpleReply {
  readonly texts: readonly string[];
  readonly data: readonly Record<string, unknown>[];
}

/** The text of a reply, parts joined by newlines as the predecessor's messenger did. */
export function replyText(reply: PurpleReply): string {
  return reply.texts.join("\n");
}
