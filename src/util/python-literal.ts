/**
 * Parses the Python `str()` form of a flat list (`"['a', \"b\", None]"`), which some
 * upstream CRMArena-Pro files use for `answer` instead of a JSON list.
 */
export function parsePythonList(text: string): (string | null)[] {
  const source = text.trim();
  if (!source.startsWith("[") || !source.endsWith("]")) {
    throw new Error(`expected a list literal such as ['a', 'b'], got ${JSON.stringify(source.slice(0, 60))}`);
  }
  const items: (string | null)[] = [];
  let i = 1;
  const end = source.length - 1;
  const skipSpace = () => {
    while (i < end && /\s/.test(source[i]!)) i++;
  };
  while (true) {
    skipSpace();
    if (i >= end) break;
    const ch = source[i]!;
    if (ch === "'" || ch === '"') {
      let value = "";
      i++;
      while (i < end && source[i] !== ch) {
        if (source[i] === "\\" && i + 1 < end) {
          const next = source[i + 1]!;
          value += next === "n" ? "\n" : next === "t" ? "\t" : next;
          i += 2;
        } else {
          value += source[i++];
        }
      }
      if (source[i] !== ch) throw new Error("unterminated string in list literal");
      i++;
      items.push(value);
    } else {
      const match = /^[^,\]]+/.exec(source.slice(i, end));
      const token = (match?.[0] ?? "").trim();
      if (token === "None") items.push(null);
      else if (/^-?\d+(\.\d+)?$/.test(token)) items.push(token);
      else throw new Error(`unexpected token ${JSON.stringify(token)} in list literal`);
      i += match?.[0].length ?? 0;
    }
    skipSpace();
    if (i < end && source[i] === ",") i++;
    else if (i < end) throw new Error(`expected ',' at position ${i} of list literal`);
  }
  return items;
}

/**
 * Python's `str()` of a JSON-like value: how CRMArena-Pro shows records to agents
 * (`[{'Id': '500...', 'Amount': 5.5, 'ClosedDate': None}]`) and how the predecessor
 * wrote `expected_answer`.
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return pythonStringRepr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : value > 0 ? "inf" : value < 0 ? "-inf" : "nan";
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`);
    return `{${entries.join(", ")}}`;
  }
  return pythonStringRepr(String(value));
}

/** Python's `repr()` of a str: single quotes unless the text has a single quote and no double quote. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else out += ch;
  }
  return out + quote;
}
