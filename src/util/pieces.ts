/**
 * Where a piece of at most `size` characters of `text`, starting at `at`, ends (one more when that
 * keeps a surrogate pair together): each piece then encodes, or escapes as JSON, exactly as it
 * would within the whole text.
 */
export function pieceEnd(text: string, at: number, size: number): number {
  const end = Math.min(at + size, text.length);
  const last = text.charCodeAt(end - 1);
  const next = text.charCodeAt(end);
  return end < text.length && last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? end + 1 : end;
}
