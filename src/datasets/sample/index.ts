import { B2B_CATALOGUE } from "../b2b/categories.js";
import { DATA_DIR } from "../paths.js";
import type { DatasetSpec } from "../spec.js";

/**
 * The bundled sample: a seeded synthetic org with the real one's schema and two generated tasks
 * per B2B category, each answer computed from the records: src/sample/ generates it, and
 * `entropic-crmarena org synth --out data/sample` writes it again (seed 42, scale 0.1). It runs
 * offline, and the validity suite runs on it.
 */
export const SAMPLE = {
  name: "sample",
  orgType: "b2b",
  description: "the bundled sample org and tasks (generated, not the real CRMArena-Pro data)",
  tasksPath: `${DATA_DIR}sample/tasks.json`,
  orgPath: `${DATA_DIR}sample/org`,
  categories: [...B2B_CATALOGUE],
  whenMissing: "the bundled sample is part of the package: reinstall it, or regenerate it with `entropic-crmarena org synth --out data/sample`",
} as const satisfies DatasetSpec;
