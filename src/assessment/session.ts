import { chooseProtocol, describeError, type ProtocolChoice, type PurpleCard, type PurpleClientFactory } from "../purple/index.js";
import type { Calibration, Judge } from "../scoring/index.js";
import { modeNamed, type UserChoice, type UserSimulator, userSimulatorFor } from "../users/index.js";
import { EntropicError, type ErrorCode } from "../util/index.js";
import { assess } from "./assess.js";
import type { AssessmentData } from "./assessment-data.js";
import { type AssessmentConfig, checkEpisodeCount, parseConfig, unknownKeysMessage } from "./config.js";
import { outcomeOf, type SessionOutcome } from "./outcome.js";
import { type AssessmentEvent, CANCELED, spendLimits } from "./run.js";
import { purpleIdentityOf } from "./run-id.js";
import { type RunSpec, runSpecFor } from "./run-spec.js";
import { type ChosenTasks, chooseTasks } from "./select.js";
import type { ToolChannel } from "./side-calls.js";

/**
 * One assessment, the one use case both doors call: the A2A server (src/server/executor.ts) and
 * the command line (src/cli/assess.ts). A door turns what it received into a `SessionRequest`,
 * hands over its dependencies as `SessionDeps`, checks it (`checkRequest`: the config, the data,
 * the tasks, without the network), admits it (`admitSession`: the purple's card and version, the
 * run spec), runs it (`runSession`), then reports the `SessionOutcome` in its own terms. Nothing here reads the environment.
 */

/** The most a request may ask of `max_model_calls` and `max_model_chars`, each when set. */
export interface SpendCeiling {
  readonly calls?: number | undefined;
  readonly chars?: number | undefined;
}

/** What a door received, checked as far as its own format goes. */
export interface SessionRequest {
  /**
   * Which door: a request from the network (`a2a`) is held to the per-request bounds (a selection
   * of at least one task, at most CONFIG_LIMITS.episodes episodes); the operator's command line is not.
   */
  readonly door: "a2a" | "cli";
  /** The purple's A2A URL, as the request names it (part of the run id). */
  readonly participantUrl: string;
  /** Where the purple is reached: the participant URL, or the gateway's proxy for it. */
  readonly endpoint?: string | undefined;
  /** The config as received: parsed here, unknown keys refused unless it allows them. */
  readonly config: unknown;
}

/** Everything a session needs from outside, given by the door: nothing is read from the environment below it. */
export interface SessionDeps {
  /** The data a config chooses (a server's DatasetShelf, or the command line's files); throws naming the field. */
  readonly dataFor: (config: AssessmentConfig) => Promise<AssessmentData>;
  /** Hands back data `dataFor` gave when the session is done with it (or was refused after it was loaded). */
  readonly doneWith?: ((data: AssessmentData) => void | Promise<void>) | undefined;
  /** A fresh judge per assessment, so that each result reports its own model usage. */
  readonly createJudge: () => Judge;
  /** The calibration a run on a dataset is scored against. */
  readonly calibration: (dataset: string) => Calibration;
  /** The operator's secret in the Id remap's key; none: the map follows from the seed alone. */
  readonly idSecret: string | undefined;
  /** Interactive mode's simulated user for a config (with its model, when it has one); the offline choice when absent. */
  readonly createUser?: ((choice: UserChoice) => UserSimulator) | undefined;
  /** The client the purple is spoken to through (its retry window is the factory's). */
  readonly createPurple: PurpleClientFactory;
  /** Reads the purple's card (the door's timeout). */
  readonly fetchCard: (endpoint: string) => Promise<PurpleCard>;
  /** Where episodes also take tool calls over MCP (the server's endpoint); none: in-message tools only. */
  readonly toolChannel?: ToolChannel | undefined;
  /** The operator's ceiling on a request's model spend caps (`serve`: ENTROPIC_MAX_MODEL_CALLS, ENTROPIC_MAX_MODEL_CHARS); none: the config's range. */
  readonly spendCeiling?: SpendCeiling | undefined;
  /** The green's clock, for the log's timestamps. */
  readonly clock?: (() => Date) | undefined;
  /** Progress, and what was done with a damaged journal (`journal_notice`). */
  readonly onEvent?: ((event: SessionEvent) => void) | undefined;
}

export type SessionEvent = AssessmentEvent | { readonly kind: "journal_notice"; readonly text: string };

/** Why a session was not started: a code for the door's table, the field in the shared vocabulary. */
export class SessionRejection extends EntropicError {
  override readonly name = "SessionRejection";
  /** The error the step threw, when the rejection wraps one (the command line shows it as it was). */
  source?: unknown;
}

/** A request checked without the network: its config, the data it chose (loaded), its tasks (chosen once, here). */
export interface CheckedRequest {
  readonly request: SessionRequest;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: readonly string[];
  readonly data: AssessmentData;
  readonly chosen: ChosenTasks;
}

