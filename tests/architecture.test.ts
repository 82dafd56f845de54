import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { datasets } from "../src/datasets/index.js";
import { BUILT_IN_TOOLS } from "../src/tools/index.js";

/**
 * The architecture's rules, read from the imports themselves: every folder of src/ is reached
 * from other folders through its index.ts only; some folders must not know others at all; and no
 * module depends on itself through others.
 */
const SRC = fileURLToPath(new URL("../src/", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative imports of a module (type-only ones too: a type cycle is a design cycle), resolved to files. */
function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:import|export)\s[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)"/g), ...text.matchAll(/import\("(\.{1,2}\/[^"]+)"\)/g)].map((match) =>
    resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")),
  );
}

/** The top-level folder of a module under src/; a module at the top (src/cli.ts, src/version.ts) is a unit of its own. */
const folderOf = (file: string) => relative(SRC, file).split("/")[0]!;
const isFolder = (unit: string) => !unit.endsWith(".ts");

const graph = new Map(files(SRC).map((file) => [file, imports(file)]));
const rel = (file: string) => relative(SRC, file);

describe("the architecture", () => {
  it("reaches every folder from outside through its index.ts only", () => {
    // A worker thread's entry holds every module it loads for as long as the thread is warm: it
    // (and the modules of its own folder it loads) may take the few modules it needs without the
    // rest of their folder's index.
    // The derive thread's modules that need the remap's values (not only its type) take it so too.
    const threadEntries: Record<string, readonly string[]> = {
      "org/derive-worker.ts": ["util/collect.ts", "util/id-remap.ts"],
      "org/derive.ts": ["util/id-remap.ts"],
      "org/derive-remap.ts": ["util/id-remap.ts"],
    };
    const violations: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = folderOf(file);
        const to = folderOf(target);
        if (!isFolder(to) || from === to) continue;
        if (threadEntries[rel(file)]?.includes(rel(target))) continue;
        if (rel(target) !== `${to}/index.ts`) violations.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("keeps entropy from the runner, protocol from the org, scoring from the data folder", () => {
    const forbidden: [string, string][] = [
      ["entropy", "assessment"],
      ["protocol", "org"],
      ["scoring", "data"],
    ];
    const violations: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) for (const [from, to] of forbidden) if (folderOf(file) === from && folderOf(target) === to) violations.push(`${rel(file)} -> ${rel(target)}`);
    }
    expect(violations).toEqual([]);
  });

  it("names a dimension only in its module under src/scoring/dimensions/: everything else lists the registry", async () => {
    const { dimensionNames } = await import("../src/scoring/index.js");
    const named = new RegExp(`\\b(?:${dimensionNames().join("|")})\\b`, "g");
    const outside = [...graph.keys(), fileURLToPath(new URL("../leaderboard/queries.ts", import.meta.url))].filter((file) => !rel(file).startsWith("scoring/dimensions/"));
    const violations = outside.flatMap((file) => {
      // Comments may name a dimension to explain a rule; code may not list one.
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      return [...code.matchAll(named)].map((match) => `${relative(SRC, file)}: ${match[0]}`);
    });
    expect(violations).toEqual([]);
  });

  it("names a run in one place and chooses its tasks at the edge only", () => {
    const callers = (pattern: RegExp) => [...graph.keys()].filter((file) => pattern.test(readFileSync(file, "utf8").replace(/^\s*(?:\/\/|\*).*$/gm, ""))).map(rel);
    // The run id is computed by the run spec; everything else reads spec.runId.
    expect(callers(/\brunIdFor\(/)).toEqual(["assessment/run-id.ts", "assessment/run-spec.ts"]);
    // The runner is given the chosen tasks: it never selects them again.
    expect(callers(/\bselectTasks\(/).sort()).toEqual(["assessment/select.ts"]);
  });

  it("reads the environment in src/cli/ and util/environment.ts only: every other module is given what it needs", () => {
    const readers = [...graph.keys()]
      .filter((file) => folderOf(file) !== "cli" && rel(file) !== "util/environment.ts")
      .filter((file) => /\bprocess\.env\b/.test(readFileSync(file, "utf8").replace(/^\s*(?:\/\/|\*).*$/gm, "")));
    expect(readers.map(rel)).toEqual([]);
  });

  it("has one front door: the server and the command line run assessments through the session only", () => {
    const code = (file: string) => readFileSync(file, "utf8").replace(/^\s*(?:\/\/|\*).*$/gm, "");
    const doors = [...graph.keys()].filter((file) => ["server", "cli"].includes(folderOf(file)));
    expect(doors.length).toBeGreaterThan(0);
    expect(doors.filter((file) => /\b(?:runAssessment|assess)\(/.test(code(file))).map(rel)).toEqual([]);
    // ...and both do call it.
    expect(
      doors
        .filter((file) => /\brunSession\(/.test(code(file)))
        .map(rel)
        .sort(),
    ).toEqual(expect.arrayContaining(["cli/assess.ts", "server/executor.ts"]));
  });

  it("has one table of number words (util/number-words.ts): what the generators write, every reader reads", () => {
    const tables = [...graph.keys()]
      .filter((file) => rel(file) !== "util/number-words.ts")
      .filter((file) =>
        /\b(?:eleven|twelve|nineteen)\b/.test(
          readFileSync(file, "utf8")
            .replace(/\/\*[\s\S]*?\*\//g, "")
            .replace(/\/\/.*$/gm, ""),
        ),
      );
    expect(tables.map(rel)).toEqual([]);
  });

  it("keeps the dataset registry pure, so that scoring, the log and the view may read the catalogue", () => {
    const reached = new Set<string>();
    for (const [file, targets] of graph) if (folderOf(file) === "datasets") for (const target of targets) if (folderOf(target) !== "datasets") reached.add(folderOf(target));
    expect([...reached].filter((folder) => !["tasks", "util"].includes(folder))).toEqual([]);
  });

  it("loads, shelves and serves datasets without knowing one: a dataset that builds its data is asked through its builder", () => {
    // The twins are a built dataset like any other: loading, the shelf, the server and the command
    // line's doors name no built dataset (the builders' registry, data/builders.ts, lists them).
    const generic = ["data/load.ts", "data/shelf.ts", "data/open.ts", "server/app.ts", "cli/serve.ts", "cli/assess.ts"];
    const violations = generic.flatMap((file) => {
      const code = readFileSync(join(SRC, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      return [...code.matchAll(/\b(?:TWINS\w*|loadTwins|twinSet|twinSourceFile|TwinKey)\b/g)].map((match) => `${file}: ${match[0]}`);
    });
    expect(violations).toEqual([]);
  });

  it("names categories and datasets only in their registries", () => {
    // The catalogue (src/datasets/) is the one place per-category knowledge lives; code elsewhere
    // asks it (categorySpec, SAMPLE.name, ...) instead of spelling a name, so a new task set is a
    // folder, not edits everywhere. Code literals only: biome writes them in double quotes or
    // backticks, so prose in single quotes (help texts, errors) is no hit. "custom" is left out:
    // it is also zod's issue code.
    const names = [...new Set(datasets().flatMap((spec) => [spec.name, ...spec.categories.map((category) => category.name)]))];
    const literal = new RegExp(`(["\`])(${names.map((name) => name.replace(/[.-]/g, "\\$&")).join("|")})\\1`, "g");
    /** Where a name is unavoidable, and why. */
    const allowed: Record<string, string> = {
      "sample/tasks.ts": "the sample generator writes tasks of each category; its generators are keyed by the catalogue's B2bCategory type, so the compiler holds them to it",
      "util/python-random.ts": "CPython's random.sample, a method name, not the dataset",
    };
    /** Folders of per-category modules, each keyed by the catalogue's B2bCategory type. */
    const allowedFolders = ["twins/categories/"];
    const violations: string[] = [];
    for (const file of graph.keys()) {
      const path = rel(file);
      if (folderOf(file) === "datasets" || path in allowed || allowedFolders.some((folder) => path.startsWith(folder))) continue;
      for (const match of readFileSync(file, "utf8").matchAll(literal)) violations.push(`${path}: ${match[0]}`);
    }
    expect(violations).toEqual([]);
  });

  it("keeps the reference analyst blind to the generators: it reaches neither src/sample/ nor src/twins/, even through others", () => {
    // The analyst is measured on the twins; were it to share code with their generator or answer
    // programs, a misreading would be shared too and its pass rate would prove nothing.
    const start = [...graph.keys()].filter((file) => rel(file).startsWith("baselines/analyst/"));
    expect(start.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    const paths = new Map<string, string>();
    const queue = [...start];
    for (const file of start) paths.set(file, rel(file));
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const target of graph.get(file) ?? []) {
        if (seen.has(target)) continue;
        seen.add(target);
        paths.set(target, `${paths.get(file)} -> ${rel(target)}`);
        queue.push(target);
      }
    }
    const reached = [...seen].filter((file) => ["sample", "twins"].includes(folderOf(file))).map((file) => paths.get(file));
    expect(reached).toEqual([]);
  });

  it("has no import cycles, between files or between folders", () => {
    const cycles = stronglyConnected([...graph.keys()], (file) => graph.get(file) ?? []).filter((component) => component.length > 1);
    expect(cycles.map((component) => component.map(rel).sort().join(" <-> "))).toEqual([]);
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph)
      for (const target of targets) if (folderOf(file) !== folderOf(target)) folders.set(folderOf(file), (folders.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
    const folderCycles = stronglyConnected([...folders.keys()], (folder) => [...(folders.get(folder) ?? [])]).filter((component) => component.length > 1);
    expect(folderCycles).toEqual([]);
  });
});

describe("the registries", () => {
  it("name the tools only in the tools registry: no tool name as a string literal elsewhere in src/", () => {
    // Prose may mention a tool (comments, the LLM purple's prompt); a quoted name is code that would
    // have to change with the tool. Tests, docs and bench's standalone purple speak the wire format.
    // Backticks are left out: in comments and prose they quote a name as markdown does.
    const quoted = new RegExp(`["'](${BUILT_IN_TOOLS.map((tool) => tool.name).join("|")})["']`);
    const violations = [...graph.keys()]
      .filter((file) => folderOf(file) !== "tools")
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, index) => (quoted.test(line) ? [`${rel(file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(violations).toEqual([]);
  });

  it("opens orgs only through the backend factory: openOrg is private to the SQLite backend", () => {
    const roots = [SRC, fileURLToPath(new URL("./", import.meta.url)), fileURLToPath(new URL("../bench/", import.meta.url))];
    const users = roots
      .flatMap((root) => files(root))
      .filter((file) => file !== join(SRC, "org/store.ts") && file !== fileURLToPath(import.meta.url))
      .filter((file) => /\bopenOrg\b/.test(readFileSync(file, "utf8")));
    expect(users.map((file) => relative(join(SRC, ".."), file))).toEqual([]);
  });
});

/** The tests' own folder: unit tests mirror src/, the end-to-end scenarios sit apart (tests/README.md). */
const TESTS = fileURLToPath(new URL("./", import.meta.url));

/** Every file under `dir`, whatever its kind, relative to `dir`. */
function allFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const path = join(prefix, name);
    return statSync(join(dir, path)).isDirectory() ? allFiles(dir, path) : [path];
  });
}

describe("the tests' layout", () => {
  const testFiles = allFiles(TESTS).filter((file) => file.endsWith(".test.ts"));

  it("puts every test in tests/e2e/ or in the mirror of a folder of src/, named after a src file only beside that file's mirror", () => {
    const violations: string[] = [];
    for (const file of testFiles) {
      // The rules of the whole tree are about no one folder.
      if (file === "architecture.test.ts" || file.startsWith("e2e/")) continue;
      const folder = dirname(file);
      const mirror = join(SRC, folder);
      if (folder === "." || !statSync(mirror, { throwIfNoEntry: false })?.isDirectory()) {
        violations.push(
          `tests/${file}: ${folder === "." ? "at the top of tests/" : `src/${folder}/ is no folder`} (a unit test goes in the mirror of its src/ folder, an end-to-end scenario in tests/e2e/)`,
        );
        continue;
      }
      const name = `${file.slice(folder.length + 1, -".test.ts".length)}.ts`;
      const top = folder.split("/")[0]!;
      const namesakes = files(join(SRC, top)).filter((source) => source.endsWith(`/${name}`));
      if (namesakes.length > 0 && !namesakes.includes(join(mirror, name))) {
        violations.push(`tests/${file}: named after ${namesakes.map((source) => `src/${rel(source)}`).join(", ")}, so it goes beside that file's mirror`);
      }
    }
    expect(testFiles.length).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });

  it("keeps what is not a test in tests/support/, tests/fixtures/ or tests/setup/", () => {
    const stray = allFiles(TESTS).filter((file) => !file.endsWith(".test.ts") && file !== "README.md" && !/^(support|fixtures|setup)\//.test(file));
    expect(stray).toEqual([]);
  });
});

/** Tarjan's strongly connected components. */
function stronglyConnected(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!indices.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, indices.get(target)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!indices.has(node)) visit(node);
  return components;
}
