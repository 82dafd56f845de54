/** Text from a results file (purple answers, observations, even category names) is hostile: every string goes through here. */

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes a string for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string | number | boolean | null | undefined): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` are written as Unicode
 * escapes, so no `</script>` or `<!--` in the data can end the element; U+2028/U+2029 likewise.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(value as string | number | boolean | null | undefined);
}

/** `html\`<p>${text}</p>\`` escapes `text`; nested `html` fragments and arrays of them are kept. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup produced by this module's own code (never from the results). */
export function trusted(markup: string): Html {
  return new Html(markup);
}