/** A request that may run: checked, with the purple's card, the version to speak, and the run spec. */
export interface Admission extends CheckedRequest {
  readonly spec: RunSpec;
  readonly endpoint: string;
  readonly card: PurpleCard;
  readonly protocol: ProtocolChoice;
}

/** The fields a rejection of the purple names: its card (`participant`) or the versions the card names (`participant.protocol`). */
export const PARTICIPANT_FIELD = "participant";
export const PROTOCOL_FIELD = "participant.protocol";

/**
 * Checks everything a request holds that can be checked without the network: the config (unknown
 * keys refused unless allowed, before any data is loaded), the data it chooses, its tasks (chosen
 * here, once, with the data check) and, for a request from the network, its bounds. Throws a
 * SessionRejection that names the field; data loaded for a refused request is handed back.
 */
export async function checkRequest(request: SessionRequest, deps: Pick<SessionDeps, "dataFor" | "doneWith" | "spendCeiling">): Promise<CheckedRequest> {
  const parsed = rejectAs("config", () => parseConfig(request.config));
  const { ignoredKeys } = parsed;
  // A typo in a key would run the whole assessment without it: refused before any work unless asked for.
  if (ignoredKeys.length > 0 && !parsed.config.allow_unknown_config)
    throw new SessionRejection("invalid_request", unknownKeysMessage(ignoredKeys), { field: "config.allow_unknown_config" });
  const config = request.door === "a2a" && deps.spendCeiling ? withinSpendCeiling(parsed.config, deps.spendCeiling) : parsed.config;
  const data = await rejectAsync("data", () => deps.dataFor(config));
  try {
    const chosen = await rejectAsync("config", () => chooseTasks(data, config));
    if (request.door === "a2a") {
      if (chosen.selection.tasks.length === 0) throw new SessionRejection("config", "the config selects no tasks for this shard", { field: "config.num_shards" });
      rejectAs("config", () => checkEpisodeCount(config, chosen.selection.tasks.length));
    }
    return { request, config, ignoredConfigKeys: ignoredKeys, data, chosen };
  } catch (error) {
    await deps.doneWith?.(data);
    throw error;
  }
}

/**
 * A request's model spend within the operator's ceiling: a cap asked above it is refused, naming
 * the key and the ceiling; a cap not asked for is the default, lowered to the ceiling when the
 * ceiling is below it (the caps are not part of the run's id, so the run is the same).
 */
function withinSpendCeiling(config: AssessmentConfig, ceiling: SpendCeiling): AssessmentConfig {
  const limits = spendLimits(config);
  const keys = [
    ["max_model_calls", config.max_model_calls, limits.calls, ceiling.calls, "ENTROPIC_MAX_MODEL_CALLS"],
    ["max_model_chars", config.max_model_chars, limits.chars, ceiling.chars, "ENTROPIC_MAX_MODEL_CHARS"],
  ] as const;
  let within = config;
  for (const [key, asked, effective, most, variable] of keys) {
    if (most === undefined || effective <= most) continue;
    if (asked !== undefined)
      throw new SessionRejection("config", `${key} ${asked} is above this green agent's ceiling of ${most} (its operator's ${variable}); ask for at most ${most}`, {
        field: `config.${key}`,
      });
    within = { ...within, [key]: most };
  }
  return within;
}

/**
 * Admits a checked request: reads the purple's card, chooses the A2A version to speak (a card
 * naming only versions the green does not speak is refused before any work) and names the run.
 * Throws a SessionRejection naming the participant; the data is handed back then.
 */
export async function admitSession(checked: CheckedRequest, deps: Pick<SessionDeps, "fetchCard" | "doneWith">): Promise<Admission> {
  const { request, config, ignoredConfigKeys, data } = checked;
  const endpoint = request.endpoint ?? request.participantUrl;
  try {
    const card = await rejectAsync("purple", () => deps.fetchCard(endpoint), PARTICIPANT_FIELD);
    const protocol = chooseProtocol(card);
    if ("refusal" in protocol) throw new SessionRejection("purple", protocol.refusal, { field: PROTOCOL_FIELD });
    const spec = runSpecFor({
      participantUrl: request.participantUrl,
      config,
      ignoredConfigKeys: [...ignoredConfigKeys],
      purpleIdentity: purpleIdentityOf(card),
      tasksSource: data.sources.tasks.path,
    });
    return { ...checked, spec, endpoint, card, protocol };
  } catch (error) {
    await deps.doneWith?.(data);
    throw error;
  }
}

/**
 * What a session runs: an admission, or what a caller that made its own data and spec holds
 * (calibrate, check-purple). Without a card the purple client reads it before its first turn.
 */
