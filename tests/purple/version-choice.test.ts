import type { Transport } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { PurpleError } from "../../src/purple/errors.js";
import type { A2AVersion } from "../../src/purple/protocol-version.js";
import { VersionChoice } from "../../src/purple/version-choice.js";

/** A JSON-RPC error as the SDK's transports throw it: the code as `envelopeCode`. */
const rpcError = (code: number) => Object.assign(new Error(code === -32601 ? "Method not found" : "Version not supported"), { envelopeCode: code });

/**
 * Fake SDK transports, one per version: each send takes the next outcome of its version's script
 * (an error to throw, else the reply), and every send is logged with its version.
 */
function harness(scripts: Partial<Record<A2AVersion, (Error | string)[]>>, card: unknown, options: { readCard?: () => Promise<unknown> } = {}) {
  const sent: A2AVersion[] = [];
  const created: A2AVersion[] = [];
  const incompatible: string[] = [];
  const fake = (version: A2AVersion) =>
    ({
      sendMessage: async () => {
        sent.push(version);
        const outcome = scripts[version]?.shift() ?? `reply in ${version}`;
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
    }) as unknown as Transport;
  const choice = new VersionChoice(
    async (version) => {
      created.push(version);
      return fake(version);
    },
    { card, readCard: options.readCard ?? (async () => ({})), onIncompatible: (message) => incompatible.push(message) },
  );
  const signal = new AbortController().signal;
  const turn = () => choice.exchange((transport) => transport.sendMessage({} as never) as unknown as Promise<string>, signal);
  return { choice, turn, sent, created, incompatible };
}

const card10 = { supportedInterfaces: [{ url: "x", protocolBinding: "JSONRPC", protocolVersion: "1.0" }] };
const unnamed = { name: "purple", version: "1" };

describe("the version choice over the SDK's transports", () => {
  it("speaks the card's version through one transport, made once", async () => {
    const { choice, turn, sent, created } = harness({}, card10);
    await expect(turn()).resolves.toBe("reply in 1.0");
    await expect(turn()).resolves.toBe("reply in 1.0");
    expect(sent).toEqual(["1.0", "1.0"]);
    expect(created).toEqual(["1.0"]);
    expect(choice.version).toBe("1.0");
  });

  it("a card that names no version: 0.3, and 1.0 when the first answer refuses it, sent again in 1.0", async () => {
    const { choice, turn, sent, created, incompatible } = harness({ "0.3": [rpcError(-32601)] }, unnamed);
    await expect(turn()).resolves.toBe("reply in 1.0");
    await expect(turn()).resolves.toBe("reply in 1.0");
    expect(sent).toEqual(["0.3", "1.0", "1.0"]);
    expect(created).toEqual(["0.3", "1.0"]);
    expect(choice.version).toBe("1.0");
    expect(incompatible).toEqual([]);
  });

  it("reads the card itself when none was given", async () => {
    let reads = 0;
    const { turn, sent } = harness({}, undefined, {
      readCard: async () => {
        reads++;
        return card10;
      },
    });
    await Promise.all([turn(), turn()]);
    expect(reads).toBe(1);
    expect(sent).toEqual(["1.0", "1.0"]);
  });

  it("both versions refused: incompatible, said once, naming both refusals", async () => {
    const { choice, turn, sent, incompatible } = harness({ "0.3": [rpcError(-32601)], "1.0": [rpcError(-32009)] }, unnamed);
    const error = await turn().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurpleError);
    expect(sent).toEqual(["0.3", "1.0"]);
    expect(incompatible).toHaveLength(1);
    expect(incompatible[0]).toMatch(/refused A2A 0\.3 \(JSON-RPC error -32601.*\) and A2A 1\.0 \(JSON-RPC error -32009/);
    expect(choice.verdict).toBe(error);
  });

  it("a card's only version refused, with no fallback: incompatible at the first answer", async () => {
    const { choice, turn, sent, incompatible } = harness({ "1.0": [rpcError(-32601)] }, card10);
    await expect(turn()).rejects.toBeInstanceOf(PurpleError);
    expect(sent).toEqual(["1.0"]);
    expect(incompatible).toHaveLength(1);
    expect(choice.verdict?.kind).toBe("protocol");
  });

  it("once a turn was answered, a method error is the purple's own fault: passed on as it is, the version kept", async () => {
    const refusal = rpcError(-32601);
    const { choice, turn, sent, incompatible } = harness({ "0.3": ["first", refusal] }, unnamed);
    await expect(turn()).resolves.toBe("first");
    await expect(turn()).rejects.toBe(refusal);
    expect(sent).toEqual(["0.3", "0.3"]);
    expect(choice.version).toBe("0.3");
    expect(incompatible).toEqual([]);
  });

  it("a card offering only what the green does not speak: refused before any transport is made", async () => {
    const { choice, turn, created, incompatible } = harness({}, { supportedInterfaces: [{ url: "x", protocolBinding: "GRPC", protocolVersion: "1.0" }] });
    await expect(turn()).rejects.toBeInstanceOf(PurpleError);
    expect(created).toEqual([]);
    expect(incompatible).toHaveLength(1);
    expect(choice.verdict).toBeDefined();
  });

  it("other failures pass through untouched, and do not count as a refusal", async () => {
    const broken = new Error("socket hang up");
    const { choice, turn, sent, incompatible } = harness({ "0.3": [broken] }, unnamed);
    await expect(turn()).rejects.toBe(broken);
    await expect(turn()).resolves.toBe("reply in 0.3");
    expect(sent).toEqual(["0.3", "0.3"]);
    expect(choice.version).toBe("0.3");
    expect(incompatible).toEqual([]);
  });
});
