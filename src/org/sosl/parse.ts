import { SalesforceError } from "../soql/errors.js";

/** A SOSL search expression: terms and phrases joined by AND, OR and AND NOT. */
export type SearchExpr =
  | { readonly kind: "term"; readonly text: string }
  | { readonly kind: "phrase"; readonly words: readonly string[] }
  | { readonly kind: "and" | "or"; readonly left: SearchExpr; readonly right: SearchExpr }
  | { readonly kind: "not"; readonly expr: SearchExpr };

export type SearchScope = "ALL" | "NAME" | "EMAIL" | "PHONE";

/** One object of RETURNING, with its SOQL-like clauses kept as text. */
export interface ReturningObject {
  readonly object: string;
  /** The field list as written; absent means the record Id. */
  readonly fields?: string;
  readonly where?: string;
  readonly orderBy?: string;
  readonly limit?: number;
}

export interface SoslQuery {
  readonly search: SearchExpr;
  readonly scope: SearchScope;
  readonly returning: readonly ReturningObject[] | undefined;
  readonly limit?: number;
}

const malformed = (message: string) => new SalesforceError("MALFORMED_SEARCH", message);

/** Reads the search text between braces (or quotes), honouring backslash escapes. */
function readSearchText(text: string, start: number): { spec: string; end: number } {
  const open = text[start];
  const close = open === "{" ? "}" : open === "'" || open === '"' ? open : undefined;
  if (!close) throw malformed("FIND must be followed by the search text in braces, e.g. FIND {Acme}");
  let spec = "";
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length) {
      spec += text[i + 1];
      i++;
    } else if (ch === close) {
      return { spec, end: i + 1 };
    } else {
      spec += ch;
    }
  }
  throw malformed(`the search text is not closed with ${close}`);
}

/** Splits on a separator at parenthesis depth 0 and outside quotes. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'" && text[i - 1] !== "\\") quoted = !quoted;
    if (!quoted && ch === "(") depth++;
    if (!quoted && ch === ")") depth--;
    if (!quoted && depth === 0 && ch === separator) {
      parts.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/** Positions of SOQL clause keywords outside quotes, to cut a RETURNING body into clauses. */
function clauseAt(body: string, keyword: RegExp): number {
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "'" && body[i - 1] !== "\\") quoted = !quoted;
    if (!quoted && keyword.test(body.slice(i)) && (i === 0 || /\s/.test(body[i - 1]!))) return i;
  }
  return -1;
}

function parseReturningObject(text: string): ReturningObject {
  const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text);
  if (!match) throw malformed(`cannot read RETURNING entry '${text.trim()}'`);
  const body = match[2]?.trim() ?? "";
  const cuts = [
    { name: "where", at: clauseAt(body, /^WHERE\b/i), skip: 5 },
    { name: "orderBy", at: clauseAt(body, /^ORDER\s+BY\b/i), skip: 0 },
    { name: "limit", at: clauseAt(body, /^LIMIT\b/i), skip: 5 },
  ]
    .filter((cut) => cut.at >= 0)
    .sort((a, b) => a.at - b.at);
  const fieldsEnd = cuts[0]?.at ?? body.length;
  const clause = (name: string) => {
    const index = cuts.findIndex((cut) => cut.name === name);
    if (index < 0) return undefined;
    const cut = cuts[index]!;
    const text = body.slice(cut.at, cuts[index + 1]?.at ?? body.length).trim();
    return name === "orderBy" ? text.replace(/^ORDER\s+BY\s+/i, "") : text.slice(cut.skip).trim();
  };
  const limit = clause("limit");
  if (limit !== undefined && !/^\d+$/.test(limit)) throw malformed(`LIMIT must be a whole number in RETURNING ${match[1]}`);
  const where = clause("where");
  const orderBy = clause("orderBy");
  const fields = body.slice(0, fieldsEnd).trim();
  return {
    object: match[1]!,
    ...(fields ? { fields } : {}),
    ...(where ? { where } : {}),
    ...(orderBy ? { orderBy } : {}),
    ...(limit !== undefined ? { limit: Number(limit) } : {}),
  };
}

