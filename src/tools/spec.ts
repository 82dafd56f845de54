import type { z } from "zod";
import type { Capability, QueryContext, ToolOutcome, ToolPort } from "./port.js";

/** Arguments as parsed by a tool's zod schema. */
export type ToolArgs = Record<string, unknown>;

/**
 * One purple tool, whole: what the purple is told (name, description, the JSON schema generated
 * from `parameters`), how its arguments are checked (`arguments`), what the backend needs to run
 * it, and how the rest of the green treats its calls (queries, trimming, display). Protocol, org
 * view, episode, compact results, scoring and the baselines all read these fields; none of them
 * names a tool.
 */
interface ToolSpecBase<Args extends ToolArgs> {
  readonly name: string;
  readonly description: string;
  /** The checks at the boundary: a call whose arguments fail them is an invalid action, named by field. */
  readonly arguments: z.ZodType<Args>;
  /** What the purple is shown, when it differs from `arguments` (respond shows one form of several it accepts). */
  readonly parameters?: z.ZodType;
  /** An example call in the "Invalid action" reminder; of the offered tools sharing a slot, the lowest rank is shown. */
  readonly reminder?: { readonly slot: string; readonly rank: number; readonly args: ToolArgs };
}

/** A tool the org answers. */
export interface OrgToolSpec<Args extends ToolArgs = ToolArgs> extends ToolSpecBase<Args> {
  readonly final: false;
  /** Capabilities the backend must have for the tool to be offered. */
  readonly requires: readonly Capability[];
  /** The text a call reads data with (SQL, SOQL, SOSL), which counts it as a query; undefined for a call that is no query. */
  queryText(args: Args): string | undefined;
  /** The call with its long texts cut as memory and the results keep them. */
  trim(args: Args, cut: (text: string) => string): Args;
  /** The call in one line, for compact trajectories and reports (`soql_query: SELECT …`). */
  show(args: Args): string;
  run(args: Args, port: ToolPort, context: QueryContext): Promise<ToolOutcome>;
}

/** The tool that ends the episode with an answer. */
export interface AnswerToolSpec<Args extends ToolArgs = ToolArgs> extends ToolSpecBase<Args> {
  readonly final: true;
  /** The answer the call gives (a value of any JSON type; the protocol turns it into text). */
  answerOf(args: Args): unknown;
}

export type ToolSpec<Args extends ToolArgs = ToolArgs> = OrgToolSpec<Args> | AnswerToolSpec<Args>;

/** Checks a tool module at compile time against its own argument type, then erases it for the registry. */
export function defineTool<Args extends ToolArgs>(spec: OrgToolSpec<Args>): OrgToolSpec;
export function defineTool<Args extends ToolArgs>(spec: AnswerToolSpec<Args>): AnswerToolSpec;
export function defineTool<Args extends ToolArgs>(spec: ToolSpec<Args>): ToolSpec {
  return spec as unknown as ToolSpec;
}
