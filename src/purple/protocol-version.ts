import { z } from "zod";

/** The A2A protocol versions the green speaks to purples (and serves), on the JSON-RPC binding. */
export const A2A_VERSIONS = ["1.0", "0.3"] as const;
export type A2AVersion = (typeof A2A_VERSIONS)[number];

/** The version a purple is spoken to, and why. */
export interface ProtocolChoice {
  readonly version: A2AVersion;
  /** How the card showed it, for the assessment's first status line and the logs. */
  readonly reason: string;
  /**
   * The version to try when the first answer says the purple does not speak `version`: the other
   * version a card lists too, or 1.0 when the card names no version at all.
   */
  readonly fallback?: A2AVersion;
}

/** A card that names no version the green speaks, with the message that says so (and what to change). */
export interface ProtocolRefusal {
  readonly refusal: string;
}

/** What the version choice reads of a card; anything else in it is ignored, and any of it may be missing. */
const CardInterfacesSchema = z.looseObject({
  supportedInterfaces: z
    .array(z.looseObject({ protocolBinding: z.unknown().optional(), protocolVersion: z.unknown().optional() }))
    .optional()
    .catch(undefined),
  protocolVersion: z.unknown().optional(),
  preferredTransport: z.unknown().optional(),
  additionalInterfaces: z
    .array(z.looseObject({ transport: z.unknown().optional() }))
    .optional()
    .catch(undefined),
});

/** Major and minor of "1.0", "0.3.0", "1"; undefined for anything else. */
function parseVersion(value: unknown): { major: number; minor: number } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(value);
  return match ? { major: Number(match[1]), minor: Number(match[2] ?? 0) } : undefined;
}

/** The wire a declared version means: 1.x is spoken as 1.0, 0.x (0.3's `message/send`, also 0.2's) as 0.3. */
function wireOf(value: unknown): A2AVersion | undefined {
  const parsed = parseVersion(value);
  if (!parsed) return undefined;
  if (parsed.major === 1) return "1.0";
  if (parsed.major === 0 && parsed.minor >= 2) return "0.3";
  return undefined;
}

const isJsonRpc = (binding: unknown) => typeof binding === "string" && binding.trim().toUpperCase() === "JSONRPC";

/** The fix a purple author needs when the card names nothing the green speaks. */
export const CARD_FIX =
  'list a JSON-RPC interface the green speaks in the card: "supportedInterfaces": [{"url": "<your URL>", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}] (what @a2a-js/sdk 1.x and a2a-python 1.x write), or an A2A 0.3 card ("protocolVersion": "0.3.0", "preferredTransport": "JSONRPC")';

/**
 * Which A2A version to speak to a purple, from its card (docs/protocol.md, "Protocol versions"):
 * a JSON-RPC interface of A2A 1.x in `supportedInterfaces` → 1.0 (preferred when the card offers
 * both); else a JSON-RPC interface of 0.x, or a 0.3 card (top-level `protocolVersion` 0.x, JSON-RPC
 * its transport) → 0.3; a card that names no version at all → 0.3, the version A2A assumes when none
 * is named. A card that names only versions or bindings the green does not speak is refused, naming them.
 */
