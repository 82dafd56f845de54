/**
 * The first keyword of a SQL text after comments and whitespace, upper-cased.
 * The org accepts only SELECT and WITH statements; this check gives a clear error
 * before SQLite is asked, and the read-only connection backs it up.
 */
export function leadingKeyword(sql: string): string {
  let rest = sql;
  for (;;) {
    const trimmed = rest.replace(/^\s+/, "");
    if (trimmed.startsWith("--")) {
      const newline = trimmed.indexOf("\n");
      rest = newline < 0 ? "" : trimmed.slice(newline + 1);
    } else if (trimmed.startsWith("/*")) {
      const close = trimmed.indexOf("*/");
      rest = close < 0 ? "" : trimmed.slice(close + 2);
    } else {
      rest = trimmed;
      break;
    }
  }
  return (/^[A-Za-z]+/.exec(rest)?.[0] ?? "").toUpperCase();
}
