import { createServer, type Server, type ServerResponse } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { chooseProtocol, describeError, fetchAgentCard } from "../../src/purple/index.js";
import { checkRpcReply } from "../../src/purple/wire.js";

/** What an address the green can reach might hold: it must never come back in a message. */
const SECRET = "SECRET-7f3a9c";

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function answering(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => answer(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

/** What the green says of a participant URL that answers so: the card fetch's error, or the version refusal of the card it read. */
async function saidOf(answer: (res: ServerResponse) => void): Promise<string> {
  const url = await answering(answer);
  try {
    const choice = chooseProtocol(await fetchAgentCard(url, 5_000));
    return "refusal" in choice ? choice.refusal : `accepted: ${choice.reason}`;
  } catch (error) {
    return describeError(error);
  }
}

describe("nothing a participant URL answers is repeated beyond its status and content type", () => {
  const answers: Record<string, (res: ServerResponse) => void> = {
    "an HTML page": (res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<html>${SECRET}</html>`),
    "a 404 with a body": (res) => res.writeHead(404, { "content-type": "text/plain" }).end(SECRET),
    "a 500 with JSON": (res) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: SECRET })),
    "a content type that carries text": (res) => res.writeHead(200, { "content-type": `text/${SECRET}${"x".repeat(2_000)}` }).end(SECRET),
    "a redirect": (res) => res.writeHead(302, { location: `http://10.0.0.1/${SECRET}` }).end(),
    "JSON that is no card": (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ [SECRET]: SECRET })),
    "a JSON string": (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(SECRET)),
    "a card naming versions of free text": (res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ name: "n", version: "1", supportedInterfaces: [{ url: "u", protocolBinding: `${SECRET} binding`, protocolVersion: `${SECRET} 9` }] })),
  };
  for (const [name, answer] of Object.entries(answers))
    it(`${name}`, async () => {
      const said = await saidOf(answer);
      expect(said.length).toBeGreaterThan(0);
      expect(said).not.toContain(SECRET);
      expect(said.length).toBeLessThan(1_500);
    });

  it("an episode's reply that is no JSON-RPC response: its status, media type and size only", () => {
    const reply = (status: number, type: string, body: string) => ({ status, headers: { "content-type": type }, body: Buffer.from(body) });
    const cases = [
      reply(500, "text/plain", `${SECRET} stack trace`),
      reply(200, "text/html", `<p>${SECRET}</p>`),
      reply(200, "application/json", JSON.stringify([SECRET])),
      reply(200, "application/json", JSON.stringify({ jsonrpc: SECRET, id: 1, result: {} })),
      reply(200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: SECRET.repeat(10), result: {} })),
      reply(200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { [SECRET.repeat(20)]: 1 } })),
    ];
    for (const candidate of cases) {
      let said = "";
      try {
        checkRpcReply("SendMessage", 1, candidate);
      } catch (error) {
        said = (error as Error).message;
      }
      expect(said, JSON.stringify(candidate.body.toString())).toMatch(/^the purple agent's reply to SendMessage /);
      expect(said).not.toContain(SECRET);
    }
  });
});
