import { describe, expect, it } from "vitest";
import { perturbationKinds, registerPerturbation } from "../../src/entropy/index.js";
import { modeNames, registerMode } from "../../src/users/index.js";
import { NamedRegistry } from "../../src/util/index.js";

describe("the registries' one shape (util/registry.ts)", () => {
  it("keeps entries in registration order, refuses a second of one name, and removes one again", () => {
    const registry = new NamedRegistry<{ name: string; n: number }>("widget", [{ name: "a", n: 1 }]);
    const remove = registry.register({ name: "b", n: 2 });
    expect(registry.names()).toEqual(["a", "b"]);
    expect(registry.named("b")?.n).toBe(2);
    expect(() => registry.register({ name: "a", n: 3 })).toThrow("a widget named a is registered already");
    registry.all().pop();
    expect(registry.names()).toEqual(["a", "b"]);
    remove();
    remove();
    expect(registry.names()).toEqual(["a"]);
    expect(registry.named("b")).toBeUndefined();
  });

  it("is the shape of the modes and the perturbation kinds, their refusals worded as before", () => {
    expect(() => registerMode({ name: "interactive", description: "again" })).toThrow("a mode named interactive is registered already");
    const [first] = perturbationKinds();
    expect(() => registerPerturbation(first!)).toThrow(`a perturbation named ${first!.name} is registered already`);
    expect(modeNames().slice(0, 2)).toEqual(["single_turn", "interactive"]);
  });
});
