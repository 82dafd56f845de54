import { readFileSync } from "node:fs";

/** This package's version and the versions that shape its behaviour, recorded in every result. */
function readVersion(url: URL): string {
  try {
    return (JSON.parse(readFileSync(url, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

export const PACKAGE_VERSION = readVersion(new URL("../package.json", import.meta.url));

export function runtimeVersions(): Record<string, string> {
  return {
    green_agent: PACKAGE_VERSION,
    results_layout: "2.0.0",
    a2a_protocol: "0.3.0",
    a2a_sdk: readVersion(new URL("../node_modules/@a2a-js/sdk/package.json", import.meta.url)),
    node: process.versions.node,
    sqlite: process.versions.sqlite ?? "bundled",
  };
}
