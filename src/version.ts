import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** This package's version and the versions that shape its behaviour, recorded in every result. */
function readVersion(url: URL): string {
  try {
    return (JSON.parse(readFileSync(url, "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * The version of an installed dependency, wherever npm put it (beside this package when it is
 * installed as a dependency, under it in a checkout): its entry point resolved as Node would, then
 * the nearest package.json above it that carries its name.
 */
function dependencyVersion(name: string): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve(name));
    for (;;) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
        if (manifest.name === name) return manifest.version ?? "unknown";
      } catch {
        // no package.json here: keep climbing
      }
      const parent = dirname(dir);
      if (parent === dir) return "unknown";
      dir = parent;
    }
  } catch {
    return "unknown";
  }
}

export const PACKAGE_VERSION = readVersion(new URL("../package.json", import.meta.url));

/** Read once, when a run first asks: the installed SDK does not change under a running process (every run's header reads it). */
let a2aSdkVersion: string | undefined;

function a2aSdk(): string {
  a2aSdkVersion ??= dependencyVersion("@a2a-js/sdk");
  return a2aSdkVersion;
}

export function runtimeVersions(): Record<string, string> {
  return {
    green_agent: PACKAGE_VERSION,
    results_layout: "2.0.0",
    a2a_protocol: "0.3.0",
    a2a_sdk: a2aSdk(),
    node: process.versions.node,
    sqlite: process.versions.sqlite ?? "bundled",
  };
}
