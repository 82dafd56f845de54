import { z } from "zod";
import { CategorySpecSchema } from "./catalogue.js";

/** A file a dataset downloads: pinned URL (overridable from the environment, for tests and mirrors) and the file name in the cache. */
const DownloadSchema = z.object({ file: z.string().min(1), url: z.url(), urlEnv: z.string().min(1) });

/** How `data fetch` gets a dataset: its task file, and its org with the git blob SHA-1 it must have. */
export const FetchSourcesSchema = z.object({
  tasks: DownloadSchema,
  org: DownloadSchema.extend({ gitBlobSha1: z.string().regex(/^[0-9a-f]{40}$/), sha1Env: z.string().min(1) }),
  /** The data's licence, said when it is downloaded. */
  licence: z.string().min(1),
  /** What the download is, for its progress lines ("CRMArena-Pro B2B tasks"). */
  title: z.string().min(1),
});
export type FetchSources = z.infer<typeof FetchSourcesSchema>;

/**
 * A task set the green agent can host: where its tasks and org are, how they are fetched or
 * generated, and its categories. The org is opened by the org factory from `orgPath` (a CSV
 * folder or a SQLite file today), in one place (data/load.ts), so a dataset on another backend
 * is another location, not another call site.
 */
export const DatasetSpecSchema = z.object({
  /** The name requests use (`config.dataset`) and logs record (`data.dataset`). */
  name: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, "a dataset name is lower-case letters, digits, '.' and '-'"),
  /** The CRMArena-Pro org type the tasks are written for (`config.org_type`). */
  orgType: z.string().min(1),
  description: z.string().min(1),
  /** The task file (CRMArena-Pro's JSON format). */
  tasksPath: z.string().min(1),
  /** The org the tasks run against: a folder of CSV files or a SQLite database. */
  orgPath: z.string().min(1),
  /** The categories, in dataset order; one catalogue per dataset (two datasets may share one). */
  categories: z.array(CategorySpecSchema.extend({ name: z.string().min(1) })).min(1),
  /** Present when `data fetch` downloads the dataset. */
  fetch: FetchSourcesSchema.optional(),
  /**
   * The calibration its runs' efficiency dimensions are measured against, when it is not the
   * default one (data/calibration.json, measured on the sample): a world whose org or wording
   * asks more of a careful agent (the twins' full-size org) has its own, from its own reference.
   */
  calibrationPath: z.string().min(1).optional(),
  /** What an operator does when the files are not there, said when a request names the dataset. */
  whenMissing: z.string().min(1),
});
export type DatasetSpec = z.infer<typeof DatasetSpecSchema>;
