import type { IncomingHttpHeaders } from "node:http";

/*
 * What the green repeats of a reply from a participant URL: its HTTP status and its content type,
 * nothing more. A participant URL can name any address the green can reach; were the green to
 * quote a body, a header or a value from it in a rejection or the results, a client could read
 * that address through the green (a reflected read). So messages give a reply's status, its media
 * type (when it is one) and its size, never what it says, where it redirects, or the values in it.
 */

/** The longest media type a message repeats: `application/vnd.something+json` fits. */
const MEDIA_TYPE_CHARS = 80;

/** A reply's content type as a message shows it: its media type (parameters dropped), or that it had none or an odd one. */
export function shownContentType(headers: IncomingHttpHeaders): string {
  const raw = headers["content-type"];
  if (raw === undefined) return "no content-type";
  const media = String(raw).split(";")[0]!.trim().toLowerCase();
  return media.length <= MEDIA_TYPE_CHARS && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(media) ? media : "an unrecognised content-type";
}

/** A reply as a message describes it without its content: media type and size. */
export function shownBody(headers: IncomingHttpHeaders, body: Buffer): string {
  return `${shownContentType(headers)}, ${body.byteLength} bytes`;
}
