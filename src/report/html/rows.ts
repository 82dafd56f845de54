import type { Dimension } from "../../log/index.js";

/** One row of the per-category table and chart. */
export interface CategoryRow {
  readonly category: string;
  readonly count: number;
  readonly passed: number;
  /** 0..1 */
  readonly passRate: number;
  readonly avgScore: number;
  readonly dimensions: Readonly<Record<Dimension, number | null>>;
}
