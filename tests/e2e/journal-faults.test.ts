import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assess, chooseTasks, journalPath, parseConfig, RecordingFailure, runAssessment, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { Journal, LogError, readLog } from "../../src/log/index.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { assessmentParams, calibration, freePort, sampleData, startGreen } from "../support/helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const scratch = () => mkdtempSync(join(tmpdir(), "journal-faults-"));
const data = await sampleData();
const closers: (() => unknown)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await data.org.close();
});

/**
 * A full disk under `dir`, injected: while `full` is set, a write to a file there is cut short
 * (half of it written) and the next one fails with ENOSPC, as a disk filling up does. Every
 * FileHandle's `write` is wrapped (the file is found through /proc/self/fd); nothing else changes.
 */
async function injectedDisk(dir: string): Promise<{ fill: () => void; free: () => void; restore: () => void }> {
  const probe: FileHandle = await open(join(dir, ".probe"), "w");
  const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<{ bytesWritten: number; buffer: unknown }>; fd?: number };
  await probe.close();
  rmSync(join(dir, ".probe"));
  const write = proto.write;
  let full = false;
  let cut = false;
  proto.write = async function (this: FileHandle, ...args: unknown[]) {
    const inside =
      full &&
      (() => {
        try {
          return readlinkSync(`/proc/self/fd/${this.fd}`).startsWith(dir);
        } catch {
          return false;
        }
      })();
    if (!inside) return write.apply(this, args);
    if (!cut && Buffer.isBuffer(args[0]) && typeof args[2] === "number" && args[2] > 1) {
      cut = true;
      return write.apply(this, [args[0], args[1], Math.floor(args[2] / 2), ...args.slice(3)]);
    }
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
  };
  return {
    fill: () => {
      full = true;
      cut = false;
    },
    free: () => {
      full = false;
    },
    restore: () => {
      proto.write = write;
    },
  };
}

/** A purple that answers "None" at once, whatever it is asked: a run of it is deterministic. */
const answersNone: PurpleClient = {
  url: "stub://none",
  send: async () => ({
    reply: { texts: ['{"name": "respond", "arguments": {"answer": "None"}}'], data: [] },
    contextId: undefined,
    openTaskId: undefined,
    usage: undefined,
    bytes: 60,
  }),
};

const assessIn = (logDir: string, extra: { resume?: boolean; notices?: string[]; config?: Record<string, unknown> } = {}) => {
  const { config } = parseConfig({ task_limit: 4, concurrency: 2, run_id: "faults", ...extra.config });
  return assess(data, answersNone, {
    spec: runSpecFor({ participantUrl: answersNone.url, config, tasksSource: data.sources.tasks.path }),
    calibration,
    logDir,
    ...(extra.resume ? { resume: true } : {}),
    onJournalNotice: (text) => extra.notices?.push(text),
  });
};

const scores = (results: any) => Object.fromEntries(results.results.map((entry: any) => [entry.task_idx, entry.total_score]));

describe("the journal", () => {
  it("after a write that fails part way (a short write, then ENOSPC), is cut back to its last whole line and refuses every later line with the same error", async () => {
    const dir = scratch();
    const disk = await injectedDisk(dir);
    const path = join(dir, "run.jsonl");
    try {
      const first = await assessIn(scratch());
      const journal = await Journal.open(path, "new");
      await journal.writeHeader(first.log.header);
      await journal.writeEpisode(first.log.episodes[0]!);
      const whole = readFileSync(path, "utf8");
      disk.fill();
      await expect(journal.writeEpisode(first.log.episodes[1]!)).rejects.toThrow(`cannot write the run's journal ${path}: ENOSPC: no space left on device`);
      disk.free();
      // The disk has room again, but the journal stays stopped: nothing is written after a gap.
      await expect(journal.writeEpisode(first.log.episodes[2]!)).rejects.toThrow(/ENOSPC/);
      await journal.close();
      expect(readFileSync(path, "utf8")).toBe(whole);
      expect((await readLog(path)).episodes.map((episode) => episode.position)).toEqual([1]);
    } finally {
      disk.restore();
    }
  });
});

