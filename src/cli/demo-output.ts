import { SAMPLE } from "../datasets/index.js";

/**
 * Where a demo writes its results: one file per dataset and mode, so a demo on the twins (an
 * 11 MB results file and its 79 MB log) never overwrites the sample demo's, which the docs name.
 */
export function demoResultsFile(dataset: string | undefined, interactive: boolean): string {
  const parts = ["demo", ...(dataset && dataset !== SAMPLE.name ? [dataset] : []), ...(interactive ? ["interactive"] : [])];
  return `${parts.join("-")}-results.json`;
}
