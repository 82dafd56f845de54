import { type AgentCard, type Artifact, type Message, Role, type SendMessageRequest, type Task, TaskState, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext, ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { GreenRequestHandler } from "../../src/server/request-handler.js";
import { ExpiringTaskStore } from "../../src/server/task-store.js";

const card = { name: "green", capabilities: { pushNotifications: false } } as unknown as AgentCard;

function message(text: string, role = Role.ROLE_AGENT): Message {
  const id = `m-${text}`;
  return {
    messageId: id,
    contextId: "",
    taskId: "",
    role,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function statusEvent(taskId: string, contextId: string, state: TaskState, text: string): TaskStatusUpdateEvent {
  return { taskId, contextId, status: { state, message: message(text), timestamp: new Date(0).toISOString() }, metadata: undefined };
}

/** An executor that publishes the task, progress, the results artifact, then the final state. */
class Scripted implements AgentExecutor {
  published: { artifact?: Artifact; final?: TaskStatusUpdateEvent } = {};
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: "" },
      artifacts: [],
      history: [context.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    for (let i = 0; i < 6; i++) bus.publish(AgentEvent.statusUpdate(statusEvent(taskId, contextId, TaskState.TASK_STATE_WORKING, `line ${i}`)));
    const artifact: Artifact = {
      artifactId: "results",
      name: "results",
      description: "",
      parts: [{ content: { $case: "data", value: { rows: [{ score: 1 }] } }, metadata: undefined, filename: "", mediaType: "application/json" }],
      metadata: undefined,
      extensions: [],
    };
    this.published.artifact = artifact;
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
    this.published.final = statusEvent(taskId, contextId, TaskState.TASK_STATE_COMPLETED, "done");
    bus.publish(AgentEvent.statusUpdate(this.published.final));
    bus.finished();
  }
  async cancelTask(): Promise<void> {}
}

describe("the green's request handler", () => {
  it("keeps the executor's artifact and statuses uncopied, the task's history kept as the SDK keeps it", async () => {
    const executor = new Scripted();
    const store = new ExpiringTaskStore(60_000);
    const handler = new GreenRequestHandler(card, store, executor);
    const request: SendMessageRequest = { tenant: "", message: message("assess", Role.ROLE_USER), configuration: undefined, metadata: undefined };
    const result = (await handler.sendMessage(request, new ServerCallContext())) as Task;
    expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts[0]).toBe(executor.published.artifact);
    expect(result.status).toBe(executor.published.final!.status);
    const stored = (await store.load(result.id))!;
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stored.artifacts[0]).toBe(executor.published.artifact);
    // The request first, the final status's message last (a finished task keeps those two).
    expect(stored.history.map((kept) => kept.messageId)).toEqual(["m-assess", "m-done"]);
  });
});
