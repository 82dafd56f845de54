/**
 * The bounds of an A2A request to the green, each checked before the work it bounds (docs/protocol.md,
 * "Limits"); the config's own (list lengths, keys, episodes) are CONFIG_LIMITS in assessment/config.ts.
 * A request past one is refused with a message naming the field and the limit.
 */
export const REQUEST_LIMITS = {
  /** Bytes of an HTTP request body (a request names its tasks by index: a few kilobytes). */
  bodyBytes: 1_000_000,
  /** Arrays and objects nested in a body, or in a request document sent as a text part. */
  jsonDepth: 32,
  /** Array elements and object members in a body, or in a request document sent as a text part. */
  jsonItems: 20_000,
  /** Parts of a message. */
  parts: 16,
  /** Entries of a metadata object (of the params, the message or a part). */
  metadataEntries: 32,
  /** Roles in `participants` (the green reads one, `agent`). */
  participants: 8,
} as const;

export const REQUEST_JSON_BOUNDS = { maxDepth: REQUEST_LIMITS.jsonDepth, maxItems: REQUEST_LIMITS.jsonItems } as const;
