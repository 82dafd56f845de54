import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonPieces, PIECE_CHARS } from "../../src/log/json-pieces.js";

const GOLDEN = fileURLToPath(new URL("../fixtures/logs/golden-v1.jsonl", import.meta.url));
const whole = (value: unknown) => [...jsonPieces(value)].join("");

describe("JSON in pieces", () => {
  it("gives exactly JSON.stringify's text for every line of the golden log", () => {
    for (const line of readFileSync(GOLDEN, "utf8").split("\n").filter(Boolean)) expect(whole(JSON.parse(line))).toBe(line);
  });

  it("gives JSON.stringify's text for what JSON.stringify treats specially", () => {
    const values: unknown[] = [
      null,
      0,
      -0,
      1.5e300,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      "",
      'quote " backslash \\ newline \n tab \t control \u0001 nul \u0000 line separator \u2028',
      "lone \ud800 high and \udc00 low surrogates, a pair 😀",
      [],
      {},
      [undefined, () => 1, Symbol("s"), null, 2],
      { a: undefined, b: () => 1, c: Symbol("s"), d: null, 'quoted "key"': 1, nested: { list: [{ x: [] }] } },
      { when: new Date(Date.UTC(2026, 10, 30)), inner: { toJSON: () => "custom" } },
      Object.assign(Object.create(null), { plain: "object without prototype" }),
    ];
    for (const value of values) expect(whole(value)).toBe(JSON.stringify(value));
    expect(() => whole({ big: 1n })).toThrow(TypeError);
  });

  it("splits long texts into pieces of about PIECE_CHARS, escaping them as the whole would be, surrogate pairs whole", () => {
    // Emoji shifted by one character halfway, so that windows end inside a pair in one of the halves.
    const long = `${'say "hi"\n'.repeat(20_000)}${"😀".repeat(70_000)}x${"😀".repeat(70_000)}\ud800`;
    const record = { kind: "episode", steps: [{ observation: { text: long } }, { observation: { text: long.slice(0, 1000) } }], answer: long };
    const pieces = [...jsonPieces(record)];
    expect(pieces.join("")).toBe(JSON.stringify(record));
    expect(pieces.length).toBeGreaterThan(10);
    // No piece much longer than the target: a window's escaping at most doubles it, plus what was pending.
    for (const piece of pieces) expect(piece.length).toBeLessThan(4 * PIECE_CHARS);
  });

  it("makes a short value in one piece, and cuts a long one of short members between them", () => {
    const episode = { kind: "episode", steps: [{ action: "respond", text: "None" }], when: new Date(0), scores: [0.5, 1, null] };
    expect([...jsonPieces(episode)]).toEqual([JSON.stringify(episode)]);
    // Numbers are counted at their longest: seven thousand of them (168,000 characters) are not made whole.
    const numbers = Array.from({ length: 7_000 }, (_, i) => -1.2345678901234e-300 * (i + 1));
    const many = { numbers, rows: Array.from({ length: 5_000 }, (_, i) => ({ id: `row-${i}`, text: '"quoted"\n'.repeat(3) })) };
    const pieces = [...jsonPieces(many)];
    expect(pieces.join("")).toBe(JSON.stringify(many));
    expect(pieces.length).toBeGreaterThan(4);
    // Each piece is what was pending (under PIECE_CHARS) and one short member.
    for (const piece of pieces) expect(piece.length).toBeLessThan(1.5 * PIECE_CHARS);
  });
});
