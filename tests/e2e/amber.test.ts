import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import JSON5 from "json5";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/assessment/index.js";
import { rankedTrack } from "../../src/report/index.js";

/**
 * The Amber files in amber/: each component manifest on its own, and the leaderboard scenario
 * wired from them and the AgentBeats gateway, checked for the mistakes `amber compile` or a run
 * would only reveal on GitHub.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VERSION = (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string }).version;

interface Capability {
  kind: string;
  endpoint?: string;
  optional?: boolean;
}
interface SchemaProperty {
  type?: string;
  secret?: boolean;
  default?: unknown;
}
interface Manifest {
  manifest_version: string;
  config_schema?: { type: string; properties: Record<string, SchemaProperty>; required?: string[]; additionalProperties?: boolean };
  slots?: Record<string, Capability>;
  provides?: Record<string, Capability>;
  exports?: Record<string, string>;
  program?: { image: string; entrypoint: string; env?: Record<string, string>; network?: { endpoints: { name: string; port: number }[] } };
  components?: Record<string, { manifest: string; config?: Record<string, unknown> }>;
  bindings?: { to: string; from: string; weak?: boolean }[];
  metadata?: Record<string, any>;
}

const load = (name: string): Manifest => JSON5.parse(readFileSync(`${ROOT}amber/${name}`, "utf8"));
const green = load("green-agent.json5");
const purple = load("purple-llm.json5");
const scenario = load("scenario.json5");

/** The AgentBeats gateway's interface (its amber-manifest.json5 at tag v0.3): slots and exports. */
const GATEWAY = {
  slots: {
    green: { kind: "a2a" },
    green_mcp: { kind: "mcp", optional: true },
    purple1: { kind: "a2a" },
    purple2: { kind: "a2a", optional: true },
    purple3: { kind: "a2a", optional: true },
    purple4: { kind: "a2a", optional: true },
    purple5: { kind: "a2a", optional: true },
  } as Record<string, Capability>,
  exports: { proxy: { kind: "a2a" }, results: { kind: "http" } } as Record<string, Capability>,
  config: ["assessment_config", "participant_roles"],
};

/** Every `${source.path}` in a string. */
const references = (text: string, source: "config" | "slots") => [...text.matchAll(/\$\{([a-z_]+)\.([^}]+)\}/g)].filter((match) => match[1] === source).map((match) => match[2]!);
const programText = (manifest: Manifest) => [manifest.program!.entrypoint, ...Object.values(manifest.program!.env ?? {})].join("\n");
/** Amber's config_schema profile: property names in snake case, no double underscore. */
const AMBER_PROPERTY = /^(?!.*__)[a-z][a-z0-9_]*$/;

/**
 * The command the ENTRYPOINT of each named stage of the Dockerfile runs, after its init (tini):
 * Amber's entrypoint replaces the image's, so there the agent runs without it (as PID 1, and it
 * handles SIGTERM itself).
 */
function dockerEntrypoints(): Record<string, string[]> {
  const entrypoints: Record<string, string[]> = {};
  let stage = "";
  for (const line of readFileSync(`${ROOT}Dockerfile`, "utf8").split("\n")) {
    const from = /^FROM\s.*\sAS\s+(\S+)/i.exec(line);
    if (from) stage = from[1]!;
    const entrypoint = /^ENTRYPOINT\s+(\[.*\])\s*$/.exec(line);
    if (entrypoint) {
      const argv = JSON.parse(entrypoint[1]!) as string[];
      entrypoints[stage] = argv[0] === "/usr/bin/tini" && argv[1] === "--" ? argv.slice(2) : argv;
    }
  }
  return entrypoints;
}

