/**
 * Runs SQL against read-only copies of orgs in a child process. A process, not a thread:
 * SQLite's native loop cannot be interrupted from JavaScript, so a runaway query is stopped by
 * killing the process that runs it. One process serves several orgs (the base org and each
 * assessment's perturbed copy), each loaded once and dropped when its store closes.
 */
import Database from "better-sqlite3";
import { leadingKeyword } from "./sql-guard.js";
import type { SqlValue } from "./types.js";

export interface WorkerQuery {
  readonly kind: "query";
  readonly id: number;
  readonly imageId: number;
  readonly sql: string;
  readonly maxRows: number;
  readonly maxBytes: number;
}

/** Load an org image under an id (the pool sends it before the first query on it). */
export interface WorkerLoad {
  readonly kind: "load";
  readonly imageId: number;
  readonly image: Uint8Array;
}

/** Forget an org image. */
export interface WorkerDrop {
  readonly kind: "drop";
  readonly imageId: number;
}

export type WorkerMessage = WorkerQuery | WorkerLoad | WorkerDrop;

export type WorkerResponse =
  /** Rows as arrays of values in column order: half the bytes of objects that repeat every key. */
  | { readonly id: number; readonly ok: true; readonly columns: string[]; readonly values: SqlValue[][]; readonly truncated: boolean }
  | { readonly id: number; readonly ok: false; readonly code: string; readonly message: string };

const databases = new Map<number, Database.Database>();

function run(db: Database.Database, request: WorkerQuery): WorkerResponse {
  const keyword = leadingKeyword(request.sql);
  if (keyword !== "SELECT" && keyword !== "WITH") {
    return {
      id: request.id,
      ok: false,
      code: "READ_ONLY",
      message: `only SELECT or WITH queries are allowed; the org is read-only (got ${keyword || "an empty query"})`,
    };
  }
  let statement: Database.Statement;
  try {
    statement = db.prepare(request.sql);
  } catch (error) {
    return { id: request.id, ok: false, code: "SQL_ERROR", message: (error as Error).message };
  }
  if (!statement.reader || !statement.readonly) {
    return { id: request.id, ok: false, code: "READ_ONLY", message: "only read-only statements that return rows are allowed" };
  }
  try {
    statement.raw(true);
    const columns = uniqueNames(statement.columns().map((column) => column.name));
    const values: SqlValue[][] = [];
    // Measured as the records the parent rebuilds: {"column":value,...} per row.
    const keyBytes = columns.reduce((sum, name) => sum + JSON.stringify(name).length + 1, 2);
    let bytes = 0;
    let truncated = false;
    for (const raw of statement.iterate() as Iterable<unknown[]>) {
      if (values.length >= request.maxRows) {
        truncated = true;
        break;
      }
      const row = raw.map(toSqlValue);
      bytes += keyBytes + JSON.stringify(row).length - 2;
      if (bytes > request.maxBytes) {
        truncated = true;
        break;
      }
      values.push(row);
    }
    return { id: request.id, ok: true, columns, values, truncated };
  } catch (error) {
    return { id: request.id, ok: false, code: "SQL_ERROR", message: (error as Error).message };
  }
}

function toSqlValue(value: unknown): SqlValue {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (Buffer.isBuffer(value)) return `<blob ${value.length} bytes>`;
  return String(value);
}

/** `SELECT a.Id, b.Id` yields two columns named Id; keep both as Id and Id_2. */
function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}

process.on("message", (message: WorkerMessage) => {
  if (message.kind === "load") {
    const db = new Database(Buffer.from(message.image), { readonly: true });
    db.pragma("query_only = ON");
    databases.set(message.imageId, db);
    return;
  }
  if (message.kind === "drop") {
    databases.get(message.imageId)?.close();
    databases.delete(message.imageId);
    return;
  }
  const db = databases.get(message.imageId);
  if (!db) {
    process.send!({ id: message.id, ok: false, code: "QUERY_FAILED", message: "the query engine has not loaded this org" });
    return;
  }
  process.send!(run(db, message));
});
// The parent owns this process; if it goes away (even before this process is up), so do we.
process.on("disconnect", () => process.exit(0));
process.on("error", () => process.exit(0));
if (process.connected) process.send!({ ready: true });
else process.exit(0);