export function chooseProtocol(card: unknown): ProtocolChoice | ProtocolRefusal {
  const parsed = CardInterfacesSchema.safeParse(card);
  const fields: z.infer<typeof CardInterfacesSchema> = parsed.success ? parsed.data : {};
  const interfaces = fields.supportedInterfaces ?? [];
  const jsonRpc = interfaces.filter((entry) => isJsonRpc(entry.protocolBinding));
  const listed = A2A_VERSIONS.filter((wanted) => jsonRpc.some((entry) => wireOf(entry.protocolVersion) === wanted));
  if (listed.length > 0) {
    const [version, fallback] = listed as [A2AVersion, A2AVersion | undefined];
    return { version, reason: `its card lists a JSONRPC interface of A2A ${listed.join(" and ")}`, ...(fallback ? { fallback } : {}) };
  }
  // A JSON-RPC interface without a version is one of A2A 0.3's, as a card without a version is.
  if (jsonRpc.some((entry) => entry.protocolVersion === undefined || entry.protocolVersion === "")) {
    return { version: "0.3", reason: "its card lists a JSONRPC interface without a protocol version (A2A 0.3 assumed, 1.0 tried if 0.3 is refused)", fallback: "1.0" };
  }
  const topLevel = fields.protocolVersion;
  const transports = [fields.preferredTransport, ...(fields.additionalInterfaces ?? []).map((entry) => entry.transport)].filter((transport) => transport !== undefined);
  const offersJsonRpc = transports.length === 0 || transports.some(isJsonRpc);
  if (interfaces.length === 0 && wireOf(topLevel) === "0.3" && offersJsonRpc) {
    return { version: "0.3", reason: `its card is an A2A ${String(topLevel)} card` };
  }
  // A top-level version of 1.x without the interfaces 1.0 cards have: a hand-written card, taken at its word.
  if (interfaces.length === 0 && wireOf(topLevel) === "1.0" && offersJsonRpc) {
    return { version: "1.0", reason: `its card names A2A ${String(topLevel)} (top-level protocolVersion, no supportedInterfaces)`, fallback: "0.3" };
  }
  if (interfaces.length === 0 && topLevel === undefined && offersJsonRpc) {
    return { version: "0.3", reason: "its card names no protocol version (A2A 0.3 assumed, 1.0 tried if 0.3 is refused)", fallback: "1.0" };
  }
  const offered =
    interfaces.length > 0
      ? interfaces.map((entry) => `${shownToken(entry.protocolBinding, "no binding")} ${shownToken(entry.protocolVersion, "(no version)")}`)
      : [`${transports.map((transport) => shownToken(transport, "")).join("/") || "JSONRPC"} ${shownToken(topLevel, "(no version)")}`];
  return {
    refusal: `the purple agent's card offers A2A ${[...new Set(offered)].join(", ")}; this green agent speaks A2A 1.0 and 0.3 over JSONRPC only. Fix on the purple's side: ${CARD_FIX}`,
  };
}

/** The JSON-RPC errors a server answers a method or version it does not speak with. */
const MISMATCH_CODES = new Set([-32009, -32601]);

/** Is this JSON-RPC error code one that says the purple speaks another protocol version? */
export function isVersionMismatchCode(code: unknown): boolean {
  return typeof code === "number" && MISMATCH_CODES.has(code);
}

/**
 * Why an assessment stops when the purple's first answers are version or method errors: the
 * versions involved (each refused version with its error) and the fix on the purple's side.
 */
export function mismatchExplanation(refusals: ReadonlyMap<A2AVersion, string>): string {
  if (refusals.size > 1) {
    const refused = [...refusals].map(([version, error]) => `A2A ${version} (${error})`).join(" and ");
    return `the purple agent refused ${refused} on its first answers: it answers neither version's JSON-RPC methods at the participant URL. Fix on the purple's side: answer SendMessage (A2A 1.0) or message/send (A2A 0.3) at the participant URL, and ${CARD_FIX}`;
  }
  const [[version, error]] = [...refusals] as [[A2AVersion, string]];
  if (version === "1.0") {
    return `the purple agent answered the first SendMessage (A2A-Version: 1.0) with ${error}: its card lists a JSONRPC interface of A2A 1.0, but the server does not answer A2A 1.0. Fix on the purple's side: serve A2A 1.0 at the participant URL (@a2a-js/sdk 1.x jsonRpcHandler, a2a-python 1.x), or list only the versions it speaks in the card (an A2A 0.3 server: "protocolVersion": "0.3.0", no 1.0 entry in supportedInterfaces)`;
  }
  return `the purple agent answered the first message/send (A2A 0.3: no A2A-Version header) with ${error}: its card does not list A2A 1.0, so the green spoke A2A 0.3, which the server does not answer. Fix on the purple's side: make the card list what the server speaks, "supportedInterfaces": [{"url": "<your URL>", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}] (@a2a-js/sdk 1.x serves an AgentCard with supportedInterfaces as it is; an A2A 0.3 card kept from before an upgrade says 0.3), or enable the server's A2A 0.3 compatibility (@a2a-js/sdk 1.x: legacyCompat: {enabled: true} on jsonRpcHandler and agentCardHandler, and duplicateInterfacesForLegacy in the card; a2a-python 1.x: enable_v0_3_compat=True)`;
}

/**
 * A value of the card a refusal repeats: a short token (a binding, a version) as it is, anything
 * else only as being something else. A participant URL may name any address: the green repeats
 * no free text of what it answered (src/purple/echo.ts).
 */
function shownToken(value: unknown, missing: string): string {
  if (value === undefined || value === null) return missing;
  return typeof value === "string" && /^[\w.+-]{1,24}$/.test(value) ? value : "(an unrecognised value)";
}
