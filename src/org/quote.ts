/** A name quoted as a SQLite identifier. Its own module, so the thread that derives copies imports nothing else for it. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
