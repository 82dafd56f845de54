import type { Trajectory } from "../log/index.js";
import type { Action } from "../protocol/index.js";
import { findTool } from "../tools/index.js";
import { elide } from "../util/index.js";

const CUT = 300;

function cut(text: string): string {
  return elide(text, CUT);
}

/** An action in one line: a tool call as its own tool shows it. */
export function describeAction(action: Action): string {
  switch (action.kind) {
    case "answer":
      return `respond: ${action.answer}`;
    case "invalid":
      return `invalid: ${action.reason}`;
    case "tool": {
      const spec = findTool(action.tool);
      if (!spec || spec.final) throw new Error(`a trajectory step calls ${action.tool}, which is no registered tool of the org`);
      return spec.show(action.args);
    }
  }
}

/** A trajectory small enough to keep in a leaderboard results file (texts cut to a few hundred characters). */
export function compactTrajectory(trajectory: Trajectory) {
  return {
    termination: trajectory.termination,
    ...(trajectory.a2aVersion ? { a2a_version: trajectory.a2aVersion } : {}),
    steps: trajectory.steps.map((step) => ({
      turn: step.turn,
      action: cut(describeAction(step.action)),
      ...(step.channel ? { channel: step.channel } : {}),
      ...(step.observation
        ? {
            ok: step.observation.ok,
            observation: cut(step.observation.text),
            ...(step.observation.rowCount !== undefined ? { rows: step.observation.rowCount } : {}),
          }
        : {}),
      purple_ms: Math.round(step.purpleMs),
      green_ms: Math.round(step.greenMs * 10) / 10,
      sent_tokens: step.sent.tokens,
      received_tokens: step.received.tokens,
      ...(step.usage ? { reported_usage: { input_tokens: step.usage.inputTokens, output_tokens: step.usage.outputTokens } } : {}),
    })),
  };
}
