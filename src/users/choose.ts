import { llmConfigFromEnv, OpenAiProvider } from "../llm/index.js";
import { LlmUser } from "./llm.js";
import { ScriptedUser } from "./scripted.js";
import type { UserSimulator } from "./user.js";

export interface UserChoice {
  /** auto (absent): a model when the cheap provider has a key, else the scripted user. */
  readonly user_simulator?: "auto" | "scripted" | "llm" | undefined;
  readonly user_model?: string | undefined;
}

/**
 * Interactive mode's user from the config and the environment given (the LLM_* / OPENAI_* variables of
 * the judge; the command line passes its own, a run without one gets the offline choice): the cheap provider by default, as CRMArena-Pro runs its user on a small model. Asked
 * for a model with none configured, it says which variable to set rather than falling back quietly.
 */
export function userSimulatorFor(choice: UserChoice, env: Readonly<Record<string, string | undefined>>): UserSimulator {
  const cheap = llmConfigFromEnv(env).cheap;
  const kind = choice.user_simulator ?? "auto";
  if (kind === "scripted" || (kind === "auto" && !cheap.apiKey)) return new ScriptedUser();
  if (!cheap.apiKey)
    throw new Error("user_simulator llm needs a model: set OPENAI_CHEAP_API_KEY or OPENAI_API_KEY (and LLM_CHEAP_BASE_URL for another endpoint), or use user_simulator scripted");
  return new LlmUser(new OpenAiProvider({ ...cheap, ...(choice.user_model ? { model: choice.user_model } : {}) }));
}
