import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../../src/assessment/index.js";
import { servePurple, solverStrategy } from "../../../src/baselines/index.js";
import { A2APurpleClient } from "../../../src/purple/index.js";
import { entropyModel } from "../../../src/report/html/index.js";
import { episodeViews, parseReportResults, renderReport, reportModel } from "../../../src/report/index.js";
import { calibration, sampleData } from "../../support/helpers.js";

const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

describe("the report's drift and rot section", () => {
  it("shows what drift and rot did in a real high/high run, with the counts of the results' entropy summary", async () => {
    const { server, url } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ drift_level: "high", rot_level: "high", seed: 7, task_limit: 12, concurrency: 4 });
      const { results } = await assess(data, new A2APurpleClient(url), { spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }), calibration });
      // Through JSON, as `report` reads a results file.
      const input = parseReportResults(JSON.parse(JSON.stringify(results)), "results.json");
      const model = entropyModel(input, episodeViews(input));
      const kinds = results.entropy.kinds;
      const renamed = kinds.reduce((sum, kind) => sum + kind.renamed.length, 0);
      const deprecated = kinds.reduce((sum, kind) => sum + kind.deprecated.length, 0);
      const added = kinds.reduce((sum, kind) => sum + kind.added_fields.length, 0);
      const records = kinds.reduce((sum, kind) => sum + Object.values(kind.records).reduce((a, b) => a + b, 0), 0);
      expect(renamed).toBeGreaterThan(0);
      expect(records).toBeGreaterThan(0);
      const changes = (what: string) => model.fieldChanges.reduce((sum, object) => sum + object.changes.filter((change) => change.kind === what).length, 0);
      expect(changes("renamed")).toBe(renamed);
      expect(changes("annotated")).toBe(deprecated);
      expect(changes("added")).toBe(added);
      expect(model.injected.reduce((sum, entry) => sum + entry.count, 0)).toBe(records);
      expect(model.perturbations.map((row) => row.kind)).toEqual(kinds.map((kind) => kind.kind));
      for (const [i, kind] of kinds.entries()) {
        expect(model.perturbations[i]!.distractors, kind.kind).toBe(kind.distractor_records);
        expect(model.perturbations[i]!.textChanges, kind.kind).toBe(kind.tasks_with_text);
      }
      const html = renderReport(reportModel({ results: input, label: "results.json", source: "the results", episodes: episodeViews(input) }), { chartJs: "" });
      const fields = changes("renamed") + changes("annotated") + changes("added");
      expect(html).toContain(
        `drift changed ${fields} fields of ${model.fieldChanges.length} objects; rot injected ${records} distractor records into ${model.injected.length} objects`,
      );
      expect(fields).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  }, 60_000);
});
