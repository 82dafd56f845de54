import { countTokens as countO200k } from "gpt-tokenizer";

/** Tokens of a text under the o200k_base encoding (GPT-4o family), a real BPE count. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}
