import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { TASK_TOKEN_HEADER, TaskAccess } from "../../src/server/index.js";
import { assessmentParams, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

let data: Awaited<ReturnType<typeof sampleData>>;
let green: Awaited<ReturnType<typeof startGreen>>;
let solver: { url: string; server: Server };
let slow: { url: string; server: Server };

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
  solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  slow = await servePurple("slow", async () => new Promise<string>((resolve) => setTimeout(() => resolve("None"), 200)), "127.0.0.1", 0);
});

afterAll(async () => {
  solver.server.close();
  slow.server.close();
  await green.close();
  await data.org.close();
});

let rpcId = 1_000;
/** A JSON-RPC call with headers of its own (the A2A version, a task token). */
async function call(method: string, params: unknown, headers: Record<string, string> = {}): Promise<any> {
  const response = await fetch(green.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  return response.json();
}

const V1 = { "A2A-Version": "1.0" };

describe("a task's token", () => {
  it("is an HMAC of its id under the process's own secret: another process's token does not open it", () => {
    const access = new TaskAccess();
    const token = access.tokenFor("t-1");
    expect(access.opens("t-1", token)).toBe(true);
    expect(access.opens("t-2", token)).toBe(false);
    expect(access.opens("t-1", new TaskAccess().tokenFor("t-1"))).toBe(false);
    expect(access.opens("t-1", undefined)).toBe(false);
    expect(access.opens("t-1", `${token}x`)).toBe(false);
  });
});

describe("tasks are private to their creator", () => {
  it("over A2A 0.3: the creator reads its task with the token; another client cannot get, cancel or resubscribe to it", async () => {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { task_ids: [0] } }));
    const task = body.result;
    expect(task.status.state).toBe("completed");
    const token = task.metadata?.task_token as string;
    expect(token).toMatch(/^[\w-]{43}$/);

    for (const method of ["tasks/get", "tasks/cancel", "tasks/resubscribe"]) {
      const refused = await call(method, { id: task.id });
      expect(refused.error?.code, method).toBe(-32001);
      expect(refused.error?.message).toMatch(/^Task not found: .*task_token/);
      expect((await call(method, { id: task.id, metadata: { task_token: "guess" } })).error?.code, method).toBe(-32001);
    }
    const read = await call("tasks/get", { id: task.id, metadata: { task_token: token } });
    expect(resultsOf(read.result).summary.total_tasks).toBe(1);
    const byHeader = await call("tasks/get", { id: task.id }, { [TASK_TOKEN_HEADER]: token });
    expect(byHeader.result.id).toBe(task.id);
    // A message that names the task (to continue it) is refused too without the token.
    const follow = await call("message/send", {
      message: { kind: "message", role: "user", messageId: "m-follow", taskId: task.id, parts: [{ kind: "text", text: "hello" }] },
    });
    expect(follow.error?.code).toBe(-32001);
  }, 60_000);

  it("over A2A 1.0: ListTasks is not offered; GetTask and CancelTask need the token; the creator cancels its own", async () => {
    const listed = await call("ListTasks", {}, V1);
    expect(listed.error).toMatchObject({ code: -32004 });
    expect(listed.error.message).toMatch(/tasks are private/);
    expect(listed.result).toBeUndefined();

    const started = await call(
      "SendMessage",
      {
        message: {
          role: "ROLE_USER",
          messageId: "m-v1",
          parts: [{ text: JSON.stringify({ participants: { agent: slow.url }, config: { task_limit: 6, concurrency: 1 } }) }],
        },
        configuration: { returnImmediately: true },
      },
      V1,
    );
    const task = started.result.task;
    const token = task.metadata?.task_token as string;
    expect(typeof token).toBe("string");
    for (const method of ["GetTask", "CancelTask", "SubscribeToTask"]) expect((await call(method, { id: task.id }, V1)).error?.code, method).toBe(-32001);
    expect((await call("GetTask", { id: task.id }, { ...V1, [TASK_TOKEN_HEADER]: token })).result.id).toBe(task.id);
    const canceled = await call("CancelTask", { id: task.id }, { ...V1, [TASK_TOKEN_HEADER]: token });
    expect(canceled.result.status.state).toBe("TASK_STATE_CANCELED");
  }, 60_000);
});
