import { appendFileSync } from "node:fs";
import { type Logger, pino } from "pino";
import { environment } from "./environment.js";

const LEVELS: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };
const HIDDEN = new Set(["level", "time", "msg", "service", "pid", "hostname"]);

/** A log record as a line for people: `warn  message  (key=value ...)`. */
export function readableLine(record: Record<string, unknown>): string {
  const level = LEVELS[Number(record.level)] ?? String(record.level);
  const details = Object.entries(record)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return `${level.padEnd(5)} ${String(record.msg ?? "")}${details.length > 0 ? `  (${details.join(" ")})` : ""}\n`;
}

/**
 * Logs on stderr, so stdout stays free for results and summaries: readable lines by default,
 * JSON lines with LOG_FORMAT=json; LOG_FILE appends the JSON lines to a file as well.
 */
export function createLogger(level = environment().LOG_LEVEL ?? "info", env: NodeJS.ProcessEnv = environment()): Logger {
  const json = env.LOG_FORMAT === "json";
  const file = env.LOG_FILE;
  const stream = {
    write(line: string) {
      if (file) appendFileSync(file, line);
      if (json) process.stderr.write(line);
      else {
        try {
          process.stderr.write(readableLine(JSON.parse(line) as Record<string, unknown>));
        } catch {
          process.stderr.write(line);
        }
      }
    },
  };
  return pino({ level, base: { service: "entropic-crmarena" } }, stream);
}
