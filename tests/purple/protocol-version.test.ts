import { describe, expect, it } from "vitest";
import { chooseProtocol } from "../../src/purple/index.js";

/** The version the green speaks to a purple, from its card (docs/protocol.md, "Protocol versions"). */
describe("choosing the A2A version from a purple's card", () => {
  const jsonRpc = (protocolVersion?: string, protocolBinding = "JSONRPC") => ({ url: "http://127.0.0.1:9019/", protocolBinding, ...(protocolVersion ? { protocolVersion } : {}) });

  it("speaks 1.0 to a card with a JSON-RPC interface of 1.0 (preferred when 0.3 is listed too)", () => {
    expect(chooseProtocol({ name: "a", version: "1", supportedInterfaces: [jsonRpc("1.0")] })).toMatchObject({ version: "1.0" });
    expect(chooseProtocol({ name: "a", version: "1", supportedInterfaces: [jsonRpc("1.0")] })).not.toHaveProperty("fallback");
    expect(chooseProtocol({ supportedInterfaces: [jsonRpc("0.3"), jsonRpc("1.0")] })).toMatchObject({ version: "1.0", fallback: "0.3" });
    // The SDK's hybrid card for 0.3 clients: 0.3 top-level fields and the 1.0 interfaces.
    expect(chooseProtocol({ url: "x", protocolVersion: "0.3", preferredTransport: "JSONRPC", supportedInterfaces: [jsonRpc("1.0"), jsonRpc("0.3")] })).toMatchObject({
      version: "1.0",
    });
    expect(chooseProtocol({ supportedInterfaces: [jsonRpc("1.1")] })).toMatchObject({ version: "1.0" });
    expect(chooseProtocol({ supportedInterfaces: [jsonRpc("1.0", "jsonrpc")] })).toMatchObject({ version: "1.0" });
    expect(chooseProtocol({ supportedInterfaces: [jsonRpc("1.0", "GRPC"), jsonRpc("0.3")] })).toMatchObject({ version: "0.3" });
  });

  it("speaks 0.3 to a 0.3 card, and to a card that names no version (then 1.0 if 0.3 is refused)", () => {
    expect(chooseProtocol({ name: "a", version: "1", url: "x", protocolVersion: "0.3.0", preferredTransport: "JSONRPC" })).toEqual({
      version: "0.3",
      reason: "its card is an A2A 0.3.0 card",
    });
    expect(chooseProtocol({ url: "x", protocolVersion: "0.2.5" })).toMatchObject({ version: "0.3" });
    expect(chooseProtocol({ url: "x", protocolVersion: "0.3.0", preferredTransport: "GRPC", additionalInterfaces: [{ url: "x", transport: "JSONRPC" }] })).toMatchObject({
      version: "0.3",
    });
    expect(chooseProtocol({ name: "a", version: "1" })).toMatchObject({ version: "0.3", fallback: "1.0" });
    expect(chooseProtocol({ supportedInterfaces: [jsonRpc()] })).toMatchObject({ version: "0.3", fallback: "1.0" });
    expect(chooseProtocol({ protocolVersion: "1.0" })).toMatchObject({ version: "1.0", fallback: "0.3" });
    expect(chooseProtocol("not a card")).toMatchObject({ version: "0.3", fallback: "1.0" });
  });

  it("refuses a card that offers only versions or bindings the green does not speak, naming them and the fix", () => {
    const refusal = (card: unknown) => {
      const choice = chooseProtocol(card);
      return "refusal" in choice ? choice.refusal : undefined;
    };
    expect(refusal({ supportedInterfaces: [jsonRpc("2.0")] })).toMatch(
      /^the purple agent's card offers A2A JSONRPC 2\.0; this green agent speaks A2A 1\.0 and 0\.3 over JSONRPC only\. Fix on the purple's side: list a JSON-RPC interface/,
    );
    expect(refusal({ supportedInterfaces: [jsonRpc("1.0", "GRPC"), jsonRpc("1.0", "HTTP+JSON")] })).toMatch(/offers A2A GRPC 1\.0, HTTP\+JSON 1\.0;/);
    expect(refusal({ url: "x", protocolVersion: "0.3.0", preferredTransport: "GRPC" })).toMatch(/offers A2A GRPC 0\.3\.0;/);
    expect(refusal({ url: "x", protocolVersion: "0.1" })).toMatch(/offers A2A JSONRPC 0\.1;/);
  });
});
