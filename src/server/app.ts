import type { Server } from "node:http";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express, { type ErrorRequestHandler } from "express";
import type { Logger } from "pino";
import type { AssessmentData, SpendCeiling } from "../assessment/index.js";
import { calibrationFor, DatasetShelf, namedTasksFile } from "../data/index.js";
import { categorySpec, datasetNamed, isPrivacyCategory } from "../datasets/index.js";
import { McpHub } from "../mcp/index.js";
import type { PurpleClientFactory } from "../purple/index.js";
import { type Calibration, HeuristicJudge, type Judge } from "../scoring/index.js";
import type { UserChoice, UserSimulator } from "../users/index.js";
import { loadTokenizer, scanJson } from "../util/index.js";
import { PACKAGE_VERSION } from "../version.js";
import { buildAgentCard, type ServedData } from "./card.js";
import { AssessmentExecutor } from "./executor.js";
import { REQUEST_JSON_BOUNDS, REQUEST_LIMITS } from "./limits.js";
import { GreenRequestHandler } from "./request-handler.js";
import { internalErrors, rpcGuard } from "./rpc-guard.js";
import { TaskAccess } from "./task-access.js";
import { ExpiringTaskStore } from "./task-store.js";

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  /** Public URL of this agent (what the card advertises); defaults to http://HOST:PORT/. */
  readonly cardUrl?: string;
  /** The data requests run on unless their config chooses another registered dataset, which is then loaded on first use and kept. */
  readonly data: AssessmentData;
  /** The task file a dataset that builds its own data builds from when a request names it (the operator's --tasks; default: ENTROPIC_TASKS, else the builder's own: the twins', the fetched task file). */
  readonly tasksFile?: string | undefined;
  readonly logger: Logger;
  readonly heartbeatMs?: number;
  /** The calibration of runs on a dataset without one of its own (a dataset spec's `calibrationPath`: the twins'). */
  readonly calibration: Calibration;
  /** The gateway's proxy slot (PROXY_URL) through which loopback participant URLs are reached. */
  readonly proxyUrl?: string;
  /** Where each assessment's journal goes (`<run id>.jsonl`, one per shard); a request seen before continues its journal. */
  readonly runsDir?: string;
  /** Builds each assessment's judge; the deterministic heuristic when absent. */
  readonly createJudge?: () => Judge;
  /** The operator's secret in the Id remap's key, resolved at the edge (cli/serve.ts); none: the seed alone keys it. */
  readonly idSecret?: string | undefined;
  /** The operator's ceiling on a request's model spend caps (ENTROPIC_MAX_MODEL_CALLS, ENTROPIC_MAX_MODEL_CHARS). */
  readonly spendCeiling?: SpendCeiling | undefined;
  /** Interactive mode's simulated user (with the model the command line configured); the offline choice when absent. */
  readonly createUser?: ((choice: UserChoice) => UserSimulator) | undefined;
  /** The client each assessment speaks to its purple through (its retry window); A2A with the default window when absent. */
  readonly createPurple?: PurpleClientFactory | undefined;
  /** Assessments running or being admitted at once (default 8). */
  readonly maxAssessments?: number;
  /** How long finished A2A tasks stay readable through tasks/get (default 15 minutes). */
  readonly finishedTaskTtlMs?: number;
  /** Serve each episode's tools over MCP too, at `<cardUrl>mcp/<token>` (default true; a request's config `mcp: false` declines it). */
  readonly mcp?: boolean;
}

/** A running green agent: its address, and how to stop it cleanly. */
export interface GreenServer {
  readonly server: Server;
  readonly url: string;
  /** Ends every assessment with its partial results (no new episodes; `graceMs` for those in flight), then closes the server. */
  shutdown(graceMs: number): Promise<void>;
}

export const MAX_BODY = REQUEST_LIMITS.bodyBytes;

/** The type of the error a body past the JSON bounds is refused with (before it is parsed). */
const OUT_OF_BOUNDS = "entity.out.of.bounds";

/**
 * Called by the body parser with the body's bytes before it parses them: a body nested or
 * numbered past REQUEST_LIMITS is refused by one iterative scan, so no parse or later reader
 * (zod, the SDK's translators, structuredClone) ever holds it.
 */
function checkBodyBounds(_req: unknown, _res: unknown, body: Buffer): void {
  const shape = scanJson(body, REQUEST_JSON_BOUNDS);
  if (!shape.ok) throw Object.assign(new Error(`the body is refused: ${shape.reason} (docs/protocol.md, "Limits")`), { type: OUT_OF_BOUNDS, status: 400 });
}

