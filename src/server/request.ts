import type { Message } from "@a2a-js/sdk";
import { z } from "zod";
import { type AssessmentConfig, type AssessmentData, checkDataMatch, parseConfig, type Selection, selectTasks } from "../assessment/index.js";

/** A request that cannot start an assessment; the message says which field and why. */
export class RequestRejection extends Error {
  override readonly name = "RequestRejection";
}

const REQUEST_SHAPE = '{"participants": {"agent": "<purple agent URL>"}, "config": {...}}';

const EvalRequestSchema = z.object({
  participants: z.record(z.string(), z.unknown(), { error: () => `participants must be an object mapping the role "agent" to the purple agent's URL` }),
  config: z.unknown().optional(),
});

/** A validated assessment request. */
export interface AssessmentRequest {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: string[];
  readonly selection: Selection;
}

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
    return JSON.parse(text);
  } catch (error) {
    throw new RequestRejection(`the request text is not valid JSON (${(error as Error).message}); send ${REQUEST_SHAPE}`);
  }
}

/** Validates everything that can be checked without the network. */
export async function validateRequest(document: unknown, data: Pick<AssessmentData, "tasks" | "org">): Promise<AssessmentRequest> {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new RequestRejection(`the request must be a JSON object: ${REQUEST_SHAPE}`);
  }
  if (!("participants" in document)) throw new RequestRejection(`participants is missing; send ${REQUEST_SHAPE}`);
  const parsed = EvalRequestSchema.safeParse(document);
  if (!parsed.success) throw new RequestRejection(parsed.error.issues[0]!.message);
  const roles = Object.keys(parsed.data.participants);
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
  let config: AssessmentConfig;
  let ignoredConfigKeys: string[];
  let selection: Selection;
  try {
    ({ config, ignoredKeys: ignoredConfigKeys } = parseConfig(parsed.data.config));
    selection = selectTasks(data.tasks, config);
    await checkDataMatch(selection.tasks, data.org, config.allow_data_mismatch);
  } catch (error) {
    throw error instanceof RequestRejection ? error : new RequestRejection((error as Error).message);
  }
  if (selection.tasks.length === 0) throw new RequestRejection("the config selects no tasks for this shard");
  return { participantUrl: agent, config, ignoredConfigKeys, selection };
}
