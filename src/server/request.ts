import type { Message } from "@a2a-js/sdk";
import { z } from "zod";
import {
  type AssessmentConfig,
  type AssessmentData,
  type ChosenTasks,
  checkEpisodeCount,
  chooseTasks,
  parseConfig,
  purpleIdentityOf,
  type RunSpec,
  runSpecFor,
  unknownKeysMessage,
} from "../assessment/index.js";
import { JsonBoundsError, parseBoundedJson } from "../util/index.js";
import { REQUEST_JSON_BOUNDS, REQUEST_LIMITS } from "./limits.js";

/** A request that cannot start an assessment; the message says which field and why. */
export class RequestRejection extends Error {
  override readonly name = "RequestRejection";
}

const REQUEST_SHAPE = '{"participants": {"agent": "<purple agent URL>"}, "config": {...}}';

const EvalRequestSchema = z.object({
  participants: z.record(z.string(), z.unknown(), { error: () => `participants must be an object mapping the role "agent" to the purple agent's URL` }),
  config: z.unknown().optional(),
});

/** A validated assessment request: its tasks are chosen here, once, and the runner is given them. */
export interface AssessmentRequest {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: string[];
  readonly chosen: ChosenTasks;
  /** The data the config chose (config.dataset, config.org_type), loaded. */
  readonly data: AssessmentData;
}

/** The run spec of a validated request, once the purple's card (part of the run's id) is known. */
export function requestRunSpec(request: AssessmentRequest, card: Readonly<Record<string, unknown>>): RunSpec {
  return runSpecFor({
    participantUrl: request.participantUrl,
    config: request.config,
    ignoredConfigKeys: request.ignoredConfigKeys,
    purpleIdentity: purpleIdentityOf(card),
    tasksSource: request.data.sources.tasks.path,
  });
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
export async function validateRequest(document: unknown, dataFor: DataForConfig, doneWith: DoneWithData = () => {}): Promise<AssessmentRequest> {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new RequestRejection(`the request must be a JSON object: ${REQUEST_SHAPE}`);
  }
  if (!("participants" in document)) throw new RequestRejection(`participants is missing; send ${REQUEST_SHAPE}`);
  const parsed = EvalRequestSchema.safeParse(document);
  if (!parsed.success) throw new RequestRejection(parsed.error.issues[0]!.message);
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
  let config: AssessmentConfig;
  let ignoredConfigKeys: string[];
  let chosen: ChosenTasks;
  let data: AssessmentData | undefined;
  try {
    ({ config, ignoredKeys: ignoredConfigKeys } = parseConfig(parsed.data.config));
    // A typo (`task_limt`) would run the whole task set without the key it meant: refused, as on the command line.
    if (ignoredConfigKeys.length > 0 && !config.allow_unknown_config)
      throw new RequestRejection(
        `${unknownKeysMessage(ignoredConfigKeys)}; fix the config, or set config.allow_unknown_config to true to run with them ignored (they are listed in the results)`,
      );
    data = await dataFor(config);
    chosen = await chooseTasks(data, config);
    if (chosen.selection.tasks.length === 0) throw new RequestRejection("the config selects no tasks for this shard");
    checkEpisodeCount(config, chosen.selection.tasks.length);
  } catch (error) {
    if (data) doneWith(data);
    throw error instanceof RequestRejection ? error : new RequestRejection((error as Error).message);
  }
  return { participantUrl: agent, config, ignoredConfigKeys, chosen, data };
}
