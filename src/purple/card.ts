import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { z } from "zod";
import { parseOrThrow } from "../util/index.js";
import { describeError, PurpleError } from "./errors.js";
import { createCardFetch } from "./fetch.js";

/** The base URL for card discovery: keep any path (gateway participants look like http://host:port/agent). */
export function withTrailingSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

let cardFetch: typeof fetch | undefined;

/** A purple agent's card as read: any JSON object with a name and a version; the rest is read where it is used. */
export type PurpleCard = { readonly name: string; readonly version: string } & Record<string, unknown>;

/**
 * Fetches a purple agent's card, trying the A2A path, then the legacy one. The request announces
 * A2A 1.0 (the SDK's card resolver does), so a purple that serves both versions answers with its
 * 1.0 card; a 0.3 purple ignores the header.
 */
export async function fetchAgentCard(url: string, timeoutMs = 10_000): Promise<PurpleCard> {
  cardFetch ??= createCardFetch(1_000_000);
  const fetchImpl = cardFetch;
  const base = withTrailingSlash(url);
  const failures: string[] = [];
  for (const path of [".well-known/agent-card.json", ".well-known/agent.json"]) {
    const resolver = new DefaultAgentCardResolver({ fetchImpl: withTimeout(fetchImpl, timeoutMs) });
    let card: unknown;
    try {
      card = await resolver.resolve(base, path);
    } catch (error) {
      failures.push(`${new URL(path, base).href}: ${describeError(error)}`);
      continue;
    }
    // Any JSON is not a card: the name and version identify the purple (and its runs).
    const checked = parseOrThrow(
      CardIdentitySchema,
      card,
      (_, issue) => new PurpleError("protocol", `the agent card at ${new URL(path, base).href} is not an A2A agent card: '${issue.path}' ${issue.message}`),
    );
    return checked as PurpleCard;
  }
  throw new PurpleError("unreachable", `cannot read the agent card of ${url} (${failures.join("; ")})`);
}

/** What the green needs of a purple's card. */
const CardIdentitySchema = z.looseObject({
  name: z.string({ error: "must be a non-empty string" }).min(1, { error: "must be a non-empty string" }),
  version: z.string({ error: "must be a non-empty string" }).min(1, { error: "must be a non-empty string" }),
});

function withTimeout(fetchImpl: typeof fetch, timeoutMs: number): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => fetchImpl(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as typeof fetch;
}
