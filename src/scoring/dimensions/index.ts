import { z } from "zod";
import { DimensionSchema, type Weights } from "../../log/index.js";
import { NamedRegistry, parseOrThrow } from "../../util/index.js";
import { driftAdaptation } from "./drift-adaptation.js";
import { errorRecovery } from "./error-recovery.js";
import { functional } from "./functional.js";
import { hallucinationRate } from "./hallucination-rate.js";
import { queryEfficiency } from "./query-efficiency.js";
import type { DimensionSpec } from "./spec.js";
import { tokenEfficiency } from "./token-efficiency.js";
import { trajectoryEfficiency } from "./trajectory-efficiency.js";

export { type DimensionEvidence, type DimensionSpec, type EvidenceName, efficiency, LOOK_AROUND, type NotApplicable, notApplicable, successOf, type Verdict } from "./spec.js";

/**
 * The built-in dimensions, one registration line each, in the order every list shows them (the
 * results' keys, the report's columns, the validity table's, the leaderboard's). A dimension
 * registered later comes after them.
 */
const BUILT_IN: readonly DimensionSpec[] = [functional, driftAdaptation, tokenEfficiency, queryEfficiency, errorRecovery, trajectoryEfficiency, hallucinationRate];

const registry = new NamedRegistry<DimensionSpec>("dimension", BUILT_IN);

/** What a registration must hold; the scoring function itself is checked by the tests. */
const SpecSchema = z.object({
  name: DimensionSchema,
  description: z.string().min(1),
  reads: z.array(z.string()).min(1),
  defaultWeight: z.number().min(0).finite(),
  whereNotApplicable: z.enum(["renormalise", "success"]),
  columns: z.object({ report: z.string().min(1), validity: z.string().min(1), leaderboard: z.string().min(1) }),
  score: z.custom<DimensionSpec["score"]>((value) => typeof value === "function", { message: "must be a function of the evidence" }),
});

/** Adds a dimension after the registered ones; returns what removes it again (for tests). */
export function registerDimension(spec: DimensionSpec): () => void {
  parseOrThrow(SpecSchema, spec, (fault) => new Error(`dimension ${JSON.stringify(spec.name)}: ${fault}`));
  if (registry.named(spec.name)) throw new Error(`a dimension named ${spec.name} is registered already`);
  for (const column of ["report", "validity", "leaderboard"] as const) {
    const clash = registry.all().find((known) => known.columns[column] === spec.columns[column]);
    if (clash) throw new Error(`dimension ${spec.name}: its ${column} column title ${JSON.stringify(spec.columns[column])} is ${clash.name}'s already`);
  }
  return registry.register(spec);
}

/** The registered dimensions, in order. */
export function dimensionSpecs(): readonly DimensionSpec[] {
  return registry.all();
}

/** The registered dimensions' names, in order. */
export function dimensionNames(): string[] {
  return registry.names();
}

/** The registered dimension of that name; undefined for one this build does not know (a log of another build may name it). */
export function dimensionSpec(name: string): DimensionSpec | undefined {
  return registry.named(name);
}

/**
 * The default weights, each dimension's own. The built-in seven are the predecessor's published
 * weights, which the leaderboard's history was scored with, and sum to 1; a run may set others
 * (config `weights`), and the weights used are written into every result.
 */
export function defaultWeights(): Weights {
  return Object.fromEntries(registry.all().map((spec) => [spec.name, spec.defaultWeight]));
}

/**
 * Names as every list shows them: the registered ones among them in registry order, then those
 * this build does not know in the order given (a log or results file of another build keeps
 * what it recorded, after the dimensions this build knows).
 */
export function orderDimensions(names: Iterable<string>): string[] {
  const given = [...new Set(names)];
  const known = registry.names().filter((name) => given.includes(name));
  return [...known, ...given.filter((name) => !known.includes(name))];
}

/** A dimension's short column title; a dimension this build does not know is shown by its name. */
export function dimensionColumn(name: string, where: keyof DimensionSpec["columns"]): string {
  return dimensionSpec(name)?.columns[where] ?? name;
}
