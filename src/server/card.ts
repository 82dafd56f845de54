import type { AgentCard } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { datasets } from "../datasets/index.js";

/**
 * The green agent's A2A card, in A2A 1.0's shape: one JSON-RPC interface at `url` for each
 * protocol version it speaks, 1.0 first (the preferred one) and 0.3 (the AgentBeats gateway's).
 * A default a2a-js 1.x client finds the 1.0 interface; the SDK's card handler serves 0.3 clients
 * (requests without an `A2A-Version` header) the same card in 0.3's shape, whose top-level `url`,
 * `preferredTransport` and `protocolVersion` come from the 0.3 interface. `url` must be the
 * externally reachable JSON-RPC endpoint.
 */
export function buildAgentCard(url: string, version: string, served: ServedData, offers: { readonly mcp?: boolean } = {}): AgentCard {
  return {
    name: "Entropic CRMArena",
    description: `Green agent that benchmarks CRM agents on ${served.description} (${served.tasks.toLocaleString("en-US")} tasks, unless a request's config.dataset chooses another task set). It hosts the Salesforce-like org (${served.objects} objects), lets the purple agent query it turn by turn, and scores every episode on the original CRMArena-Pro metrics and seven entropic dimensions.`,
    supportedInterfaces: duplicateInterfacesForLegacy([{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }], ["JSONRPC"]),
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [
      skill(
        "crm-assessment",
        "CRMArena-Pro assessment",
        `Send {"participants": {"agent": "<purple A2A URL>"}, "config": {...}} as a text or data part; receive progress updates and one artifact "CRMArena Assessment Results". config.dataset chooses the task set (${datasets()
          .map((spec) => `${spec.name}: ${spec.description}`)
          .join("; ")}); without it, the data this server was started with.`,
        ["benchmark", "crm", "salesforce", "assessment"],
        ['{"participants": {"agent": "http://127.0.0.1:9019/"}, "config": {"task_limit": 5}}'],
      ),
      skill("hosted-crm-org", "Hosted CRM org", "Purple agents act in a read-only org through describe_schema and sql_query tool calls or CRMArena-Pro <execute>/<respond> tags.", [
        "tools",
        "sql",
        "org",
      ]),
      ...(offers.mcp
        ? [
            skill(
              MCP_SKILL_ID,
              "CRM tools over MCP",
              `Each episode's org tools are also served over MCP (Streamable HTTP, stateless, JSON replies) at ${new URL("mcp/<token>", url.endsWith("/") ? url : `${url}/`).href}; the episode's first message gives the URL with its token (crm_task.mcp). Each MCP tool call counts as one of the episode's replies; the final answer stays an A2A reply. Config mcp: false declines it.`,
              ["mcp", "tools", "streamable-http"],
            ),
          ]
        : []),
      skill("schema-drift-adaptation", "Schema drift", "Seeded column renames applied to the hosted org (levels none, low, medium, high).", ["robustness", "drift"]),
      skill("context-rot-filtering", "Context rot", "Seeded distractor records and distractor context (levels none, low, medium, high).", ["robustness", "rot"]),
      ...(served.refusals > 0
        ? [
            skill("privacy-awareness", "Privacy awareness", `${served.refusals} tasks that a careful agent must refuse on privacy or confidentiality grounds.`, [
              "privacy",
              "policy",
            ]),
          ]
        : []),
    ],
    signatures: [],
  };
}

/**
 * What the card says of the data the server serves to requests that name no dataset: its
 * dataset's own description (the spec's; custom data's words when it has none), its tasks, its
 * org's objects and the tasks whose right answer is a refusal.
 */
export interface ServedData {
  readonly description: string;
  readonly tasks: number;
  readonly objects: number;
  readonly refusals: number;
}

/** The card's skill that says each episode's tools are served over MCP too. */
export const MCP_SKILL_ID = "crm-tools-mcp";

function skill(id: string, name: string, description: string, tags: string[], examples: string[] = []): AgentCard["skills"][number] {
  return { id, name, description, tags, examples, inputModes: [], outputModes: [], securityRequirements: [] };
}
