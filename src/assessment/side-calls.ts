import type { IdStatus, ObservationRecord, TrajectoryStep } from "../log/index.js";
import type { OrgRequest, ToolOutcome } from "../org/index.js";
import { callOf, type McpAccess, type OutgoingMessage, observationMessage } from "../protocol/index.js";
import { findTool, type ToolSpec } from "../tools/index.js";
import { idsIn, measureTokens } from "../util/index.js";

/**
 * A second way in for an episode's tool calls, beside the actions in its A2A replies: the green's
 * MCP endpoint (src/mcp/). The episode opens a door when it starts, shows the purple where it is
 * in the first message, and closes it when it ends; every call through the door is run by the
 * episode itself (`ChannelEpisode`), so it sees the same view and is recorded as a step.
 */
export interface ToolChannel {
  open(episode: ChannelEpisode): ChannelDoor;
}

/** One episode's door: where the purple reaches it, and its closing (calls after it are refused). */
export interface ChannelDoor {
  readonly access: McpAccess;
  close(): void;
}

/** What a channel may do with an open episode. */
export interface ChannelEpisode {
  /** The task id the purple was shown, for the channel's own log lines. */
  readonly label: string;
  /** The org tools the episode offers (the answer tool is no call of the channel: the answer stays an A2A reply). */
  readonly tools: readonly ToolSpec[];
  /** One call as the purple made it: run and recorded as a step of the episode, or refused. `bytes`: the request's body. */
  call(name: string, args: unknown, bytes: number): Promise<ChannelAnswer>;
}

/** The outcome of a call: an observation (the message an in-message call is answered with), or a refusal that ran nothing. */
export type ChannelAnswer = { readonly kind: "observation"; readonly ok: boolean; readonly message: OutgoingMessage } | { readonly kind: "refused"; readonly reason: string };

/** Calls of one episode allowed in flight at once: a framework's parallel tool calls fit, a flood waits for none. */
export const SIDE_CALLS_IN_FLIGHT = 4;

/**
 * How long a refused call waits before its answer: a client that calls again at once after each
 * refusal (a loop without a pause) makes a few calls a second, not thousands, which the green's
 * event loop would spend its time answering.
 */
export const REFUSAL_PAUSE_MS = 250;

/** What the episode loop lends its side calls. */
export interface SideCallHost {
  /** The episode's world (episode.ts's EpisodeWorld). */
  readonly world: { runTool(request: OrgRequest, today: string): Promise<ToolOutcome>; idStatus(id: string): IdStatus };
  readonly today: string;
  readonly offered: readonly ToolSpec[];
  readonly maxSteps: number;
  /** What the steps hold of a long text (the episode's TextLease). */
  readonly texts: { keep(text: string): string };
  readonly distractorsSeen: Set<string>;
  readonly label: string;
  /** Steps of the current budget used so far (the episode's, or since the user last spoke in interactive mode). */
  used(): number;
  /** The `turn` the next step will have: its place in the trajectory. */
  nextTurn(): number;
  /** Appends a step; its `turn` is its place in the trajectory. */
  push(step: Omit<TrajectoryStep, "turn">): number;
}

/**
 * The calls an episode takes over its side channel (docs/protocol.md, section 18). Each served call
 * is one step, counted against `max_steps` as an in-message tool call is, and recorded in the
 * trajectory in the order the calls finish (`channel: "mcp"`). A call is served only while two
 * steps remain, its own and the A2A reply its turn must still end with, so that a purple that spends
 * its budget over MCP can still answer; beyond it a call is refused, runs nothing, and the refusal
 * is named in the warnings of the episode's next step.
 */
export class SideCalls implements ChannelEpisode {
  private pending = 0;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The first refusals since the last step, and how many there were (a flood of them holds three). */
  private refusals: string[] = [];
  private refusedCount = 0;
  private closed = false;
  private busySince: number | undefined;
  private busyMs = 0;
  readonly tools: readonly ToolSpec[];
  readonly label: string;

  constructor(private readonly host: SideCallHost) {
    this.tools = host.offered.filter((spec) => !spec.final);
    this.label = host.label;
  }