export interface SessionPlan {
  readonly spec: RunSpec;
  readonly data: AssessmentData;
  readonly chosen: ChosenTasks;
  /** Where the purple is reached; the spec's participant URL when absent. */
  readonly endpoint?: string | undefined;
  readonly card?: PurpleCard | undefined;
}

/** What running a session needs of its dependencies (loading data and reading the card are admission's). */
export type RunDeps = Omit<SessionDeps, "dataFor" | "doneWith" | "fetchCard">;

/** How a door stops a session and where its journal goes. */
export interface SessionControls {
  /** Stops at once: no new episodes, purple calls in flight aborted (CANCELED: the run ends canceled). */
  readonly signal?: AbortSignal | undefined;
  /** Stops gently: no new episodes; those in flight finish. */
  readonly drain?: AbortSignal | undefined;
  /** Where the run's journal goes; none when unset. */
  readonly logDir?: string | undefined;
  /** Continue the run's journal if there is one. */
  readonly resume?: boolean | undefined;
  /** Start over even if the run's journal exists. */
  readonly force?: boolean | undefined;
}

/** The abort reason of a session whose purple is gone (its retry window expired): no new episodes; resumable. */
export const PURPLE_GONE = "purple gone";

/**
 * The reason an incompatible purple stops a session with: its episodes in flight end as canceled,
 * so nothing is journalled and the same request runs every episode once the purple is fixed.
 */
export const INCOMPATIBLE = CANCELED;

/**
 * Runs an admitted request and says how it ended. A purple whose first answers say it speaks
 * another version stops the session at once (its episodes in flight are not recorded); a purple
 * gone for its retry window stops new episodes. Failures other than the journal's are thrown.
 */
export async function runSession(plan: SessionPlan, deps: RunDeps, controls: SessionControls = {}): Promise<SessionOutcome> {
  const { spec, data, chosen, card } = plan;
  const { config } = spec;
  const stop = new AbortController();
  const drain = new AbortController();
  let incompatible: string | undefined;
  let gone: string | undefined;
  const purple = deps.createPurple(plan.endpoint ?? spec.participantUrl, {
    ...(card ? { card } : {}),
    onIncompatible: (message) => {
      incompatible = message;
      drain.abort(INCOMPATIBLE);
      stop.abort(INCOMPATIBLE);
    },
    onGone: (message) => {
      gone = message;
      drain.abort(PURPLE_GONE);
    },
  });
  // Before anything is opened or written: a user that cannot be had (no model key) fails the session at once.
  const user = modeNamed(config.mode)?.user?.(config, deps.createUser ?? offlineUser);
  const onEvent = deps.onEvent;
  const assessed = await assess(data, purple, {
    spec,
    chosen,
    signal: either(controls.signal, stop.signal),
    drain: either(controls.drain, drain.signal),
    judge: deps.createJudge(),
    calibration: deps.calibration(data.dataset),
    idSecret: deps.idSecret,
    ...(user ? { user } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.toolChannel ? { toolChannel: deps.toolChannel } : {}),
    ...(onEvent ? { onEvent, onJournalNotice: (text: string) => onEvent({ kind: "journal_notice", text }) } : {}),
    ...(controls.logDir ? { logDir: controls.logDir } : {}),
    ...(controls.resume ? { resume: true } : {}),
    ...(controls.force ? { force: true } : {}),
  });
  // No spread of `assessed`: its results are built when first read, and a canceled run's never are.
  return outcomeOf({
    get results() {
      return assessed.results;
    },
    log: assessed.log,
    logFile: assessed.logFile,
    journalFailure: assessed.journalFailure,
    journalRemedy: assessed.journalRemedy,
    incompatible,
    gone,
  });
}

/** Interactive mode's user without a model provider: the config's choice, offline (`auto` is the scripted user). */
const offlineUser = (choice: UserChoice) => userSimulatorFor(choice, {});

/** A signal that aborts with the first of its sources to abort, and that source's reason. */
function either(given: AbortSignal | undefined, own: AbortSignal): AbortSignal {
  return given ? AbortSignal.any([given, own]) : own;
}

/** Runs `step`; what it throws becomes a rejection of `code` with the same message (a rejection stays as it is). */
function rejectAs<T>(code: ErrorCode, step: () => T, field?: string): T {
  try {
    return step();
  } catch (error) {
    throw asRejection(code, error, field);
  }
}

async function rejectAsync<T>(code: ErrorCode, step: () => Promise<T>, field?: string): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asRejection(code, error, field);
  }
}

function asRejection(code: ErrorCode, error: unknown, field?: string): SessionRejection {
  if (error instanceof SessionRejection) return error;
  // A card that cannot be read says why in the purple client's words (JSON-RPC codes, causes).
  const message = code === "purple" ? describeError(error) : error instanceof Error ? error.message : String(error);
  const rejection = new SessionRejection(code, message, { field });
  rejection.source = error;
  return rejection;
}
