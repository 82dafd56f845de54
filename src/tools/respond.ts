import { z } from "zod";
import { defineTool } from "./spec.js";

const ANSWER = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])), z.null()]);

export const respond = defineTool({
  name: "respond",
  final: true,
  description: "Give the final answer and end the task. Only the answer: several values comma-separated, None when nothing matches.",
  // `content` is tau2-bench's name for the same argument; purples built on its conventions use it.
  arguments: z
    .object({ answer: ANSWER.optional(), content: ANSWER.optional() })
    .strict()
    .refine((args) => "answer" in args || "content" in args, { message: "respond needs 'answer' (or its alias 'content')", path: ["answer"] })
    .transform((args) => ({ answer: "answer" in args ? args.answer : args.content })),
  // Shown as the one form wanted; numbers, lists, null and the `content` alias are accepted too, for purples that send them.
  parameters: z.object({ answer: z.string().describe("The final answer.") }),
  answerOf: (args) => args.answer,
  reminder: { slot: "answer", rank: 3, args: { answer: "..." } },
});
