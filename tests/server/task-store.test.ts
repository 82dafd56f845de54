import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { ExpiringTaskStore } from "../../src/server/task-store.js";

describe("a finished task in the store", () => {
  const results = {
    summary: { total_tasks: 2 },
    tasks: [
      { idx: 1, text: "café, ünïcode", scores: [0.5, null] },
      { idx: 2, nested: { deep: [true, false] } },
    ],
  };
  const finished = () =>
    ({
      id: "done",
      contextId: "c",
      status: { state: TaskState.TASK_STATE_COMPLETED },
      history: [],
      artifacts: [{ artifactId: "results", parts: [{ content: { $case: "data", value: results } }, { content: { $case: "text", value: "12 of 44" } }] }],
    }) as never;

  it("gives its artifacts back equal to what was saved, a copy of their own at each read, from tasks/get and from a list", async () => {
    const store = new ExpiringTaskStore(60_000, () => 0);
    const saved = finished() as { artifacts: unknown[] };
    await store.save(saved as never);
    // Deflated after the save's turn, as the reply that carries them leaves.
    await new Promise((resolve) => setImmediate(resolve));
    const first = await store.load("done");
    expect(first?.artifacts).toEqual(saved.artifacts);
    expect(first?.artifacts).not.toBe(saved.artifacts);
    (first!.artifacts![0] as unknown as { artifactId: string }).artifactId = "changed by a reader";
    expect((await store.load("done"))?.artifacts).toEqual(saved.artifacts);
    const listed = await store.list({ includeArtifacts: true } as never);
    expect(listed.tasks[0]?.artifacts).toEqual(saved.artifacts);
    expect((await store.list({ includeArtifacts: false } as never)).tasks[0]?.artifacts).toEqual([]);
  });

  it("keeps a finished task without artifacts as it came", async () => {
    const store = new ExpiringTaskStore(60_000, () => 0);
    await store.save({ id: "bare", contextId: "c", status: { state: TaskState.TASK_STATE_FAILED }, history: [] } as never);
    expect((await store.load("bare"))?.artifacts).toBeUndefined();
  });
});
