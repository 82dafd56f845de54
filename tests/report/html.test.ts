import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultReportPath, readReportAssets } from "../../src/cli/report.js";
import { entropyModel } from "../../src/report/html/index.js";
import { episodeViews, escapeHtml, jsonForScript, parseReportResults, renderReport, reportModel } from "../../src/report/index.js";
import { cliProcess } from "../support/cli-runner.js";
import { fixtureReport, HOSTILE_MARK, RUN_B } from "../support/report-fixture.js";

const scripts = (page: string) => [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);

describe("the HTML report (built without a browser)", () => {
  it("escapes every string of the results: a hostile answer is text", async () => {
    const { html } = await fixtureReport();
    expect(html).not.toContain(HOSTILE_MARK);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;window.__pwned = true; document.title = &quot;pwned&quot;;&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned = true&quot;&gt;");
    expect(escapeHtml(`<a href='x'>&"`)).toBe("&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
    expect(jsonForScript({ text: "</script><!-- \u2028" })).toBe('{"text":"\\u003c/script\\u003e\\u003c!-- \\u2028"}');
  });

  it("is self-contained and lets only its own two scripts run", async () => {
    const { html } = await fixtureReport();
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/sourceMappingURL/);
    const executable = scripts(html);
    expect(executable).toHaveLength(2);
    expect(executable[0]).toContain("Chart.js v4");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    expect(csp).toContain("default-src 'none'");
    for (const source of executable) expect(csp).toContain(`'sha256-${createHash("sha256").update(source, "utf8").digest("base64")}'`);
  });

  it("keeps each full observation once, and only the compact ones without the log", async () => {
    const withLog = await fixtureReport();
    expect(withLog.model.texts.length).toBeGreaterThan(0);
    expect(new Set(withLog.model.texts).size).toBe(withLog.model.texts.length);
    expect(withLog.html).toContain('data-text="0"');
    const compact = await fixtureReport({ log: false, baseline: false });
    expect(compact.model.texts).toEqual([]);
    expect(compact.html).not.toContain("data-text=");
    expect(compact.html).toContain("Compact trajectory from the results (observations cut to 300 characters): --no-log.");
    expect(compact.html).not.toContain('id="comparison"');
  });

  it("shows n/a for a dimension that applies nowhere, in the tables and the charts", async () => {
    const { html, model } = await fixtureReport();
    expect(model.results.dimension_averages.HALLUCINATION_RATE).toBeNull();
    expect(html).toMatch(/data-dimension="HALLUCINATION_RATE"><span class="na">n\/a<\/span>/);
    const chart = model.charts.find((spec) => spec.id === "chart-dimensions")!;
    expect(chart.labels).toContain("HALLUCINATION_RATE (n/a)");
    expect(chart.series[0]!.values[chart.labels.indexOf("HALLUCINATION_RATE (n/a)")]).toBeNull();
  });

  it("shows the chance floor and the lift in the summary and per category, and why they are n/a in results written before the floor", async () => {
    const { html, model } = await fixtureReport();
    const r = model.results;
    expect(r.summary.floor).not.toBeNull();
    expect(html).toContain(`data-figure="floor">${(r.summary.floor! * 100).toFixed(1)}%</div>`);
    expect(html).toContain(`${r.summary.floor_passed} of ${r.summary.total_tasks} tasks: what a zero-work purple passes`);
    expect(html).toContain(`data-figure="lift">${(r.summary.lift! * 100).toFixed(1)}%</div>`);
    for (const [category, group] of Object.entries(r.by_category)) {
      expect(html).toContain(`data-floor="${category}">${(group.floor! * 100).toFixed(1)}%</td>`);
      expect(html).toContain(group.lift === null ? `data-lift="${category}"><span class="na">n/a</span>` : `data-lift="${category}">${(group.lift * 100).toFixed(1)}%</td>`);
    }
    const chart = model.charts.find((spec) => spec.id === "chart-categories")!;
    expect(chart.series.map((series) => series.name)).toEqual(["pass rate %", "chance floor %", "avg score"]);
    // The comparison's per-category lift delta.
    expect(html).toMatch(/data-lift-delta="lead_qualification">/);

    const document = JSON.parse(readFileSync(RUN_B, "utf8")) as { summary: Record<string, unknown>; by_category: Record<string, Record<string, unknown>>; chance_floor?: unknown };
    for (const figures of [document.summary, ...Object.values(document.by_category)]) for (const key of ["floor", "floor_passed", "lift"]) delete figures[key];
    delete document.chance_floor;
    const older = parseReportResults(document, "older results");
    const page = renderReport(reportModel({ results: older, label: "older", source: "compact", episodes: episodeViews(older) }), await readReportAssets());
    expect(page).toMatch(/data-figure="floor"><span class="na">n\/a<\/span><\/div><div class="sub">the results were written before the chance floor was measured/);
    expect(page).toMatch(/data-floor="lead_qualification"><span class="na">n\/a<\/span>/);
    expect(
      reportModel({ results: older, label: "older", source: "compact", episodes: episodeViews(older) }).charts.find((spec) => spec.id === "chart-categories")!.series,
    ).toHaveLength(2);
  });

  it("reads the entropy plan layout too (kinds of perturbation with their org changes)", () => {
    const document = JSON.parse(readFileSync(RUN_B, "utf8")) as Record<string, unknown>;
    document.entropy = {
      version: 1,
      seed: 42,
      only: null,
      drift_level: "high",
      rot_level: "high",
      kinds: [
        {
          kind: "recycle_bin",
          family: "rot",
          level: "high",
          description: "d",
          summary: "2 deleted Cases",
          changes: [{ op: "insert_records", object: "Case", records: [{ Id: "a" }, { Id: "b" }] }],
          text: [],
          distractor_ids: ["a", "b"],
        },
        {
          kind: "renamed_custom_fields",
          family: "drift",
          level: "high",
          description: "d",
          summary: "renamed 1, copied 1",
          changes: [
            { op: "rename_field", object: "Case", from: "Status", to: "Stat" },
            { op: "copy_field", object: "Case", from: "Subject", to: "Subject__c" },
          ],
          text: [{ op: "add_passage", task: 0, title: "t", text: "x" }],
          distractor_ids: [],
        },
      ],
    };
    const results = parseReportResults(document, "plan layout");
    const model = entropyModel(results, episodeViews(results));
    expect(model.injected).toEqual([{ object: "Case", count: 2 }]);
    expect(model.fieldChanges).toEqual([
      {
        object: "Case",
        changes: [
          { kind: "renamed", field: "Status", detail: "Stat" },
          { kind: "copied", field: "Subject", detail: "Subject__c" },
        ],
      },
    ]);
    expect(model.perturbations.map((row) => [row.kind, row.changes, row.textChanges, row.distractors])).toEqual([
      ["recycle_bin", 1, 0, 2],
      ["renamed_custom_fields", 2, 1, 0],
    ]);
    expect(model.other).toEqual([]);
  });

  it("is written by `report` from the command line, beside the results unless --out says where", async () => {
    const out = join(process.env.ENTROPIC_OUTPUT_DIR ?? mkdtempSync(join(tmpdir(), "entropic-report-")), "test-report", "cli.html");
    const { stdout } = await cliProcess(["report", "tests/fixtures/results/b.results.json", "tests/fixtures/results/a.results.json", "--out", out]);
    expect(stdout.startsWith(`Report written to ${out} (`)).toBe(true);
    expect(stdout).toMatch(/ KB\)\. Full trajectory from the run log tests\/fixtures\/results\/b\.jsonl\./);
    const page = readFileSync(out, "utf8");
    expect(page).toContain('<section id="comparison"><h2>Comparison with a.results.json</h2>');
    expect(defaultReportPath("output/run-1.results.json")).toBe("output/run-1.results.report.html");
    expect(defaultReportPath("demo-results.json")).toBe("demo-results.report.html");
  }, 30_000);
});
