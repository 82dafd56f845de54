// The images' health check: GET the agent card on the port the agent serves, read from the command
// line it was started with, so that `docker run IMAGE --port 9123` is followed (a fixed 9009 would
// call such a container unhealthy). Exit 0 when the card answers 200 within 2 s, 1 otherwise, with
// the reason on stderr (docker inspect shows it).
//
//   node healthcheck.mjs [CMDLINE_FILE]
//
// CMDLINE_FILE holds the agent's arguments separated by NUL bytes; by default /proc/1/cmdline,
// which in the images is tini (or, where a runner replaces the entrypoint, node) followed by
// `entropic-crmarena serve|purple ... --port N`. Node.js only, no dependencies.
import { readFileSync } from "node:fs";

/** The defaults of `entropic-crmarena serve` and `entropic-crmarena purple` (src/cli/serve.ts, purple.ts). */
const DEFAULT_PORTS = { serve: 9009, purple: 9019 };

/** The address the agent's card is reached at, from its arguments (the last --host/--port wins, as in commander). */
export function cardAddress(argv) {
  let command;
  let host;
  let port;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (command === undefined && (arg === "serve" || arg === "purple")) command = arg;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag === "--port") port = inline ?? argv[++i];
    else if (flag === "--host") host = inline ?? argv[++i];
  }
  if (command === undefined) throw new Error(`no "serve" or "purple" command in: ${argv.join(" ")}`);
  const number = port === undefined ? DEFAULT_PORTS[command] : Number(port);
  if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`the port ${port} cannot be probed (an ephemeral --port 0 is not known from outside)`);
  // An agent listening on every interface is reached on loopback.
  const probe = host === undefined || host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host;
  return `http://${probe.includes(":") ? `[${probe}]` : probe}:${number}/.well-known/agent-card.json`;
}

async function main() {
  const file = process.argv[2] ?? "/proc/1/cmdline";
  const argv = readFileSync(file, "utf8").split("\0").filter(Boolean);
  const url = cardAddress(argv);
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`unhealthy: ${error.cause?.code ?? ""} ${error.message}\n`.replace(/^unhealthy: {2}/, "unhealthy: "));
      process.exit(1);
    },
  );
}
