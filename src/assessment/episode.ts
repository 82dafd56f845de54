import { runOrgTool, type OrgRequest, type OrgStore } from "../org/index.js";
import { formatReminder, observationMessage, parseAction, taskMessage, type Action, type OutgoingMessage, type TaskBrief } from "../protocol/index.js";
import { PurpleError, type PurpleClient, type PurpleTurn } from "../purple/index.js";
import { idsIn } from "../util/salesforce-id.js";
import { countTokens } from "../util/tokens.js";
import type { EntropyEvents, ObservationRecord, Termination, Trajectory, TrajectoryStep } from "./trajectory.js";

export interface EpisodeOptions {
  readonly maxSteps: number;
  readonly timeoutMs: number;
  /** Ids of the rot layer's deleted records, to log when the episode meets or answers with them. */
  readonly distractorIds?: ReadonlySet<string>;
  /** What drift and rot did to the task's text, logged in the trajectory. */
  readonly textEvents?: Pick<EntropyEvents, "renamedInText" | "passages">;
}


/**
 * Drives one task: the purple agent acts in the org, one action per turn, until it
 * answers, runs out of turns, or fails. Never throws; every ending is a termination
 * reason in the returned trajectory.
 */
export async function runEpisode(brief: TaskBrief, taskIdx: number, org: OrgStore, purple: PurpleClient, options: EpisodeOptions): Promise<Trajectory> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const steps: TrajectoryStep[] = [];
  const first = taskMessage(brief);
  const today = brief.today ?? new Date().toISOString().slice(0, 10);
  // Counting tokens is the green agent's largest per-task cost: count each sent text once.
  const firstMessageTokens = countTokens(first.text);
  const shown: string[] = [first.text];
  let message: OutgoingMessage = first;
  let thread: { contextId?: string; taskId?: string } = {};
  let termination: Termination = "max_steps";
  let error: string | undefined;
  let answer: string | undefined;

  for (let turn = 1; turn <= options.maxSteps; turn++) {
    const sentText = message.text;
    const callStarted = performance.now();
    let reply: PurpleTurn;
    try {
      reply = await purple.send(message, thread, options.timeoutMs);
    } catch (cause) {
      const failure = cause instanceof PurpleError ? cause : new PurpleError("protocol", String(cause));
      termination = failure.kind === "timeout" ? "timeout" : failure.kind === "protocol" || failure.kind === "too_large" ? "protocol_error" : "purple_error";
      error = failure.message;
      break;
    }
    const purpleMs = performance.now() - callStarted;
    const greenStarted = performance.now();
    thread = { contextId: reply.contextId ?? thread.contextId, taskId: reply.openTaskId };
    const action = parseAction(reply.reply);
    const replyText = reply.reply.texts.join("\n");
    const remaining = options.maxSteps - turn;
    let observation: ObservationRecord | undefined;
    if (action.kind === "answer") {
      answer = action.answer;
      termination = "answered";
    } else if (action.kind === "invalid") {
      message = formatReminder(action.reason, turn, remaining);
      observation = { ok: false, code: "INVALID_ACTION", message: action.reason, text: message.text };
    } else {
      const outcome = await runOrgTool(org, toOrgRequest(action), { today });
      message = observationMessage(outcome, turn, remaining);
      observation = outcome.ok
        ? { ok: true, rowCount: outcome.kind === "records" ? outcome.records.length : outcome.objects.length, truncated: outcome.kind === "records" && outcome.truncated, text: message.text }
        : { ok: false, code: outcome.code, message: outcome.message, text: message.text };
      shown.push(message.text);
    }
    steps.push({
      turn,
      sent: { chars: sentText.length, tokens: turn === 1 ? firstMessageTokens : countTokens(sentText) },
      received: { chars: replyText.length, tokens: countTokens(replyText) + countTokens(dataText(reply.reply.data)), bytes: reply.bytes },
      replyText,
      replyData: reply.reply.data,
      action,
      ...(observation ? { observation } : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
      purpleMs,
      greenMs: performance.now() - greenStarted,
    });
    if (termination === "answered") break;
  }
  const purpleMs = steps.reduce((sum, step) => sum + step.purpleMs, 0);
  const totalMs = performance.now() - started;
  const distractors = options.distractorIds;
  const distractorsIn = (text: string) => (distractors && distractors.size > 0 ? idsIn(text).filter((id) => distractors.has(id)) : []);
  const entropy: EntropyEvents = {
    renamedInText: options.textEvents?.renamedInText ?? [],
    passages: options.textEvents?.passages ?? [],
    distractorIdsSeen: distractorsIn(shown.slice(1).join("\n")),
    distractorIdsInAnswer: answer === undefined ? [] : distractorsIn(answer),
  };
  return {
    taskIdx,
    category: brief.category,
    startedAt,
    firstMessageTokens,
    shownText: shown.join("\n"),
    steps,
    entropy,
    termination,
    ...(error !== undefined ? { error } : {}),
    ...(answer !== undefined ? { answer } : {}),
    totalMs,
    purpleMs,
    greenMs: Math.max(0, totalMs - purpleMs),
  };
}

function toOrgRequest(action: Extract<Action, { kind: "tool" }>): OrgRequest {
  switch (action.tool) {
    case "sql_query":
    case "soql_query":
      return { tool: action.tool, query: action.args.query };
    case "sosl_search":
      return { tool: "sosl_search", search: action.args.search };
    case "describe_schema":
      return { tool: "describe_schema", ...(action.args.object ? { object: action.args.object } : {}) };
  }
}

function dataText(data: readonly Record<string, unknown>[]): string {
  return data.length === 0 ? "" : JSON.stringify(data);
}