describe.each([
  ["green-agent.json5", green, "green"],
  ["purple-llm.json5", purple, "purple-llm"],
] as const)("the component manifest %s", (_name, manifest, dockerTarget) => {
  const schema = manifest.config_schema!;

  it("declares every config value its program uses, marks the secrets secret, and requires only declared values", () => {
    const used = references(programText(manifest), "config");
    expect(used.length).toBeGreaterThan(0);
    for (const name of used) expect(Object.keys(schema.properties), `\${config.${name}}`).toContain(name);
    expect(Object.keys(schema.properties).sort()).toEqual([...new Set(used)].sort());
    for (const [name, property] of Object.entries(schema.properties)) {
      expect(name).toMatch(AMBER_PROPERTY);
      expect(property, name).toMatchObject({ type: "string", secret: true });
      if (!schema.required?.includes(name)) expect(property.default, `${name} is optional, so it needs a default`).toBe("");
    }
    for (const name of schema.required ?? []) expect(Object.keys(schema.properties)).toContain(name);
    expect(schema).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("uses only declared slots, provides an a2a capability on a declared endpoint, and exports it", () => {
    for (const reference of references(programText(manifest), "slots")) expect(Object.keys(manifest.slots ?? {})).toContain(reference.split(".")[0]);
    const endpoints = manifest.program!.network!.endpoints.map((endpoint) => endpoint.name);
    expect(manifest.provides!.a2a).toMatchObject({ kind: "a2a" });
    for (const provide of Object.values(manifest.provides!)) expect(endpoints).toContain(provide.endpoint);
    for (const target of Object.values(manifest.exports!)) expect([...Object.keys(manifest.provides!), ...Object.keys(manifest.slots ?? {})]).toContain(target);
    expect(manifest.exports).toMatchObject({ a2a: "a2a" });
  });

  it("starts the agent on all interfaces, on the port of the endpoint it provides, as the Dockerfile target does", () => {
    const { entrypoint, network, image } = manifest.program!;
    expect(entrypoint).not.toMatch(/["'\\]/); // so splitting on blanks is how Amber tokenizes it too
    const argv = entrypoint.trim().split(/\s+/);
    const flag = (name: string) => argv[argv.indexOf(name) + 1];
    expect(argv[0]).toBe("entropic-crmarena");
    expect(flag("--host")).toBe("0.0.0.0");
    const endpoint = network!.endpoints.find((candidate) => candidate.name === manifest.provides!.a2a!.endpoint)!;
    expect(Number(flag("--port"))).toBe(endpoint.port);
    expect(endpoint.port).toBe(9009);
    expect(argv).toEqual(dockerEntrypoints()[dockerTarget]);
    expect(image).toMatch(new RegExp(`^[a-z0-9./-]+:${VERSION.replace(/\./g, "\\.")}$`));
  });
});

describe("the green agent's manifest", () => {
  it("passes the six LLM variables and the gateway's proxy URL", () => {
    expect(green.program!.env).toEqual({
      OPENAI_API_KEY: "${config.openai_api_key}",
      OPENAI_CHEAP_API_KEY: "${config.openai_cheap_api_key}",
      LLM_PRIMARY_BASE_URL: "${config.llm_primary_base_url}",
      LLM_CHEAP_BASE_URL: "${config.llm_cheap_base_url}",
      LLM_PRIMARY_MODEL: "${config.llm_primary_model}",
      LLM_CHEAP_MODEL: "${config.llm_cheap_model}",
      PROXY_URL: "${slots.proxy.url}",
    });
    expect(green.slots).toEqual({ proxy: { kind: "a2a" } });
    expect(green.program!.entrypoint.split(/\s+/)[1]).toBe("serve");
  });

  it("states a default assessment config the green agent accepts, the ranked track's, and its participant role", () => {
    const track = rankedTrack();
    const ranked = { dataset: track.dataset, drift_level: track.drift_level, rot_level: track.rot_level, max_steps: track.max_steps };
    expect(green.metadata!.assessment_config).toEqual(ranked);
    expect(parseConfig(green.metadata!.assessment_config)).toMatchObject({ config: { ...ranked, remap_ids: true }, ignoredKeys: [] });
    // The compose flow's scenario.toml asks the same.
    const toml = parseToml(readFileSync(`${ROOT}scenario.toml`, "utf8")).config;
    expect(toml).toEqual({ ...ranked, org_type: "b2b" });
    expect(green.metadata!.participant_roles).toEqual(["agent"]);
  });
});

describe("the purple agent's manifest", () => {
  it("runs the LLM strategy with the PURPLE_LLM_ variables", () => {
    expect(purple.program!.entrypoint).toMatch(/^entropic-crmarena purple --strategy llm /);
    expect(Object.keys(purple.program!.env!).sort()).toEqual(["PURPLE_LLM_API_KEY", "PURPLE_LLM_BASE_URL", "PURPLE_LLM_MODEL"]);
    expect(purple.slots).toBeUndefined();
  });
});

describe("the leaderboard scenario", () => {
  const components = scenario.components!;
  /** The manifest a scenario component runs: a local file, or the gateway's known interface. */
  const manifestOf = (name: string): Manifest => {
    const reference = components[name]!.manifest;
    if (name === "gateway") {
      expect(reference).toMatch(/^https:\/\/raw\.githubusercontent\.com\/RDI-Foundation\/agentbeats-gateway\/refs\/tags\/v[\d.]+\/amber-manifest\.json5$/);
      return { manifest_version: "0.1.0", slots: GATEWAY.slots, exports: Object.fromEntries(Object.keys(GATEWAY.exports).map((key) => [key, key])), provides: GATEWAY.exports };
    }
    expect(reference).toMatch(/^\.\/[\w-]+\.json5$/);
    expect(existsSync(`${ROOT}amber/${reference}`), reference).toBe(true);
    return load(reference.slice(2));
  };
  const split = (ref: string) => {
    const match = /^#([a-z_]+)\.([a-z0-9_]+)$/.exec(ref);
    expect(match, ref).not.toBeNull();
    return { component: match![1]!, name: match![2]! };
  };
  const gatewayConfig = components.gateway!.config as { assessment_config: Record<string, unknown>; participant_roles: Record<string, string> };

  it("binds only existing components, slots and exported capabilities of the same kind, and every required slot", () => {
    for (const binding of scenario.bindings!) {
      const to = split(binding.to);
      const from = split(binding.from);
      expect(Object.keys(components)).toContain(to.component);
      expect(Object.keys(components)).toContain(from.component);
      const slot = manifestOf(to.component).slots?.[to.name];
      expect(slot, binding.to).toBeDefined();
      const source = manifestOf(from.component);
      const exported = source.exports?.[from.name];
      expect(exported, binding.from).toBeDefined();
      expect(source.provides?.[exported!]?.kind ?? source.slots?.[exported!]?.kind).toBe(slot!.kind);
    }
    for (const name of Object.keys(components)) {
      for (const [slot, capability] of Object.entries(manifestOf(name).slots ?? {})) {
        if (!capability.optional)
          expect(
            scenario.bindings!.map((binding) => binding.to),
            `#${name}.${slot}`,
          ).toContain(`#${name}.${slot}`);
      }
    }
    expect(scenario.bindings).toContainEqual({ to: "#green.proxy", from: "#gateway.proxy", weak: true });
    expect(scenario.bindings).toContainEqual({ to: "#gateway.green", from: "#green.a2a" });
    expect(scenario.exports).toEqual({ results: "#gateway.results" });
  });

  it("gives each component the config its schema requires, from declared scenario secrets", () => {
    const scenarioSchema = scenario.config_schema!;
    for (const [name, property] of Object.entries(scenarioSchema.properties)) {
      expect(name).toMatch(AMBER_PROPERTY);
      expect(property, name).toMatchObject({ type: "string", secret: true });
      if (!scenarioSchema.required?.includes(name)) expect(property.default, `${name} is optional, so it needs a default`).toBe("");
    }
    const usedByScenario: string[] = [];
    for (const [name, component] of Object.entries(components)) {
      if (name === "gateway") {
        expect(Object.keys(component.config!).sort()).toEqual(GATEWAY.config);
        continue;
      }
      const schema = manifestOf(name).config_schema!;
      for (const key of schema.required ?? []) expect(Object.keys(component.config!), `${name}.${key}`).toContain(key);
      for (const [key, value] of Object.entries(component.config!)) {
        expect(Object.keys(schema.properties), `${name}.${key}`).toContain(key);
        const secrets = references(String(value), "config");
        usedByScenario.push(...secrets);
        for (const secret of secrets) {
          expect(Object.keys(scenarioSchema.properties), `\${config.${secret}}`).toContain(secret);
          // A value the component requires comes from a value the scenario requires.
          if (schema.required?.includes(key)) expect(scenarioSchema.required, secret).toContain(secret);
        }
      }
    }
    expect(Object.keys(scenarioSchema.properties).sort()).toEqual([...new Set(usedByScenario)].sort());
  });

  it("maps the green agent's participant role `agent` to a purple component, and sends the green agent's default config", () => {
    const roles = gatewayConfig.participant_roles;
    const bindingInto = (slot: string) => scenario.bindings!.find((binding) => binding.to === `#gateway.${slot}`);
    expect(split(bindingInto("green")!.from).component).toBe("green");
    const purpleSlots = Object.keys(roles).filter((slot) => slot !== "green");
    expect(purpleSlots.map((slot) => roles[slot]).sort()).toEqual([...green.metadata!.participant_roles].sort());
    for (const slot of purpleSlots) {
      expect(slot).toMatch(/^purple[1-5]$/);
      const component = split(bindingInto(slot)!.from).component;
      expect(component).not.toBe("green");
      expect(manifestOf(component).provides?.a2a?.kind).toBe("a2a");
    }
    const agentSlot = purpleSlots.find((slot) => roles[slot] === "agent")!;
    const agentComponent = split(bindingInto(agentSlot)!.from).component;
    expect(gatewayConfig.assessment_config).toEqual(green.metadata!.assessment_config);
    // The results file's `participants` is metadata.agentbeats_ids: the queries read `agent` there.
    expect(Object.keys(scenario.metadata!.agentbeats_ids).sort()).toEqual(["green", agentComponent].sort());
    expect(agentComponent).toBe("agent");
  });
});