/** Parses `FIND {terms} [IN ... FIELDS] [RETURNING Obj(fields [WHERE] [ORDER BY] [LIMIT]), ...] [LIMIT n]`. */
export function parseSosl(text: string): SoslQuery {
  const source = text.trim();
  const find = /^FIND\s*/i.exec(source);
  if (!find) throw malformed("a search starts with FIND");
  const { spec, end } = readSearchText(source, find[0].length);
  let rest = source.slice(end).trim();
  let scope: SearchScope = "ALL";
  const scopeMatch = /^IN\s+(ALL|NAME|EMAIL|PHONE|SIDEBAR)\s+FIELDS\b/i.exec(rest);
  if (scopeMatch) {
    scope = scopeMatch[1]!.toUpperCase() === "SIDEBAR" ? "ALL" : (scopeMatch[1]!.toUpperCase() as SearchScope);
    rest = rest.slice(scopeMatch[0].length).trim();
  } else if (/^IN\b/i.test(rest)) {
    throw malformed("the search group must be ALL, NAME, EMAIL or PHONE FIELDS");
  }
  let limit: number | undefined;
  const limitMatch = /\bLIMIT\s+(\d+)\s*$/i.exec(rest);
  let returningText = rest;
  const balanced = (prefix: string) => prefix.split("(").length === prefix.split(")").length;
  // A trailing LIMIT outside every RETURNING parenthesis limits the whole search.
  if (limitMatch && balanced(rest.slice(0, limitMatch.index))) {
    limit = Number(limitMatch[1]);
    returningText = rest.slice(0, limitMatch.index).trim();
  }
  let returning: ReturningObject[] | undefined;
  if (/^RETURNING\b/i.test(returningText)) {
    returning = splitTopLevel(returningText.slice("RETURNING".length), ",").map(parseReturningObject);
  } else if (returningText) {
    throw malformed(`unexpected text after the search: '${returningText.slice(0, 40)}'`);
  }
  return { search: parseSearchExpression(spec), scope, returning, ...(limit !== undefined ? { limit } : {}) };
}

type Token = { kind: "word"; text: string } | { kind: "phrase"; words: string[] } | { kind: "op"; op: "AND" | "OR" | "NOT" | "(" | ")" };

function tokenize(spec: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /"([^"]*)"|(\()|(\))|([^\s()"]+)/g;
  for (const match of spec.matchAll(pattern)) {
    if (match[1] !== undefined) tokens.push({ kind: "phrase", words: match[1].split(/\s+/).filter(Boolean) });
    else if (match[2]) tokens.push({ kind: "op", op: "(" });
    else if (match[3]) tokens.push({ kind: "op", op: ")" });
    else {
      const word = match[4]!;
      const upper = word.toUpperCase();
      if (upper === "AND" || upper === "OR" || upper === "NOT") tokens.push({ kind: "op", op: upper });
      else tokens.push({ kind: "word", text: word });
    }
  }
  return tokens;
}

/** OR binds loosest; AND (written or implied between terms) tighter; AND NOT excludes. */
export function parseSearchExpression(spec: string): SearchExpr {
  const tokens = tokenize(spec);
  if (tokens.length === 0) throw malformed("the search text is empty");
  let position = 0;
  const peek = () => tokens[position];
  const isOp = (op: string) => {
    const token = peek();
    return token?.kind === "op" && token.op === op;
  };
  const parseOr = (): SearchExpr => {
    let left = parseAnd();
    while (isOp("OR")) {
      position++;
      left = { kind: "or", left, right: parseAnd() };
    }
    return left;
  };
  const parseAnd = (): SearchExpr => {
    let left = parseUnary();
    for (;;) {
      if (isOp("AND")) {
        position++;
        if (isOp("NOT")) {
          position++;
          left = { kind: "and", left, right: { kind: "not", expr: parseUnary() } };
        } else left = { kind: "and", left, right: parseUnary() };
      } else if (peek() && !isOp("OR") && !isOp(")")) {
        left = { kind: "and", left, right: parseUnary() };
      } else return left;
    }
  };
  const parseUnary = (): SearchExpr => {
    const token = peek();
    if (!token) throw malformed("the search text ends where a term was expected");
    position++;
    if (token.kind === "op" && token.op === "(") {
      const inner = parseOr();
      if (!isOp(")")) throw malformed("a parenthesis in the search text is not closed");
      position++;
      return inner;
    }
    if (token.kind === "op" && token.op === "NOT") return { kind: "not", expr: parseUnary() };
    if (token.kind === "op") throw malformed(`unexpected ${token.op} in the search text`);
    if (token.kind === "phrase") {
      if (token.words.length === 0) throw malformed("an empty phrase in the search text");
      return { kind: "phrase", words: token.words };
    }
    if (token.text.replace(/[*?]/g, "").length < 2) throw new SalesforceError("INVALID_SEARCH", `search term must be longer than one character: ${token.text}`);
    return { kind: "term", text: token.text };
  };
  const expr = parseOr();
  if (position < tokens.length) throw malformed("unexpected text at the end of the search");
  return expr;
}
