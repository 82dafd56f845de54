import type { Dimension } from "../../log/index.js";
import type { Comparison } from "../compare.js";
import type { ReportResults } from "../view/index.js";
import type { EntropyModel } from "./entropy.js";
import type { CategoryRow } from "./rows.js";

/** A bar chart, drawn in the page by Chart.js from this description. Null values are shown as n/a. */
export interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly labels: readonly string[];
  readonly series: readonly { readonly name: string; readonly values: readonly (number | null)[] }[];
  /** The value axis' maximum (100 for scores and rates in %), or null to fit the data. */
  readonly max: number | null;
  readonly unit: string;
  /** Bars along the y axis (for long category lists). */
  readonly horizontal: boolean;
}

const round = (value: number | null, digits = 1) => (value === null ? null : Number(value.toFixed(digits)));

/** Labels of bars whose every value is null get " (n/a)", so the gap reads as not applicable, not as zero. */
function naLabels(labels: readonly string[], series: ChartSpec["series"]): string[] {
  return labels.map((label, i) => (series.every((s) => s.values[i] === null) ? `${label} (n/a)` : label));
}

function chart(spec: Omit<ChartSpec, "labels"> & { labels: readonly string[] }): ChartSpec {
  return { ...spec, labels: naLabels(spec.labels, spec.series) };
}

export function chartSpecs(
  results: ReportResults,
  dimensions: readonly Dimension[],
  categories: readonly CategoryRow[],
  injected: EntropyModel["injected"],
  comparison: Comparison | null,
): ChartSpec[] {
  const names = categories.map((row) => row.category);
  const charts: ChartSpec[] = [
    chart({
      id: "chart-dimensions",
      title: "The dimensions (mean over the episodes where each applies)",
      labels: [...dimensions],
      series: [{ name: "score", values: dimensions.map((d) => round(results.dimension_averages[d] ?? null)) }],
      max: 100,
      unit: "",
      horizontal: false,
    }),
    chart({
      id: "chart-categories",
      title: categories.some((row) => row.floor !== null) ? "Pass rate, chance floor and average score per category" : "Pass rate and average score per category",
      labels: names,
      series: [
        { name: "pass rate %", values: categories.map((row) => round(row.passRate * 100)) },
        // Beside the pass rate, so that a bar is read against what no work would have passed.
        ...(categories.some((row) => row.floor !== null)
          ? [{ name: "chance floor %", values: categories.map((row) => (row.floor === null ? null : round(row.floor * 100))) }]
          : []),
        { name: "avg score", values: categories.map((row) => round(row.avgScore)) },
      ],
      max: 100,
      unit: "",
      horizontal: true,
    }),
    ...dimensions.map((dimension) =>
      chart({
        id: `chart-dimension-${dimension}`,
        title: dimension,
        labels: names,
        series: [{ name: dimension, values: categories.map((row) => round(row.dimensions[dimension] ?? null)) }],
        max: 100,
        unit: "",
        horizontal: true,
      }),
    ),
  ];
  if (injected.length > 0) {
    charts.push(
      chart({
        id: "chart-injected",
        title: "Distractor records injected by rot, per object",
        labels: injected.map((entry) => entry.object),
        series: [{ name: "records", values: injected.map((entry) => entry.count) }],
        max: null,
        unit: "",
        horizontal: true,
      }),
    );
  }
  const robustness = results.robustness;
  if (robustness) {
    const rows = Object.entries(robustness.by_category);
    charts.push(
      chart({
        id: "chart-robustness",
        title: "Pass rate per category, clean and perturbed (%)",
        labels: rows.map(([category]) => category),
        series: [
          { name: "clean %", values: rows.map(([, figures]) => (figures.clean.pass_rate === null ? null : round(figures.clean.pass_rate * 100))) },
          { name: "perturbed %", values: rows.map(([, figures]) => (figures.perturbed.pass_rate === null ? null : round(figures.perturbed.pass_rate * 100))) },
        ],
        max: 100,
        unit: "%",
        horizontal: true,
      }),
    );
  }
  if (comparison) {
    const [before, after] = [`${comparison.before.label} (baseline)`, comparison.after.label];
    charts.push(
      chart({
        id: "chart-compare-dimensions",
        title: "Dimensions: baseline and this run",
        labels: [...comparison.dimensionNames],
        series: [
          { name: before, values: comparison.dimensionNames.map((d) => round(comparison.dimensions[d]!.before)) },
          { name: after, values: comparison.dimensionNames.map((d) => round(comparison.dimensions[d]!.after)) },
        ],
        max: 100,
        unit: "",
        horizontal: false,
      }),
      chart({
        id: "chart-compare-categories",
        title: "Pass rate per category (%): baseline and this run",
        labels: comparison.categories.map((c) => c.category),
        series: [
          { name: before, values: comparison.categories.map((c) => round(c.passRate.before === null ? null : c.passRate.before * 100)) },
          { name: after, values: comparison.categories.map((c) => round(c.passRate.after === null ? null : c.passRate.after * 100)) },
        ],
        max: 100,
        unit: "%",
        horizontal: true,
      }),
    );
  }
  return charts;
}
