import { z } from "zod";
import { parsePythonList } from "../util/index.js";

/** How CRMArena-Pro scores a task. */
export const RewardMetricSchema = z.enum(["exact_match", "fuzzy_match", "privacy_rejection"]);
export type RewardMetric = z.infer<typeof RewardMetricSchema>;

const AnswerSchema = z.union([z.array(z.union([z.string(), z.number(), z.null()])), z.string()]).transform((value, ctx) => {
  let list: (string | number | null)[];
  if (typeof value === "string") {
    try {
      list = parsePythonList(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `answer is a string that is not a list: ${(error as Error).message}` });
      return z.NEVER;
    }
  } else {
    list = value;
  }
  return list.map((item) => (item === null ? null : String(item)));
});

/** One CRMArena-Pro task record, as in the Hugging Face `tasks_b2b.json` file. */
export const TaskRecordSchema = z.object({
  idx: z.number().int().nonnegative(),
  answer: AnswerSchema,
  task: z.string().min(1),
  persona: z.string(),
  metadata: z.object({
    required: z.string(),
    optional: z.string().default(""),
  }),
  reward_metric: RewardMetricSchema,
  query: z.string(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;
