import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { parse } from "csv-parse/sync";
import { EntropicError, type ErrorDetails } from "../util/index.js";
import { introspectSchema, listTables, quoteIdent } from "./introspect.js";
import type { OrgSchema } from "./types.js";

/** An org image: a serialized in-memory SQLite database plus its schema. */
export interface OrgImage {
  readonly image: Buffer;
  readonly schema: OrgSchema;
  readonly source: string;
}

export class OrgLoadError extends EntropicError {
  override readonly name = "OrgLoadError";
  constructor(message: string, details?: ErrorDetails) {
    super("data", message, details);
  }
}

/**
 * Loads an org from a CRMArena-Pro SQLite file or a folder of CSV files into memory.
 * The source is only read; the normalisation ('None' text to NULL) happens on the copy.
 */
export function loadOrgImage(path: string): OrgImage {
  if (!existsSync(path)) throw new OrgLoadError(`org source not found: ${path}`);
  const db = statSync(path).isDirectory() ? loadCsvFolder(path) : loadSqliteCopy(path);
  try {
    normaliseNones(db);
    const schema = introspectSchema(db);
    if (schema.objects.length === 0) throw new OrgLoadError(`org source ${path} has no tables`);
    return { image: db.serialize(), schema, source: path };
  } finally {
    db.close();
  }
}

function loadSqliteCopy(path: string): Database.Database {
  let source: Database.Database;
  try {
    source = new Database(path, { readonly: true, fileMustExist: true });
    source.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    throw new OrgLoadError(`${path} is not a readable SQLite database: ${(error as Error).message}`);
  }
  try {
    return new Database(source.serialize());
  } finally {
    source.close();
  }
}

type ColumnAffinity = "INTEGER" | "REAL" | "TEXT";

function loadCsvFolder(dir: string): Database.Database {
  const files = readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith(".csv"))
    .sort();
  if (files.length === 0) throw new OrgLoadError(`org folder ${dir} has no .csv files (one file per object, e.g. Account.csv)`);
  const db = new Database(":memory:");
  for (const file of files) {
    const table = basename(file, ".csv");
    let records: string[][];
    const content = readFileSync(join(dir, file));
    // A file cut short (a copy or download that stopped) may end inside its last row with the
    // right number of columns, which would load a half value silently: a whole CSV ends its last
    // row with a line break, as every writer of these files does.
    if (content.length > 0 && content[content.length - 1] !== 0x0a) {
      db.close();
      throw new OrgLoadError(
        `${join(dir, file)} does not end with a line break, so its last row may be cut short (a truncated copy or download): restore the file (\`data fetch\` checks the real org's checksum), or end it with a newline if it is whole`,
      );
    }
    try {
      records = parse(content, { relax_column_count: false, skip_empty_lines: true }) as string[][];
    } catch (error) {
      db.close();
      throw new OrgLoadError(`${join(dir, file)}: ${(error as Error).message}`);
    }
    const [header, ...rows] = records;
    if (!header || header.length === 0) {
      db.close();
      throw new OrgLoadError(`${join(dir, file)} has no header row`);
    }
    const affinities = header.map((_, column) => inferAffinity(rows.map((row) => row[column] ?? "")));
    db.exec(`CREATE TABLE ${quoteIdent(table)} (${header.map((name, i) => `${quoteIdent(name)} ${affinities[i]}`).join(", ")})`);
    const insert = db.prepare(`INSERT INTO ${quoteIdent(table)} VALUES (${header.map(() => "?").join(", ")})`);
    db.transaction(() => {
      for (const row of rows) insert.run(row.map((cell, i) => convertCell(cell, affinities[i]!)));
    })();
  }
  return db;
}

function isMissing(cell: string): boolean {
  return cell === "" || cell === "None";
}

function inferAffinity(cells: string[]): ColumnAffinity {
  const present = cells.filter((cell) => !isMissing(cell));
  if (present.length === 0) return "TEXT";
  if (present.every((cell) => /^-?\d+$/.test(cell) && Number.isSafeInteger(Number(cell)))) return "INTEGER";
  if (present.every((cell) => /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(cell))) return "REAL";
  return "TEXT";
}

function convertCell(cell: string, affinity: ColumnAffinity): string | number | null {
  if (isMissing(cell)) return null;
  return affinity === "TEXT" ? cell : Number(cell);
}

/** CRMArena-Pro stores missing values as the text 'None' in several columns; Salesforce returned null. */
function normaliseNones(db: Database.Database): void {
  for (const table of listTables(db)) {
    const columns = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[];
    for (const { name } of columns) {
      db.prepare(`UPDATE ${quoteIdent(table)} SET ${quoteIdent(name)} = NULL WHERE ${quoteIdent(name)} = 'None'`).run();
    }
  }
}
