import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TaskRecord } from "../tasks/index.js";
import { ORG_COLUMNS, type Row, type SampleOrg } from "./org-schema.js";

/** One CSV cell: quoted when it holds a comma, quote or line break; missing values are empty. */
function csvCell(value: Row[string]): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Writes the org as one CSV file per object (the format `--org DIR` reads). */
export async function writeOrgCsv(org: SampleOrg, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [object, columns] of Object.entries(ORG_COLUMNS)) {
    const rows = org.tables[object] ?? [];
    const lines = [columns.join(","), ...rows.map((row) => columns.map((column) => csvCell(row[column])).join(","))];
    await writeFile(join(dir, `${object}.csv`), `${lines.join("\n")}\n`);
  }
}

export async function writeTasksJson(tasks: readonly TaskRecord[], path: string): Promise<void> {
  await writeFile(path, `${JSON.stringify(tasks, null, 1)}\n`);
}
