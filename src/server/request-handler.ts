import { type AgentCard, type Artifact, type Task, type TaskArtifactUpdateEvent, TaskState, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { type AgentExecutor, DefaultRequestHandler, type TaskStore } from "@a2a-js/sdk/server";

/** What the SDK's event loop (`_processEvents`, @a2a-js/sdk 1.3.0) reads of the handler and its result manager: private to its types. */
interface EventLoopParts {
  _handleProcessingError(error: unknown, resultManager: ResultManagerParts, firstResultSent: boolean, taskId: string, rejector?: (error: unknown) => void): Promise<void>;
}
interface ResultManagerParts {
  processEvent(event: AgentEventParts): Promise<void>;
  getCurrentTask(): unknown;
  getFinalResult(): unknown;
}
/** What the result manager's updates (`applyStatusUpdate`, `applyArtifactUpdate`, @a2a-js/sdk 1.3.0) read and write of it. */
interface UpdateParts {
  currentTask: Task | undefined;
  notePersistedTaskId(taskId: string): void;
  loadPersistedTask(taskId: string, eventName: string): Promise<Task | undefined>;
  saveCurrentTask(): Promise<void>;
  applyStatusUpdate(event: TaskStatusUpdateEvent): Promise<void>;
  applyArtifactUpdate(event: TaskArtifactUpdateEvent): Promise<void>;
}
interface AgentEventParts {
  readonly kind: string;
  readonly data: { readonly status?: { readonly state?: number } };
}
interface EventQueueParts {
  events(): AsyncGenerator<AgentEventParts>;
  stop(): void;
}
interface EventLoopOptions {
  readonly firstResultResolver?: (result: unknown) => void;
  readonly firstResultRejector?: (error: unknown) => void;
  readonly authRequiredSnapshotResolver?: (snapshot: unknown) => void;
}

/** A2A 1.0's TASK_STATE_AUTH_REQUIRED: the SDK's blocking send answers with the task's snapshot when it is reached. */
const AUTH_REQUIRED = 8;

/**
 * The SDK's request handler without the deep copy of the whole task it makes after every event
 * of a blocking `message/send`, for push notifications, whether or not the agent sends any
 * (`structuredClone(resultManager.getCurrentTask())` in `_processEvents`). The green's card offers
 * none, and once the results artifact is on the task each copy is of megabytes: the artifact
 * update and the final status update cost two copies of the results, 5% of a full run's CPU.
 * The loop is otherwise the SDK's own (1.3.0, pinned in package.json): every event goes through
 * the result manager (the task store), the first result and an auth-required snapshot resolve
 * the request as before. With push notifications in the card, the SDK's loop runs unchanged.
 */
export class GreenRequestHandler extends DefaultRequestHandler {
  constructor(card: AgentCard, taskStore: TaskStore, executor: AgentExecutor) {
    super(card, taskStore, executor);
    if (!card.capabilities?.pushNotifications) Object.defineProperty(this, "_processEvents", { value: processEventsWithoutPush, writable: true, configurable: true });
  }
}

async function processEventsWithoutPush(
  this: EventLoopParts,
  taskId: string,
  resultManager: ResultManagerParts,
  eventQueue: EventQueueParts,
  _context: unknown,
  options?: EventLoopOptions,
): Promise<void> {
  let firstResultSent = false;
  let authRequiredSnapshotSent = false;
  try {
    keepEventsUncopied(resultManager as unknown as UpdateParts);
    for await (const event of eventQueue.events()) {
      await resultManager.processEvent(event);
      if (options?.firstResultResolver && !firstResultSent) {
        let firstResult: unknown;
        if (event.kind === "message" || event.kind === "task") firstResult = event.data;
        else {
          const finalResult = resultManager.getFinalResult();
          if (finalResult && typeof finalResult === "object" && ("messageId" in finalResult || "id" in finalResult)) firstResult = finalResult;
        }
        if (firstResult) {
          options.firstResultResolver(firstResult);
          firstResultSent = true;
        }
      }
      if (options?.authRequiredSnapshotResolver && !authRequiredSnapshotSent && event.kind === "statusUpdate" && event.data.status?.state === AUTH_REQUIRED) {
        const currentTask = resultManager.getCurrentTask();
        if (currentTask) {
          options.authRequiredSnapshotResolver(structuredClone(currentTask));
          authRequiredSnapshotSent = true;
          firstResultSent = true;
        }
      }
    }
    // Never reached here (the executor's first event is the Task); the SDK rejects with its RequestMalformedError.
    if (options?.firstResultResolver && options.firstResultRejector && !firstResultSent) {
      options.firstResultRejector(new Error("Execution finished before a message or task was produced."));
    }
  } catch (error) {
    console.error(`Event processing loop failed for task ${taskId}:`, error);
    await this._handleProcessingError(error, resultManager, firstResultSent, taskId, options?.firstResultRejector);
  } finally {
    eventQueue.stop();
  }
}

const TERMINAL: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

/**
 * The result manager's status and artifact updates as the SDK makes them (1.3.0), without the deep
 * copy of what the event holds (`structuredClone` of the status, its message and the artifact):
 * the executor makes each event afresh for its publish and never touches it after, so the task
 * may hold it as it is. The results artifact of a full run is megabytes, its copy 2% of the run's
 * CPU, and the progress updates another 1%. An update with metadata, or one appending to an
 * artifact, goes the SDK's way (the green sends none). Each still runs under the SDK's per-task
 * lock (`processEvent` calls it), loads the task, changes it and saves it.
 */
function keepEventsUncopied(manager: UpdateParts): void {
  const statusUpdate = manager.applyStatusUpdate;
  const artifactUpdate = manager.applyArtifactUpdate;
  manager.applyStatusUpdate = async function (this: UpdateParts, event: TaskStatusUpdateEvent): Promise<void> {
    if (event.metadata) return statusUpdate.call(this, event);
    this.notePersistedTaskId(event.taskId);
    const task = await this.loadPersistedTask(event.taskId, "status update");
    const persisted = task?.status?.state;
    if (!task || task.id !== event.taskId || (persisted !== undefined && TERMINAL.has(persisted) && event.status?.state !== persisted)) {
      // An update of a task that ended (or of another task) goes the SDK's way, which warns and keeps the task as it is.
      if (task && task.id === event.taskId) return statusUpdate.call(this, event);
      this.currentTask = task;
      return;
    }
    task.status = event.status;
    const message = event.status?.message;
    if (message && !task.history?.some((kept) => kept.messageId === message.messageId)) task.history = [...(task.history ?? []), message];
    this.currentTask = task;
    await this.saveCurrentTask();
  };
  manager.applyArtifactUpdate = async function (this: UpdateParts, event: TaskArtifactUpdateEvent): Promise<void> {
    const artifact = event.artifact;
    if (!artifact || event.append || event.metadata) return artifactUpdate.call(this, event);
    this.notePersistedTaskId(event.taskId);
    const task = await this.loadPersistedTask(event.taskId, "artifact update");
    if (!task || task.id !== event.taskId) {
      this.currentTask = task;
      return;
    }
    task.artifacts = replacedOrAdded(task.artifacts ?? [], artifact);
    this.currentTask = task;
    await this.saveCurrentTask();
  };
}

/** `artifacts` with the one of `artifact`'s id replaced by it, or it added last. */
function replacedOrAdded(artifacts: readonly Artifact[], artifact: Artifact): Artifact[] {
  const at = artifacts.findIndex((kept) => kept.artifactId === artifact.artifactId);
  return at === -1 ? [...artifacts, artifact] : artifacts.map((kept, i) => (i === at ? artifact : kept));
}
