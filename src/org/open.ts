import { z } from "zod";
import { NamedRegistry, parseOrThrow } from "../util/index.js";
import type { OrgBackend } from "./backend.js";
import { sqliteBackend } from "./store.js";

/**
 * Which org to open and how: a backend by name and where its org is. A URI `backend:where`
 * (`sqlite:data/sample/org`) says the same; a bare path is the embedded default, SQLite.
 */
export const OrgSpecSchema = z
  .object({
    backend: z.string().min(1).default("sqlite"),
    /** Where the org is, in the backend's terms (SQLite: a .db file or a folder of CSV files). */
    location: z.string().min(1, "location must name the org"),
    /** Query processes of the org's own pool (SQLite); without it the process's shared pool. */
    workers: z.number().int().positive().optional(),
    limits: z.object({ timeoutMs: z.number().positive(), maxRows: z.number().int().positive(), maxBytes: z.number().int().positive() }).partial().optional(),
  })
  .strict();
export type OrgSpec = z.infer<typeof OrgSpecSchema>;
export type OrgSpecInput = z.input<typeof OrgSpecSchema>;

/** One kind of backend: its name (the URI scheme) and how it opens an org. */
export interface BackendKind {
  readonly name: string;
  open(spec: OrgSpec): Promise<OrgBackend>;
}

/** The built-in backends, one line each. */
const BUILT_IN_BACKENDS: readonly BackendKind[] = [sqliteBackend];

const registry = new NamedRegistry<BackendKind>("backend", BUILT_IN_BACKENDS);

/** Adds a backend; the returned function removes it again. */
export const registerBackend = (kind: BackendKind): (() => void) => registry.register(kind);

/** Schemes of two or more characters, so a Windows drive (`C:\orgs`) stays a path. */
const URI = /^([a-z][a-z0-9+.-]+):(?!\\)(.*)$/i;

/** A spec from a URI, a bare path, or a spec object; bad input names the field. */
export function parseOrgSpec(spec: string | OrgSpecInput): OrgSpec {
  const input = typeof spec === "string" ? uriSpec(spec) : spec;
  return parseOrThrow(OrgSpecSchema, input, (fault) => new Error(`bad org spec: ${fault}`), "spec");
}

function uriSpec(uri: string): OrgSpecInput {
  const match = URI.exec(uri);
  return match ? { backend: match[1]!.toLowerCase(), location: match[2]! } : { location: uri };
}

/**
 * Opens an org: the one way the program gets an `OrgBackend`. `overrides` (query processes,
 * limits) come from the caller, not the URI.
 */
export async function openBackend(spec: string | OrgSpecInput, overrides: Pick<OrgSpecInput, "workers" | "limits"> = {}): Promise<OrgBackend> {
  const parsed = parseOrgSpec(typeof spec === "string" ? { ...uriSpec(spec), ...overrides } : { ...spec, ...overrides });
  const kind = registry.named(parsed.backend);
  if (!kind) throw new Error(`bad org spec: field 'backend': no backend named ${parsed.backend}; the backends are ${registry.names().join(", ")}`);
  return kind.open(parsed);
}
