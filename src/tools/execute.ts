import { soqlQuery } from "./soql-query.js";
import { soslSearch } from "./sosl-search.js";

/** A query in an `<execute>` tag or an `{"action": "execute"}` object: SOSL or SOQL, as a tool call. */
export interface ExecuteRequest {
  readonly tool: string;
  readonly args: { readonly query: string } | { readonly search: string };
  /** The query text (empty when the tag was). */
  readonly text: string;
}

/**
 * CRMArena-Pro's rule for `<execute>`: a text starting with FIND is SOSL, anything else SOQL,
 * after unwrapping a fenced code block and collapsing whitespace as its connector did.
 */
export function executeRequest(text: string): ExecuteRequest {
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  const query = (fence ? fence[1]! : text).replace(/\s+/g, " ").trim();
  return query.startsWith("FIND") ? { tool: soslSearch.name, args: { search: query }, text: query } : { tool: soqlQuery.name, args: { query }, text: query };
}
