import type { AgentCard } from "@a2a-js/sdk";

/** The green agent's A2A card. `url` must be the externally reachable JSON-RPC endpoint. */
export function buildAgentCard(url: string, version: string): AgentCard {
  return {
    name: "Entropic CRMArena",
    description:
      "Green agent that benchmarks CRM agents on the 2,140 CRMArena-Pro B2B tasks. It hosts the Salesforce-like org (27 objects), lets the purple agent query it turn by turn, and scores every episode on the original CRMArena-Pro metrics and seven entropic dimensions.",
    url,
    version,
    protocolVersion: "0.3.0",
    preferredTransport: "JSONRPC",
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ["text", "data"],
    defaultOutputModes: ["text", "data"],
    skills: [
      {
        id: "crm-assessment",
        name: "CRMArena-Pro assessment",
        description:
          'Send {"participants": {"agent": "<purple A2A URL>"}, "config": {...}} as a text or data part; receive progress updates and one artifact "CRMArena Assessment Results".',
        tags: ["benchmark", "crm", "salesforce", "assessment"],
        examples: ['{"participants": {"agent": "http://127.0.0.1:9019/"}, "config": {"task_limit": 5}}'],
      },
      {
        id: "hosted-crm-org",
        name: "Hosted CRM org",
        description: "Purple agents act in a read-only org through describe_schema and sql_query tool calls or CRMArena-Pro <execute>/<respond> tags.",
        tags: ["tools", "sql", "org"],
      },
      {
        id: "schema-drift-adaptation",
        name: "Schema drift",
        description: "Seeded column renames applied to the hosted org (levels none, low, medium, high).",
        tags: ["robustness", "drift"],
      },
      {
        id: "context-rot-filtering",
        name: "Context rot",
        description: "Seeded distractor records and distractor context (levels none, low, medium, high).",
        tags: ["robustness", "rot"],
      },
      {
        id: "privacy-awareness",
        name: "Privacy awareness",
        description: "240 tasks that a careful agent must refuse on privacy or confidentiality grounds.",
        tags: ["privacy", "policy"],
      },
    ],
  };
}