  call(name: string, args: unknown, bytes: number): Promise<ChannelAnswer> {
    const refusal = this.refusal();
    if (refusal) {
      if (!this.closed && this.refusedCount++ < 3) this.refusals.push(`an MCP call of ${String(name).slice(0, 100)} was refused: ${refusal}`);
      return new Promise((resolve) => setTimeout(() => resolve({ kind: "refused", reason: refusal }), REFUSAL_PAUSE_MS).unref());
    }
    this.pending++;
    if (this.pending === 1) this.busySince = performance.now();
    const running = this.run(name, args, bytes).finally(() => {
      this.inFlight.delete(running);
      this.pending--;
      if (this.pending === 0 && this.busySince !== undefined) {
        this.busyMs += performance.now() - this.busySince;
        this.busySince = undefined;
      }
    });
    this.inFlight.add(running);
    return running;
  }

  private refusal(): string | undefined {
    if (this.closed) return "the episode has ended";
    if (this.pending >= SIDE_CALLS_IN_FLIGHT) return `${SIDE_CALLS_IN_FLIGHT} calls of this episode are in flight already; wait for one to finish`;
    const left = this.host.maxSteps - this.host.used() - this.pending;
    if (left < 2) return `the episode's step budget is spent (max_steps ${this.host.maxSteps}; the last step is kept for your A2A reply): give the final answer in your reply`;
    return undefined;
  }

  private async run(name: string, args: unknown, bytes: number): Promise<ChannelAnswer> {
    const started = performance.now();
    const action = callOf(name, args ?? {}, "mcp", this.tools);
    const outcome =
      action.kind === "tool"
        ? await this.host.world.runTool({ tool: action.tool, ...action.args }, this.host.today)
        : ({ ok: false, code: "INVALID_ACTION", message: action.kind === "invalid" ? action.reason : "not a tool call" } as const);
    // Numbered when it ends, so that the steps' turns and budgets follow the trajectory's order.
    const turn = this.host.nextTurn();
    const remaining = this.host.maxSteps - (this.host.used() + 1);
    const message = observationMessage(outcome, turn, remaining);
    const observation = observationRecordOf(outcome, message.text);
    for (const id of idsIn(message.text)) if (this.host.world.idStatus(id) === "distractor") this.host.distractorsSeen.add(id);
    const callText = JSON.stringify({ name, arguments: args ?? {} });
    const sent = measureTokens(message.text);
    const received = measureTokens(callText);
    const keep = this.host.texts.keep;
    this.host.push({
      channel: "mcp",
      sent: { chars: message.text.length, tokens: sent.tokens, ...(sent.estimated ? { estimated: true } : {}) },
      received: { chars: callText.length, tokens: received.tokens, ...(received.estimated ? { estimated: true } : {}), bytes },
      replyText: keep(callText),
      replyData: [],
      action: action.kind === "tool" ? { ...action, args: trimArgs(action, keep) } : action.kind === "invalid" ? { ...action, reason: keep(action.reason) } : action,
      observation: { ...observation, text: keep(observation.text) },
      purpleMs: 0,
      greenMs: performance.now() - started,
    });
    return { kind: "observation", ok: observation.ok, message };
  }

  /** Waits for the calls in flight (each bounded by the query limits), so their steps come before the step that follows. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** No call is served from now on. */
  close(): void {
    this.closed = true;
  }

  /** The refusals since the last step, as warnings for the next one. */
  takeWarnings(): string[] {
    const taken = this.refusals;
    const more = this.refusedCount - taken.length;
    this.refusals = [];
    this.refusedCount = 0;
    return more > 0 ? [...taken, `and ${more} more MCP calls were refused`] : taken;
  }

  /** Time the green spent on side calls since the last time asked: inside the purple's turn, but not the purple's. */
  takeBusyMs(): number {
    const now = performance.now();
    const busy = this.busyMs + (this.busySince !== undefined ? now - this.busySince : 0);
    this.busyMs = 0;
    if (this.busySince !== undefined) this.busySince = now;
    return busy;
  }
}

/** A tool call's arguments with their long texts held as the episode holds them (the tool's own trim). */
function trimArgs(action: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }, keep: (text: string) => string): Record<string, unknown> {
  const spec = findTool(action.tool);
  return spec && !spec.final ? spec.trim(action.args, keep) : { ...action.args };
}

/** What the log keeps of a tool's outcome: its size or its error, and the text the purple was shown. One form for either channel. */
export function observationRecordOf(outcome: ToolOutcome | { readonly ok: false; readonly code: string; readonly message: string }, text: string): ObservationRecord {
  return outcome.ok
    ? { ok: true, rowCount: outcome.kind === "records" ? outcome.records.length : outcome.objects.length, truncated: outcome.kind === "records" && outcome.truncated, text }
    : { ok: false, code: outcome.code, message: outcome.message, text };
}
