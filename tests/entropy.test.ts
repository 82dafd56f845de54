import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assess, LEVELS, parseConfig, type AssessmentData } from "../src/assessment/index.js";
import { naiveStrategy, servePurple, solverStrategy, type Strategy } from "../src/baselines/index.js";
import { DRIFT_SHARE, driftText, perturbOrg, planDrift, ROT_SHARE } from "../src/entropy/index.js";
import { A2APurpleClient } from "../src/purple/index.js";
import { entropyDigest } from "./fixtures/entropy-digest.js";
import { calibration, sampleData } from "./helpers.js";

let data: AssessmentData;
let solver: Awaited<ReturnType<typeof servePurple>>;
let naive: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  data = sampleData();
  solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  naive = await servePurple("naive", naiveStrategy, "127.0.0.1", 0);
});
afterAll(async () => {
  solver.server.close();
  naive.server.close();
  await data.org.close();
});

async function run(url: string, config: Record<string, unknown>) {
  const { config: parsed } = parseConfig({ concurrency: 8, ...config });
  return (await assess(data, new A2APurpleClient(url), { participantUrl: url, config: parsed, ignoredConfigKeys: [], calibration })).results;
}

describe("determinism", () => {
  it("gives byte-identical rename maps, injected records and passages across processes", async () => {
    const script = fileURLToPath(new URL("./fixtures/entropy-digest.ts", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, "11", "high", "medium"]);
    expect(stdout).toMatch(/^[0-9a-f]{64}$/);
    expect(stdout).toBe(await entropyDigest(11, "high", "medium"));
    expect(await entropyDigest(12, "high", "medium")).not.toBe(stdout);
  }, 60_000);

  it("different seeds give different rename maps", () => {
    const maps = new Set(Array.from({ length: 40 }, (_, seed) => JSON.stringify(planDrift(data.org.schema, "medium", seed))));
    expect(maps.size).toBe(40);
  });
});

describe("schema drift", () => {
  for (const level of LEVELS) {
    it(`renames the ${level} share of every object's columns with valid, fresh, unique names`, () => {
      const renames = planDrift(data.org.schema, level, 5);
      const originals = new Set(data.org.schema.objects.flatMap((object) => object.fields.map((field) => field.name.toLowerCase())));
      for (const object of data.org.schema.objects) {
        const map = renames[object.name] ?? {};
        const renamed = Object.keys(map).length;
        if (level === "none") expect(renamed).toBe(0);
        else expect(renamed).toBeGreaterThanOrEqual(Math.min(object.fields.length - (level === "high" ? 0 : 1), Math.max(1, Math.round(DRIFT_SHARE[level] * object.fields.length))));
        if (level !== "high") expect(map.Id).toBeUndefined();
        const names = Object.values(map);
        expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
        for (const name of names) {
          expect(name).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
          expect(["desc", "asc", "order", "group", "limit", "select", "from", "where", "end", "count", "min", "max", "name", "email", "phone"]).not.toContain(name.toLowerCase());
          expect(originals.has(name.toLowerCase())).toBe(false);
        }
      }
      const all = data.org.schema.objects.reduce((sum, object) => sum + object.fields.length, 0);
      const share = Object.values(renames).reduce((sum, map) => sum + Object.keys(map).length, 0) / all;
      expect(share).toBeGreaterThanOrEqual(DRIFT_SHARE[level]);
      expect(share).toBeLessThanOrEqual(DRIFT_SHARE[level] + 0.25);
    });
  }

  it("rewrites API names in a task's text and leaves prose words alone", () => {
    const renames = { Contract: { CompanySignedDate: "CompanyExecutedDate", Status: "State" }, Opportunity: { ContractID__c: "AgreementID__c" } };
    const { text, renamed } = driftText("An opportunity is eligible if its contract (Opportunity.ContractID__c) has a CompanySignedDate; check the Status.", renames);
    expect(text).toBe("An opportunity is eligible if its contract (Opportunity.AgreementID__c) has a CompanyExecutedDate; check the Status.");
    expect(renamed).toEqual(["CompanySignedDate", "ContractID__c"]);
  });

  it("serves only the drifted schema: original names are errors, values unchanged", async () => {
    const world = perturbOrg(data.org, "high", "none", 3);
    try {
      const [object, map] = Object.entries(world.renames).find(([, m]) => Object.keys(m).some((name) => name !== "Id"))!;
      const [original, drifted] = Object.entries(map).find(([name]) => name !== "Id")!;
      const idField = map.Id ?? "Id";
      const stale = await world.org.query(`SELECT "${original}" FROM "${object}"`);
      expect(stale).toMatchObject({ ok: false, code: "SQL_ERROR" });
      const before = await data.org.query(`SELECT "${original}" AS v FROM "${object}" ORDER BY "Id"`);
      const after = await world.org.query(`SELECT "${drifted}" AS v FROM "${object}" ORDER BY "${idField}"`);
      expect(after.ok && after.rows).toEqual(before.ok && before.rows);
      const field = world.org.findObject(object)!.fields.find((candidate) => candidate.name === drifted)!;
      expect(field.label).toBe(data.org.findObject(object)!.fields.find((candidate) => candidate.name === original)!.label);
    } finally {
      await world.org.close();
    }
  });
});

