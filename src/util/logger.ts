import { pino, type Logger } from "pino";

/** Structured logs on stderr, so stdout stays free for results and summaries. */
export function createLogger(level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino({ level, base: { service: "entropic-crmarena" } }, pino.destination(2));
}
