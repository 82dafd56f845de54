import type { Message } from "@a2a-js/sdk";
import { z } from "zod";
import {
  type AssessmentConfig,
  type AssessmentData,
  type CheckedRequest,
  checkRequest,
  PARTICIPANT_FIELD,
  PROTOCOL_FIELD,
  SessionRejection,
  type SpendCeiling,
} from "../assessment/index.js";
import { EntropicError, type ErrorDetails, firstIssue, JsonBoundsError, parseBoundedJson } from "../util/index.js";
import { REQUEST_JSON_BOUNDS, REQUEST_LIMITS } from "./limits.js";

/** A request that cannot start an assessment; the message says which field and why. */
export class RequestRejection extends EntropicError {
  override readonly name = "RequestRejection";
  constructor(message: string, details?: ErrorDetails) {
    super("invalid_request", message, details);
  }
}

const REQUEST_SHAPE = '{"participants": {"agent": "<purple agent URL>"}, "config": {...}}';

const EvalRequestSchema = z.object({
  participants: z.record(z.string(), z.unknown(), { error: () => `participants must be an object mapping the role "agent" to the purple agent's URL` }),
  config: z.unknown().optional(),
});

/** A validated assessment request: its tasks are chosen here, once, and the runner is given them. */
export interface AssessmentRequest extends CheckedRequest {
  readonly participantUrl: string;
}

/** Gives the data a request's config chooses; throws, naming the config field, when it cannot. */
export type DataForConfig = (config: AssessmentConfig) => Promise<AssessmentData>;
/** Hands back data `DataForConfig` gave, once the request that asked for it is done with it (so a shelf may close it). */
export type DoneWithData = (data: AssessmentData) => void;

/** Reads the request document from the first data part with `participants`, else the text parts (A2A 0.3 requests arrive translated by the SDK). */
export function requestDocument(message: Message): unknown {
  for (const { content } of message.parts) {
    if (content?.$case === "data" && typeof content.value === "object" && content.value !== null && "participants" in content.value) return content.value;
  }
  const text = message.parts
    .flatMap(({ content }) => (content?.$case === "text" ? [content.value] : []))
    .join("\n")
    .trim();
  if (!text) throw new RequestRejection(`the request has no text or data part; send ${REQUEST_SHAPE}`);
  try {
    // Measured before it is parsed, as a body is (REQUEST_LIMITS): the text part is a body of its own.
    return parseBoundedJson(text, REQUEST_JSON_BOUNDS, "the request text");
  } catch (error) {
    if (error instanceof JsonBoundsError) throw new RequestRejection(`${error.message} (docs/protocol.md, "Limits")`);
    throw new RequestRejection(`the request text is not valid JSON (${(error as Error).message}); send ${REQUEST_SHAPE}`);
  }
}

/** Validates everything that can be checked without the network, and loads the data the config chooses if it is not yet. */
export async function validateRequest(document: unknown, dataFor: DataForConfig, doneWith: DoneWithData = () => {}, spendCeiling?: SpendCeiling): Promise<AssessmentRequest> {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new RequestRejection(`the request must be a JSON object: ${REQUEST_SHAPE}`);
  }
  if (!("participants" in document)) throw new RequestRejection(`participants is missing; send ${REQUEST_SHAPE}`);
  const parsed = EvalRequestSchema.safeParse(document);
  if (!parsed.success) throw new RequestRejection(firstIssue(parsed.error).message);
  const roles = Object.keys(parsed.data.participants);
  if (roles.length > REQUEST_LIMITS.participants)
    throw new RequestRejection(`participants holds ${roles.length} roles; at most ${REQUEST_LIMITS.participants} are accepted (the green reads one, "agent")`);
  const agent = parsed.data.participants.agent;
  if (agent === undefined) {
    throw new RequestRejection(`participants.agent is missing: the purple agent's A2A URL is required (got roles: ${roles.join(", ") || "none"})`);
  }
  if (typeof agent !== "string") throw new RequestRejection(`participants.agent must be a URL string (got ${JSON.stringify(agent)})`);
  let url: URL;
  try {
    url = new URL(agent);
  } catch {
    throw new RequestRejection(`participants.agent is not a valid URL (got ${JSON.stringify(agent)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RequestRejection(`participants.agent must be an http:// or https:// URL (got ${JSON.stringify(agent)})`);
  }
  const checked = await checkRequest({ door: "a2a", participantUrl: agent, config: parsed.data.config }, { dataFor, doneWith, spendCeiling }).catch((error: unknown) => {
    throw rejectionOf(error);
  });
  return { ...checked, participantUrl: agent };
}

/**
 * The project's errors (util/errors.ts) as a request's rejection, in the request's terms: the
 * session's fields as the request document names them (`participants.agent`, `config.*`), the
 * hint for unknown keys the config key that allows them; the command line maps the same errors to
 * its exit codes (cli/exit-codes.ts).
 */
export function rejectionOf(error: unknown, endpoint?: { readonly participantUrl: string; readonly endpoint: string }): RequestRejection {
  if (error instanceof RequestRejection) return error;
  if (!(error instanceof SessionRejection)) return new RequestRejection((error as Error).message);
  if (error.field === "config.allow_unknown_config")
    return new RequestRejection(`${error.message}; fix the config, or set config.allow_unknown_config to true to run with them ignored (they are listed in the results)`);
  if (error.field === PROTOCOL_FIELD) return new RequestRejection(`participants.agent: ${error.message}`);
  if (error.field === PARTICIPANT_FIELD) {
    const proxied = endpoint && endpoint.endpoint !== endpoint.participantUrl ? ` (reached through the proxy as ${endpoint.endpoint})` : "";
    return new RequestRejection(`participants.agent: ${error.message}${proxied}`);
  }
  return new RequestRejection(error.message);
}