describe("context rot", () => {
  for (const level of LEVELS) {
    it(`adds the ${level} dose of deleted near-duplicates, and IsDeleted everywhere`, async () => {
      const world = perturbOrg(data.org, "none", level, 9);
      try {
        for (const object of data.org.schema.objects) {
          expect(world.org.findObject(object.name)!.fields.some((field) => field.name === "IsDeleted" && field.type === "boolean")).toBe(true);
          const counts = await world.org.query(`SELECT SUM(IsDeleted = 0) AS live, SUM(IsDeleted = 1) AS deleted FROM "${object.name}"`);
          expect(counts.ok && counts.rows[0]!.live).toBe(object.rowCount);
          const expected = level === "none" || object.rowCount === 0 ? 0 : Math.max(1, Math.round(ROT_SHARE[level] * object.rowCount));
          expect(counts.ok && (counts.rows[0]!.deleted ?? 0)).toBe(expected);
        }
        expect(world.distractorIds.size).toBe(Object.values(world.injected).reduce((sum, n) => sum + n, 0));
      } finally {
        await world.org.close();
      }
    });
  }
});

describe("fairness: a careful agent still solves every task", () => {
  for (const seed of [1, 2, 3]) {
    it(`the solver passes 100% at every drift and rot level, seed ${seed}`, async () => {
      for (const drift of LEVELS) {
        for (const rot of LEVELS) {
          const results = await run(solver.url, { drift_level: drift, rot_level: rot, seed });
          const failures = results.results.filter((entry) => !entry.success).map((entry) => `${entry.task_idx} ${entry.task_category}`);
          expect(failures, `drift ${drift}, rot ${rot}, seed ${seed}`).toEqual([]);
          expect(results.entropy).toMatchObject({ seed, drift_level: drift, rot_level: rot });
        }
      }
    }, 300_000);
  }
});

describe("bite: a naive agent loses", () => {
  it("drops at medium and high, and its drift adaptation shows it", async () => {
    const baseline = await run(naive.url, { drift_level: "none", rot_level: "none", seed: 4 });
    expect(baseline.summary.total_passed).toBe(baseline.summary.total_tasks);
    for (const level of ["medium", "high"] as const) {
      const results = await run(naive.url, { drift_level: level, rot_level: level, seed: 4 });
      expect(results.summary.pass_rate).toBeLessThan(0.7);
      expect(results.dimension_averages.DRIFT_ADAPTATION).toBeLessThan(100);
      expect(Object.keys(results.entropy.rename_map as object).length).toBeGreaterThan(0);
      expect(Object.keys(results.entropy.injected_records as object).length).toBeGreaterThan(0);
    }
    const rotOnly = await run(naive.url, { drift_level: "none", rot_level: "high", seed: 4 });
    expect(rotOnly.summary.total_passed).toBeLessThan(rotOnly.summary.total_tasks);
  }, 120_000);

  it("counts an answer built on a deleted record as a hallucination", async () => {
    const trap: Strategy = async (_task, tools) => {
      const [row] = await tools.soql("SELECT Id FROM Case WHERE IsDeleted = true LIMIT 1 ALL ROWS");
      return String(row!.Id);
    };
    const purple = await servePurple("trap", trap, "127.0.0.1", 0);
    try {
      const results = await run(purple.url, { task_ids: [18], rot_level: "medium", seed: 4 });
      const [entry] = results.results;
      expect("entropy_events" in entry! && entry.entropy_events.distractor_ids_in_answer).toHaveLength(1);
      expect("dimension_scores" in entry! && (entry.dimension_scores as Record<string, number>).HALLUCINATION_RATE).toBe(0);
    } finally {
      purple.server.close();
    }
  });
});
