import { EntropicError, type ErrorDetails } from "../util/index.js";
import { CUSTOM_DATASET, CUSTOM_ORG_TYPE, datasetNamed, datasets } from "./registry.js";
import type { DatasetSpec } from "./spec.js";

/** A request's data choice that cannot be served; the message starts with the config field. */
export class DatasetChoiceError extends EntropicError {
  override readonly name = "DatasetChoiceError";
  constructor(message: string, details?: ErrorDetails) {
    super("config", message, details);
  }
}

/** The registered dataset of that name, or a refusal that names `field` and the datasets there are. */
export function datasetCalled(name: string, field: string): DatasetSpec {
  const spec = datasetNamed(name);
  if (!spec)
    throw new DatasetChoiceError(
      `${field}: unknown dataset '${name}'; the datasets are ${datasets()
        .map((entry) => entry.name)
        .join(", ")}`,
    );
  return spec;
}

/** The org type of loaded data: its dataset's, or the benchmark's for custom paths. */
export function orgTypeOf(kind: string): string {
  return kind === CUSTOM_DATASET ? CUSTOM_ORG_TYPE : (datasetNamed(kind)?.orgType ?? CUSTOM_ORG_TYPE);
}

/**
 * Which data a request runs on: `"default"` (what the server or command loaded at start: flags,
 * ENTROPIC_TASKS / ENTROPIC_ORG, fetched data, else the sample) or a registered dataset's name.
 *
 * - `config.dataset` names a dataset: that one, whose org type must be `config.org_type`.
 * - else `config.org_type` is the default data's: the default data.
 * - else the first registered dataset of that org type (a b2c request on a b2b server, once a
 *   b2c folder is registered).
 */
export function chooseDataset(config: { readonly dataset?: string | undefined; readonly org_type: string }, defaultKind: string): "default" | string {
  if (config.dataset !== undefined) {
    const spec = datasetCalled(config.dataset, "config.dataset");
    if (spec.orgType !== config.org_type)
      throw new DatasetChoiceError(`config.org_type: dataset '${spec.name}' holds ${spec.orgType} tasks, so org_type must be '${spec.orgType}' (got '${config.org_type}')`);
    return spec.name === defaultKind ? "default" : spec.name;
  }
  if (config.org_type === orgTypeOf(defaultKind)) return "default";
  const candidate = datasets().find((spec) => spec.orgType === config.org_type);
  if (!candidate) {
    const types = [...new Set(datasets().map((spec) => spec.orgType))];
    throw new DatasetChoiceError(
      `config.org_type: no dataset of org type '${config.org_type}' is hosted by this green agent (the org types are ${types.join(", ")}); a new one is a folder under src/datasets/ (docs/extending.md)`,
    );
  }
  return candidate.name;
}