/** The card's words for the data a server starts on: its dataset's description, else those of data given by paths. */
function servedData(data: AssessmentData): ServedData {
  const privacy = (category: string) => {
    const spec = categorySpec(category, data.dataset) ?? categorySpec(category);
    return spec !== undefined && isPrivacyCategory(spec);
  };
  return {
    description: datasetNamed(data.dataset)?.description ?? "the task file and org it was started with",
    tasks: data.tasks.tasks.length,
    objects: data.org.schema.objects.length,
    refusals: data.tasks.tasks.filter((task) => privacy(task.task)).length,
  };
}

/** A malformed HTTP body still gets a JSON-RPC answer, not an HTML error page. */
const jsonRpcErrors: ErrorRequestHandler = (error: { type?: string; status?: number; message?: string }, _req, res, next) => {
  if (res.headersSent) return next(error);
  const tooLarge = error.type === "entity.too.large";
  const message = tooLarge
    ? `Invalid Request: the body is larger than ${MAX_BODY} bytes (docs/protocol.md, "Limits")`
    : error.type === OUT_OF_BOUNDS
      ? `Invalid Request: ${error.message}`
      : undefined;
  res.status(tooLarge ? 413 : 400).json({
    jsonrpc: "2.0",
    id: null,
    error: message ? { code: -32600, message } : { code: -32700, message: `Parse error: the body is not valid JSON (${error.message ?? "unreadable"})` },
  });
};

export function createApp(options: ServeOptions & { cardUrl: string }): { app: express.Express; executor: AssessmentExecutor; datasets: DatasetShelf; mcp?: McpHub } {
  const mcp = options.mcp === false ? undefined : new McpHub(options.cardUrl, options.logger, PACKAGE_VERSION);
  const card = buildAgentCard(options.cardUrl, PACKAGE_VERSION, servedData(options.data), { mcp: mcp !== undefined });
  const datasets = new DatasetShelf(options.data, options.logger, {}, options.tasksFile ?? namedTasksFile({}));
  const access = new TaskAccess();
  const executor = new AssessmentExecutor({
    taskToken: (taskId) => access.tokenFor(taskId),
    dataFor: (config) => datasets.forConfig(config),
    doneWith: (data) => datasets.doneWith(data),
    logger: options.logger,
    createJudge: options.createJudge ?? (() => new HeuristicJudge()),
    idSecret: options.idSecret,
    spendCeiling: options.spendCeiling,
    createUser: options.createUser,
    createPurple: options.createPurple,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    calibration: (dataset) => (datasetNamed(dataset)?.calibrationPath ? calibrationFor(dataset) : options.calibration),
    ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
    ...(options.runsDir ? { runsDir: options.runsDir } : {}),
    ...(options.maxAssessments ? { maxAssessments: options.maxAssessments } : {}),
    ...(mcp ? { toolChannel: mcp } : {}),
  });
  const handler = new GreenRequestHandler(card, new ExpiringTaskStore(options.finishedTaskTtlMs ?? 15 * 60_000), executor);
  // A2A 1.0 and 0.3 on the same paths: the SDK's v0.3 compatibility layer serves the card in 0.3's
  // shape to requests without an A2A-Version header (0.3 clients) and 0.3's JSON-RPC methods to them.
  const legacyCompat = { enabled: true };
  const app = express();
  // Before the A2A body parser: the MCP endpoint has bounds of its own.
  if (mcp) app.use("/mcp", mcp.router());
  app.use(express.json({ limit: MAX_BODY, verify: checkBodyBounds }));
  app.use(jsonRpcErrors);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use("/.well-known/agent.json", agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use("/", rpcGuard, access.guard, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use(internalErrors(options.logger));
  return { app, executor, datasets, ...(mcp ? { mcp } : {}) };
}

/** Starts the green agent's HTTP server; resolves once it listens. */
export async function serve(options: ServeOptions): Promise<GreenServer> {
  // The card needs the bound port (port 0 in tests), so requests go to an app built right after listen().
  let app: express.Express | undefined;
  const front = express().use((req, res, next) => (app ? app(req, res, next) : res.status(503).end()));
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = front.listen(options.port, options.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
    listening.on("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const url = options.cardUrl ?? `http://${options.host}:${port}/`;
  const built = createApp({ ...options, cardUrl: url });
  // Before the first request, in one piece: loaded by an episode's first count instead, it held the
  // event loop a few hundred milliseconds in the middle of an admission.
  loadTokenizer();
  app = built.app;
  const shutdown = async (graceMs: number) => {
    await built.executor.shutdown(graceMs);
    built.mcp?.close();
    await built.datasets.close();
    // Streams have had their final events; let their sockets finish, then stop listening.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // A client that keeps a finished stream open does not hold the shutdown up.
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    });
  };
  return { server, url, shutdown };
}
