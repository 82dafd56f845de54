import { randomUUID } from "node:crypto";
import type { Message, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { assess, CANCELED, runIdFor, type AssessmentData, type AssessmentEvent } from "../assessment/index.js";
import { A2APurpleClient, describeError, fetchAgentCard, participantEndpoint } from "../purple/index.js";
import { summaryText } from "../report/index.js";
import { PACKAGE_VERSION } from "../version.js";
import type { Calibration, Judge } from "../scoring/index.js";
import { RequestRejection, requestDocument, validateRequest, type AssessmentRequest } from "./request.js";

export const RESULTS_ARTIFACT_NAME = "CRMArena Assessment Results";

export interface ExecutorOptions {
  readonly data: AssessmentData;
  readonly calibration: Calibration;
  /** A fresh judge per assessment, so that each result reports its own model usage. */
  readonly createJudge: () => Judge;
  readonly logger: Logger;
  /** Longest silence between status updates; the AgentBeats client gives up after 300 s. */
  readonly heartbeatMs?: number;
  /** Where each assessment's journal (`run-<id>.jsonl`) goes. */
  readonly runsDir?: string;
  /** The gateway's proxy (Amber's `proxy` slot, PROXY_URL): loopback participant URLs are reached through it. */
  readonly proxyUrl?: string;
  /** Time allowed to fetch the purple agent's card before rejecting the request. */
  readonly cardTimeoutMs?: number;
}

/**
 * Runs one assessment per A2A request and reports it the way the AgentBeats client reads it:
 * one Task, working updates, one results artifact, then a final completed update.
 */
export class AssessmentExecutor implements AgentExecutor {
  private readonly heartbeatMs: number;
  private readonly running = new Map<string, { runId: string; cancellation: AbortController }>();

  constructor(private readonly options: ExecutorOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 20_000;
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const log = this.options.logger.child({ taskId });
    const status = (state: TaskState, text: string, final = false) => bus.publish(statusUpdate(taskId, contextId, state, text, final));
    if (!context.task) {
      const task: Task = { kind: "task", id: taskId, contextId, status: { state: "submitted", timestamp: new Date().toISOString() }, history: [context.userMessage] };
      bus.publish(task);
    }
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      let request: AssessmentRequest;
      let purpleIdentity: string;
      let endpoint: string;
      try {
        request = validateRequest(requestDocument(context.userMessage), this.options.data, ["b2b"]);
        endpoint = participantEndpoint(request.participantUrl, this.options.proxyUrl);
        const card = await fetchAgentCard(endpoint, this.options.cardTimeoutMs ?? 10_000).catch((error: unknown) => {
          throw new RequestRejection(`participants.agent: ${describeError(error)}${endpoint === request.participantUrl ? "" : ` (reached through the proxy as ${endpoint})`}`);
        });
        purpleIdentity = `${card.name} ${card.version}`;
      } catch (error) {
        if (!(error instanceof RequestRejection)) throw error;
        log.warn({ reason: error.message }, "assessment request rejected");
        status("rejected", `Request rejected: ${error.message}`, true);
        return;
      }
      const { config, selection } = request;
      const runId = runIdFor({ participantUrl: request.participantUrl, purpleIdentity, config, tasksSource: this.options.data.sources.tasks.path, greenVersion: PACKAGE_VERSION });
      // Two attempts at one run would write one journal: the second waits its turn (or names another run).
      if (this.options.runsDir && [...this.running.values()].some((running) => running.runId === runId)) {
        status("rejected", `Request rejected: run ${runId} (the same purple, config and tasks) is already in progress on this server; wait for it to finish or set config.run_id`, true);
        return;
      }
      const total = selection.tasks.length;
      const dataNote = this.options.data.dataset === "sample" ? " WARNING: running on the bundled SAMPLE data, not the real CRMArena-Pro org (run `entropic-crmarena data fetch`)." : "";
      status(
        "working",
        `Starting assessment with ${total} tasks on the ${this.options.data.dataset} dataset. Drift: ${config.drift_level}, Rot: ${config.rot_level}. Config: ${JSON.stringify(config)}.${dataNote}`,
      );
      log.info({ total, config, dataset: this.options.data.dataset }, "assessment started");
      let done = 0;
      const started = Date.now();
      let lastUpdate = Date.now();
      const publishWorking = (text: string) => {
        lastUpdate = Date.now();
        status("working", text);
      };
      heartbeat = setInterval(() => {
        if (Date.now() - lastUpdate >= this.heartbeatMs * 0.9) {
          publishWorking(`Still working: ${done}/${total} tasks finished after ${Math.round((Date.now() - started) / 1000)} s.`);
        }
      }, Math.max(50, Math.floor(this.heartbeatMs / 2)));
      const onEvent = (event: AssessmentEvent) => {
        if (event.kind === "task_started") {
          publishWorking(`[${event.position}/${event.total}] started task ${event.task.idx} (${event.task.task})`);
        } else if (event.kind === "task_finished") {
          done = event.done;
          publishWorking(progressLine(event));
        }
      };
      const purple = new A2APurpleClient(endpoint);
      const cancellation = new AbortController();
      this.running.set(taskId, { runId, cancellation });
      const { results } = await assess(this.options.data, purple, {
        signal: cancellation.signal,
        participantUrl: request.participantUrl,
        config,
        ignoredConfigKeys: request.ignoredConfigKeys,
        onEvent,
        judge: this.options.createJudge(),
        calibration: this.options.calibration,
        runId,
        // A request seen before continues its journal: nothing finished is lost or run twice.
        resume: true,
        ...(this.options.runsDir ? { logDir: this.options.runsDir } : {}),
      });
      clearInterval(heartbeat);
      if (cancellation.signal.aborted) {
        status("canceled", `Assessment canceled after ${results.summary.total_tasks} of ${total} tasks.`, true);
        return;
      }
      const artifact: TaskArtifactUpdateEvent = {
        kind: "artifact-update",
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: RESULTS_ARTIFACT_NAME,
          parts: [
            { kind: "text", text: summaryText(results) },
            { kind: "data", data: results as unknown as Record<string, unknown> },
          ],
        },
      };
      bus.publish(artifact);
      log.info({ summary: results.summary }, "assessment completed");
      status("completed", `Assessment complete: ${results.summary.total_passed}/${results.summary.total_tasks} passed.`, true);
    } catch (error) {
      log.error({ err: error }, "assessment failed");
      status("failed", `Assessment failed: ${describeError(error)}`, true);
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      this.running.delete(taskId);
      bus.finished();
    }
  }

  /** Stops starting new episodes; those in flight finish, then the task ends as canceled. */
  async cancelTask(taskId: string): Promise<void> {
    this.running.get(taskId)?.cancellation.abort(CANCELED);
  }
}

/** A finished episode's line, numbered by completion. */
function progressLine(event: Extract<AssessmentEvent, { kind: "task_finished" }>): string {
  const { record } = event;
  const ok = record.score?.original.passed ?? false;
  const score = record.score ? record.score.totalScore.toFixed(1) : "0.0";
  const seconds = (record.trajectory.totalMs / 1000).toFixed(1);
  const note = record.score ? "" : ` (${record.unscored ?? record.trajectory.termination})`;
  return `[${event.done}/${event.total}] ${ok ? "✓" : "✗"} ${record.task.idx} ${record.task.category} score=${score} ${seconds}s${note}`;
}

function statusUpdate(taskId: string, contextId: string, state: TaskState, text: string, final = false): TaskStatusUpdateEvent {
  const message: Message = { kind: "message", role: "agent", messageId: randomUUID(), taskId, contextId, parts: [{ kind: "text", text }] };
  return { kind: "status-update", taskId, contextId, final, status: { state, message, timestamp: new Date().toISOString() } };
}
