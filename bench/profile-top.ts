/**
 * The functions a green spends its CPU in, from a V8 CPU profile (`--cpu-prof`): its busy time
 * from the first assessment request on (the first sample inside the executor; start-up before it
 * is left out) and the functions of most self time, with their share of it.
 *
 *   npx tsx bench/profile-top.ts DIR|FILE.cpuprofile [--top 10] [--clip-ms 2]
 *
 * A sample's time is the gap to the next one: on a loaded machine a sample taken before the
 * process was descheduled carries the whole wait (tens of milliseconds, against a 1 ms interval),
 * so a function with few samples can show several percent. `--clip-ms` counts each sample's time
 * up to that many milliseconds, which keeps the shares of a loaded machine's profile comparable.
 *
 * Given a folder, it reads the largest profile there (the main thread's: a derive thread writes
 * its own, smaller one).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "10" }, "clip-ms": { type: "string" } } });
const clipMicros = values["clip-ms"] === undefined ? Number.POSITIVE_INFINITY : Number(values["clip-ms"]) * 1000;
const where = positionals[0];
if (!where) throw new Error("usage: npx tsx bench/profile-top.ts DIR|FILE.cpuprofile [--top 10]");
const file = statSync(where).isDirectory()
  ? readdirSync(where)
      .filter((name) => name.endsWith(".cpuprofile"))
      .map((name) => join(where, name))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]
  : where;
if (!file) throw new Error(`no .cpuprofile in ${where}`);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const name = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.includes("node_modules/") ? url.replace(/^.*node_modules\//, "") : url.replace(/^.*\/dist\//, "dist/");
  return `${functionName || "(anonymous)"} ${where}${where ? `:${lineNumber + 1}` : ""}`;
};
const inExecutor = (id: number | undefined): boolean => {
  for (let at = id; at !== undefined; at = parentOf.get(at)) if (byId.get(at)!.callFrame.url.includes("server/executor")) return true;
  return false;
};

const self = new Map<string, number>();
let busy = 0;
let started = false;
profile.samples.forEach((id, i) => {
  started ||= inExecutor(id);
  if (!started) return;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === "(idle)") return;
  // A sample's time is the gap to the next one.
  const micros = Math.min(profile.timeDeltas[i + 1] ?? 0, clipMicros);
  busy += micros;
  self.set(name(node), (self.get(name(node)) ?? 0) + micros);
});
process.stdout.write(`${file}: ${(busy / 1000).toFixed(0)} ms busy from the first request on${Number.isFinite(clipMicros) ? ` (each sample counted up to ${clipMicros / 1000} ms)` : ""}\n`);
for (const [fn, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  process.stdout.write(`${(micros / 1000).toFixed(1).padStart(9)} ms ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${fn}\n`);
