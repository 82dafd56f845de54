import type { z } from "zod";
import { RUN_SPEC_VERSION, RunSpecRecordSchema } from "../log/index.js";
import { describeIssue, firstIssue } from "../util/index.js";
import { PACKAGE_VERSION } from "../version.js";
import { type AssessmentConfig, AssessmentConfigSchema, ConfigError } from "./config.js";
import { runIdFor } from "./run-id.js";

/**
 * The run spec: what was asked for, built once at the edge (an A2A request in server/, the
 * command line in cli/) and passed whole to the runner, which logs it in the header. Its layout
 * is the log's (RunSpecRecordSchema, with its `specVersion`); here the config is held to the
 * config schema, so a spec that exists is a valid one.
 */
export const RunSpecSchema = RunSpecRecordSchema.extend({ config: AssessmentConfigSchema });
export type RunSpec = z.infer<typeof RunSpecSchema>;

export interface RunSpecInput {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys?: readonly string[];
  /** What identifies the purple (purpleIdentityOf its card); without it the participant URL stands in. */
  readonly purpleIdentity?: string;
  /** The task file the run's tasks come from: part of the run's id. */
  readonly tasksSource: string;
}

/** The run spec of a parsed config: its run id computed here, the one place a run is named. */
export function runSpecFor(input: RunSpecInput): RunSpec {
  const parsed = RunSpecSchema.safeParse({
    specVersion: RUN_SPEC_VERSION,
    runId: runIdFor({
      participantUrl: input.participantUrl,
      config: input.config,
      tasksSource: input.tasksSource,
      greenVersion: PACKAGE_VERSION,
      ...(input.purpleIdentity ? { purpleIdentity: input.purpleIdentity } : {}),
    }),
    participantUrl: input.participantUrl,
    config: input.config,
    ignoredConfigKeys: [...(input.ignoredConfigKeys ?? [])],
  });
  if (!parsed.success) throw new ConfigError(`run spec: ${describeIssue(firstIssue(parsed.error))}`);
  return parsed.data;
}