describe("a journal fault never blocks a run", () => {
  it("a journal without a whole header (its write cut short) counts as absent: a resend starts afresh and says so, as does a run without --resume", async () => {
    const dir = scratch();
    const reference = await assessIn(scratch());
    const header = readFileSync(reference.logFile!, "utf8").split("\n")[0]!;
    const path = journalPath(dir, "faults");
    for (const resume of [true, false]) {
      writeFileSync(path, header.slice(0, 200));
      const notices: string[] = [];
      const { results } = await assessIn(dir, { resume, notices });
      expect(notices).toEqual([`The journal ${path} had no whole header (an earlier attempt could not write it): the run starts afresh.`]);
      expect(results.status).toBe("completed");
      expect(scores(results)).toEqual(scores(reference.results));
      rmSync(path);
    }
    // An empty file (the header's write failed at once) too.
    writeFileSync(path, "");
    const notices: string[] = [];
    expect((await assessIn(dir, { resume: true, notices })).results.summary.total_tasks).toBe(4);
    expect(notices).toHaveLength(1);
  });

  it("a damaged line in the middle is set aside (in <journal>.damaged, its line number named) and its task runs again: the same results, a journal that reads", async () => {
    const dir = scratch();
    const first = await assessIn(dir);
    const path = first.logFile!;
    const lines = readFileSync(path, "utf8").split("\n");
    // Line 3 (the second episode) damaged in its middle, and the footer gone: an interrupted run on a bad disk.
    const damaged = `${lines[2]!.slice(0, 300)}\u0000\u0000garbage${lines[2]!.slice(400)}`;
    const lost = (JSON.parse(lines[2]!) as { position: number }).position;
    writeFileSync(path, [lines[0], lines[1], damaged, lines[3], lines[4], ""].join("\n"));
    const notices: string[] = [];
    const ran: number[] = [];
    const { config } = parseConfig({ task_limit: 4, concurrency: 2, run_id: "faults" });
    const again = await assess(data, answersNone, {
      spec: runSpecFor({ participantUrl: answersNone.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      logDir: dir,
      resume: true,
      onJournalNotice: (text) => notices.push(text),
      onEvent: (event) => {
        if (event.kind === "task_started") ran.push(event.position);
      },
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`The journal ${path} had a line that could not be read (${path}:3 is not JSON`);
    expect(notices[0]).toContain(`set aside in ${path}.damaged, and the tasks missing from the journal run again`);
    expect(ran).toEqual([lost]);
    expect(readFileSync(`${path}.damaged`, "utf8")).toBe(`${damaged}\n`);
    expect(again.results.status).toBe("completed");
    expect(scores(again.results)).toEqual(scores(first.results));
    // The journal reads again, strictly (show, report, rescore), each episode once.
    const stored = await readLog(path);
    expect(stored.episodes.map((episode) => episode.position)).toEqual([1, 2, 3, 4]);
    expect(stored.footer?.status).toBe("completed");
  });

  it("a header that is there but cannot be read is refused with the file, its line and the ways out", async () => {
    const dir = scratch();
    const first = await assessIn(dir);
    const text = readFileSync(first.logFile!, "utf8");
    writeFileSync(first.logFile!, `{"kind": "header", broken\n${text.slice(text.indexOf("\n") + 1)}`);
    const attempt = assessIn(dir, { resume: true });
    await expect(attempt).rejects.toThrow(LogError);
    await expect(assessIn(dir, { resume: true })).rejects.toThrow(
      new RegExp(
        `${first.logFile!.replace(/[.]/g, "\\.")}:1 is not JSON .*The run cannot continue from this journal: start it over with --force \\(assess\\), or give the request another config\\.run_id \\(serve\\)`,
      ),
    );
  });

  it("a journal that fails mid-run stops the run with the episodes recorded so far, as an interrupted log (runAssessment)", async () => {
    const { config } = parseConfig({ task_limit: 8, concurrency: 2, run_id: "fails" });
    const path = join(scratch(), "fails.jsonl");
    const journal = await Journal.open(path, "new");
    const write = journal.writeEpisode.bind(journal);
    let writes = 0;
    journal.writeEpisode = async (record) => {
      if (++writes > 3) throw new Error("ENOSPC: no space left on device, write");
      await write(record);
    };
    const spec = runSpecFor({ participantUrl: answersNone.url, config, tasksSource: data.sources.tasks.path });
    const options = { spec, chosen: await chooseTasks(data, config), judge: new HeuristicJudge(), calibration, journal };
    const failure = await runAssessment(data, answersNone, options).then(
      () => undefined,
      (error: unknown) => error,
    );
    await journal.close();
    expect(failure).toBeInstanceOf(RecordingFailure);
    const { partial, message } = failure as RecordingFailure;
    expect(message).toBe("ENOSPC: no space left on device, write");
    expect(partial.footer.status).toBe("interrupted");
    expect(partial.episodes).toHaveLength(3);
    expect((await readLog(path)).episodes.map((episode) => episode.position)).toEqual(partial.episodes.map((episode) => episode.position));
  });
});

/** A solver that takes a moment before each answer, so that a run is still going when the disk fills. */
const slowSolver: Strategy = async (task, tools) => {
  await sleep(150);
  return solverStrategy(task, tools);
};

/** A green with a runs folder whose disk the test can fill and free, and where the test sees that folder. */
interface Disk {
  readonly url: string;
  readonly runs: string;
  fill(): void;
  free(): void;
}

/** The green in this process, its runs folder's writes failing on demand. */
async function injectedGreen(): Promise<Disk> {
  const runs = scratch();
  const disk = await injectedDisk(runs);
  closers.push(disk.restore);
  const green = await startGreen(data, { runsDir: runs });
  closers.push(green.close);
  return { url: green.url, runs, fill: disk.fill, free: disk.free };
}

/** Whether this machine lets a user mount a tmpfs in a namespace of its own (`unshare -rm`). */
const tmpfsAllowed = (() => {
  const point = mkdtempSync(join(tmpdir(), "tmpfs-probe-"));
  return spawnSync("unshare", ["-rm", "sh", "-c", 'mount -t tmpfs -o size=64k tmpfs "$0"', point]).status === 0;
})();

/**
 * `serve` as a child process whose runs folder is a 16 MB tmpfs of its own (a user and mount
 * namespace). The test sees the folder through /proc/<pid>/root; it fills the disk with a file
 * written until ENOSPC, and frees it by removing that file.
 */
async function tmpfsGreen(): Promise<Disk> {
  const point = mkdtempSync(join(tmpdir(), "tmpfs-runs-"));
  const port = await freePort();
  const child: ChildProcess = spawn(
    "unshare",
    [
      "-rm",
      "sh",
      "-c",
      'mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@"',
      point,
      process.execPath,
      "--import",
      "tsx",
      "src/cli.ts",
      "serve",
      "--port",
      String(port),
      "--runs-dir",
      point,
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "ignore"], env: { ...process.env, LOG_LEVEL: "warn" } },
  );
  // SIGTERM, so that it stops its query processes too; SIGKILL only if it does not end.
  const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  closers.push(async () => {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exit;
    clearTimeout(timer);
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 300; i++) {
    const up = await fetch(new URL(".well-known/agent-card.json", url)).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    await sleep(100);
  }
  const runs = `/proc/${child.pid}/root${point}`;
  const filler = join(runs, "filler");
  return {
    url,
    runs,
    fill: () => {
      try {
        writeFileSync(filler, Buffer.alloc(32 * 1024 * 1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    },
    free: () => rmSync(filler, { force: true }),
  };
}

/** Streams an assessment: its status texts, its results (if any) and its final state. */
async function stream(url: string, document: unknown): Promise<{ texts: string[]; results: any; state: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/stream", params: assessmentParams(document) }),
  });
  const events = (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)).result);
  const updates = events.filter((event) => event.kind === "status-update");
  return {
    texts: updates.map((event) => (event.status.message?.parts ?? []).map((part: any) => part.text ?? "").join("")),
    results: events.find((event) => event.kind === "artifact-update")?.artifact.parts[1].data,
    state: updates.at(-1)?.status.state,
  };
}

const journalIn = (dir: string) => {
  const name = existsSync(dir) ? readdirSync(dir).find((file) => file.endsWith(".jsonl")) : undefined;
  return name ? join(dir, name) : undefined;
};
const episodeCount = (path: string | undefined) =>
  path && existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.includes('"kind":"episode"')).length
    : 0;

const disks: [string, () => Promise<Disk>][] = [["an injected write error", injectedGreen]];
if (tmpfsAllowed) disks.push(["a full 16 MB tmpfs", tmpfsGreen]);

describe.each(disks)("a full disk under the served green (%s)", (_name, start) => {
  let disk: Disk;
  let agent: string;
  beforeAll(async () => {
    disk = await start();
    const purple = await servePurple("slow-solver", slowSolver, "127.0.0.1", 0);
    closers.push(() => purple.server.close());
    agent = purple.url;
  }, 60_000);

  it("at the start fails the request naming the write error; once there is room, the same request runs afresh, saying so", async () => {
    const request = { participants: { agent }, config: { task_limit: 3, seed: 11 } };
    disk.fill();
    const failed = await stream(disk.url, request);
    disk.free();
    expect(failed.state).toBe("failed");
    expect(failed.texts.at(-1)).toMatch(
      /^Assessment failed: cannot write the run's journal .*\.jsonl: ENOSPC: no space left on device.*; nothing was recorded, and the same request starts the run afresh once the runs folder has room$/,
    );
    const again = await stream(disk.url, request);
    expect(again.state).toBe("completed");
    expect(again.texts.some((text) => /had no whole header \(an earlier attempt could not write it\): the run starts afresh/.test(text))).toBe(true);
    expect(again.results.summary.total_tasks).toBe(3);
    rmSync(journalIn(disk.runs)!);
  }, 60_000);

  it("mid-run ends the request with the partial results attached and the write error named; once there is room, the same request continues", async () => {
    const request = { participants: { agent }, config: { task_limit: 8, concurrency: 1, seed: 12 } };
    const running = stream(disk.url, request);
    for (let i = 0; i < 600 && episodeCount(journalIn(disk.runs)) < 2; i++) await sleep(50);
    disk.fill();
    const stopped = await running;
    disk.free();
    expect(stopped.state).toBe("failed");
    expect(stopped.texts.at(-1)).toMatch(
      /^Assessment stopped after \d of 8 tasks: cannot write the run's journal .*\.jsonl: ENOSPC: no space left on device.*\. The partial results are attached \(status "interrupted"\); the same request continues it from its journal once .* has room\.$/,
    );
    expect(stopped.results.status).toBe("interrupted");
    const recorded = stopped.results.summary.total_tasks;
    expect(recorded).toBeGreaterThanOrEqual(2);
    expect(recorded).toBeLessThan(8);
    expect(episodeCount(journalIn(disk.runs))).toBe(recorded);
    const again = await stream(disk.url, request);
    expect(again.state).toBe("completed");
    expect(again.texts).toContain(`Continuing run ${again.results.run.id} from its journal: ${recorded} of 8 episodes are already done and are not run again.`);
    expect(again.results.summary.total_tasks).toBe(8);
    const positions = (await readLog(journalIn(disk.runs)!)).episodes.map((episode) => episode.position);
    expect(positions).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 90_000);
});
