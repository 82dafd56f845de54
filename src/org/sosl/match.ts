import type { SearchExpr } from "./parse.js";

/**
 * SOSL's token matching, run where the search's SQL runs: registered as the SQL function
 * `sosl_match(expression, text, ...)` on every database a search reaches (the query processes'
 * images, a rows backend's in-process copy). A search term is a regular expression over the
 * record's text, and a purple writes the terms: `a*a*a*a*a*a*b` backtracks for seconds. In the
 * query pool it runs inside the statement, under the statement's time limit, and a process stuck
 * in it is killed like one stuck in SQLite; the server's event loop never runs it.
 */
export const SOSL_MATCH_FUNCTION = "sosl_match";

function escapeRegex(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, "\\$&");
}

/** A term's token pattern: `*` is any run of characters (a run of stars is one), `?` exactly one. */
function termPattern(term: string): string {
  return escapeRegex(term.replace(/\*+/g, "*")).replace(/\*/g, "[\\p{L}\\p{N}]*").replace(/\?/g, "[\\p{L}\\p{N}]");
}

type Compiled =
  | { readonly kind: "pattern"; readonly pattern: RegExp }
  | { readonly kind: "and" | "or"; readonly left: Compiled; readonly right: Compiled }
  | { readonly kind: "not"; readonly expr: Compiled };

function compile(expr: SearchExpr): Compiled {
  switch (expr.kind) {
    case "term":
      return { kind: "pattern", pattern: new RegExp(`(?<![\\p{L}\\p{N}])${termPattern(expr.text)}(?![\\p{L}\\p{N}])`, "iu") };
    case "phrase":
      return { kind: "pattern", pattern: new RegExp(`(?<![\\p{L}\\p{N}])${expr.words.map(termPattern).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "iu") };
    case "and":
    case "or":
      return { kind: expr.kind, left: compile(expr.left), right: compile(expr.right) };
    case "not":
      return { kind: "not", expr: compile(expr.expr) };
  }
}

function test(compiled: Compiled, texts: readonly string[]): boolean {
  switch (compiled.kind) {
    case "pattern":
      return texts.some((text) => compiled.pattern.test(text));
    case "and":
      return test(compiled.left, texts) && test(compiled.right, texts);
    case "or":
      return test(compiled.left, texts) || test(compiled.right, texts);
    case "not":
      return !test(compiled.expr, texts);
  }
}

/** Does the record's text (all searched fields) satisfy the expression, token by token? */
export function matches(expr: SearchExpr, texts: readonly string[]): boolean {
  return test(compile(expr), texts);
}

/** The expressions of the searches last run, compiled once each (a search calls the function once per candidate row). */
const compiledCache = new Map<string, Compiled>();

/** The body of the SQL function: 1 when the texts match the expression (as JSON), else 0. */
export function soslMatchSql(expression: unknown, ...texts: unknown[]): number {
  const key = String(expression);
  let compiled = compiledCache.get(key);
  if (!compiled) {
    compiled = compile(JSON.parse(key) as SearchExpr);
    if (compiledCache.size >= 64) compiledCache.delete(compiledCache.keys().next().value!);
    compiledCache.set(key, compiled);
  }
  return test(
    compiled,
    texts.map((text) => (text === null || text === undefined ? "" : String(text))),
  )
    ? 1
    : 0;
}

/** Registers `sosl_match` on a better-sqlite3 database. */
export function registerSoslMatch(db: { function(name: string, options: { varargs: boolean; deterministic: boolean }, fn: (...args: unknown[]) => unknown): unknown }): void {
  db.function(SOSL_MATCH_FUNCTION, { varargs: true, deterministic: true }, (expression, ...texts) => soslMatchSql(expression, ...texts));
}
