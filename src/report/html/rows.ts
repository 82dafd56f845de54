import type { Dimension } from "../../log/index.js";

/** One row of the per-category table and chart. */
export interface CategoryRow {
  readonly category: string;
  readonly count: number;
  readonly passed: number;
  /** 0..1 */
  readonly passRate: number;
  readonly avgScore: number;
  /** 0..1: the chance floor of the category's tasks; null when the results have none. */
  readonly floor: number | null;
  /** (pass − floor) / (1 − floor); null with the floor unknown or 1. */
  readonly lift: number | null;
  readonly dimensions: Readonly<Record<Dimension, number | null>>;
}
