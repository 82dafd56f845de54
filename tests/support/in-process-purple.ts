import { randomUUID } from "node:crypto";
import { type Strategy, StrategyResponder, type UsageMetadata } from "../../src/baselines/index.js";
import type { PurpleClient } from "../../src/purple/index.js";

/**
 * A reference purple's strategy as a `PurpleClient` in the test's own process: the same
 * `StrategyResponder` the served purples answer with (one conversation per context, one action
 * per reply), without HTTP between them. For tests of what a run measures (fairness, bite,
 * arithmetic), where the A2A transport is not the subject: the transport has tests of its own
 * (a2a-interop, purple-faults, purple-reply, server), and each file that runs purples this way
 * keeps at least one run over HTTP.
 */
export function inProcessPurple(strategy: Strategy, url = "http://in-process.purple.test/", reportedUsage?: UsageMetadata): PurpleClient {
  const responder = new StrategyResponder(strategy);
  // What the green reads from a served purple's `usage` metadata (src/purple/reply.ts, usageFrom).
  const usage = reportedUsage ? { inputTokens: reportedUsage.input_tokens, outputTokens: reportedUsage.output_tokens } : undefined;
  return {
    url,
    async send(message, thread) {
      // As the A2A SDKs do: a context is opened on the first turn and kept in the replies.
      const contextId = thread.contextId ?? randomUUID();
      const text = await responder.reply(contextId, message.data);
      return { reply: { texts: [text], data: [] }, contextId, openTaskId: undefined, usage, bytes: Buffer.byteLength(text) };
    },
  };
}
