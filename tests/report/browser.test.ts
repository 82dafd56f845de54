import { existsSync, mkdtempSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportModel } from "../../src/report/index.js";
import { fixtureReport, HOSTILE_MARK } from "../support/report-fixture.js";

/** Debian's Chromium: .ci/run installs it; playwright-core downloads no browser of its own. */
const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"];
/** Under the test run's output folder (vitest.config.ts), never the user's output/. */
const OUT = join(process.env.ENTROPIC_OUTPUT_DIR ?? mkdtempSync(join(tmpdir(), "entropic-report-")), "test-report/");
const available = existsSync(CHROMIUM);
if (!available) console.warn(`report/browser.test.ts skipped: ${CHROMIUM} is absent (apt-get install chromium, as .ci/run does, to run it)`);

describe.skipIf(!available)(`the HTML report in headless Chromium${available ? "" : ` (skipped: ${CHROMIUM} is absent)`}`, () => {
  let context: BrowserContext;
  let page: Page;
  let model: ReportModel;
  let profile: string;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const report = await fixtureReport();
    model = report.model;
    await mkdir(OUT, { recursive: true });
    const file = join(OUT, "report.html");
    await writeFile(file, report.html);
    profile = await mkdtemp(join(tmpdir(), "report-chromium-"));
    // A persistent context is playwright's way to give Chromium a fresh --user-data-dir of our choosing.
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("html[data-ready]", { timeout: 10_000 });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("loads from file:// without console errors or network requests", () => {
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith("file:") && !url.startsWith("data:"))).toEqual([]);
  });

  it("draws every chart with Chart.js on a canvas of non-zero size", async () => {
    const charts = await page.$$eval("canvas", (canvases) =>
      canvases.map((canvas) => {
        const box = canvas.getBoundingClientRect();
        const chart = (window as unknown as { Chart: { getChart(canvas: HTMLCanvasElement): unknown } }).Chart.getChart(canvas);
        return { id: canvas.id, width: box.width, height: box.height, drawn: chart !== undefined };
      }),
    );
    expect(charts.map((chart) => chart.id).sort()).toEqual(model.charts.map((spec) => spec.id).sort());
    for (const chart of charts) expect(chart, chart.id).toMatchObject({ drawn: true, width: expect.any(Number), height: expect.any(Number) });
    expect(charts.every((chart) => chart.width > 100 && chart.height > 100)).toBe(true);
  });

  it("shows the numbers of the results file", async () => {
    const results = model.results;
    expect(await page.textContent('[data-figure="pass-rate"]')).toBe(`${(results.summary.pass_rate * 100).toFixed(1)}%`);
    expect(await page.textContent('[data-figure="avg-score"]')).toBe(results.summary.avg_score.toFixed(1));
    expect(await page.textContent('[data-figure="floor"]')).toBe(`${(results.summary.floor! * 100).toFixed(1)}%`);
    expect(await page.textContent('[data-figure="lift"]')).toBe(`${(results.summary.lift! * 100).toFixed(1)}%`);
    const category = "confidential_company_knowledge";
    expect(await page.textContent(`[data-avg-score="${category}"]`)).toBe(results.by_category[category]!.avg_score.toFixed(1));
    const refusal = results.results.find((task) => task.task_idx === "10")!;
    expect(await page.textContent('[data-answer="10"]')).toBe(refusal.agent_answer);
    expect(await page.textContent('table[data-comparison="overall"]')).toContain("−75.0 pp");
  });

  it("filters the episodes by outcome, termination and category", async () => {
    const visible = () => page.$$eval("details.episode", (elements) => elements.filter((element) => !(element as HTMLElement).hidden).length);
    expect(await visible()).toBe(4);
    await page.click('[data-outcome-filter="fail"]');
    expect(await visible()).toBe(3);
    expect(await page.textContent("#episode-count")).toBe("3 of 4 episodes");
    await page.selectOption("#filter-termination", "max_steps");
    expect(await visible()).toBe(1);
    expect(await page.isVisible("#task-22")).toBe(true);
    await page.click("#filter-reset");
    await page.selectOption("#filter-category", "confidential_company_knowledge");
    expect(await visible()).toBe(1);
    await page.click('[data-outcome-filter="fail"]');
    expect(await visible()).toBe(0);
    await page.click("#filter-reset");
    expect(await visible()).toBe(4);
  });

  it("opens a full observation from the log on demand", async () => {
    await page.click("#task-22 > summary");
    const full = page.locator("#task-22 details.full").first();
    expect(await full.locator("pre").textContent()).toBe("");
    await full.locator("summary").click();
    // The page fills the text in on the `toggle` event, which fires after the click.
    await expect.poll(() => full.locator("pre").textContent()).not.toBe("");
    const text = await full.locator("pre").textContent();
    expect(text?.length ?? 0).toBeGreaterThan(300);
    expect(model.texts).toContain(text);
  });

  it("shows a hostile <script> answer as text and never runs it", async () => {
    await page.click("#task-8 > summary");
    expect(await page.textContent('[data-answer="8"]')).toContain(HOSTILE_MARK);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.title()).not.toBe("pwned");
    expect(await page.$$eval("#episode-list script, #episode-list img", (elements) => elements.length)).toBe(0);
    await page.screenshot({ path: join(OUT, "report-browser.png"), fullPage: false });
    expect(existsSync(join(OUT, "report-browser.png"))).toBe(true);
  });
});
