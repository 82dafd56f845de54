import { NamedRegistry } from "../util/index.js";
import type { PerturbationKind } from "./kind.js";
import { BUILT_IN_KINDS } from "./kinds/index.js";

/*
 * The registered kinds: the built-in ones from the start (a value, not the side effect of an
 * import), and any a test or an extension adds with registerPerturbation.
 */
const registry = new NamedRegistry<PerturbationKind>("perturbation", BUILT_IN_KINDS);

/**
 * Adds a kind of perturbation. Rot kinds plan before drift kinds (drift renames what rot added
 * records to), each family in registration order. Returns a function that removes it again.
 */
export const registerPerturbation = (kind: PerturbationKind): (() => void) => registry.register(kind);

/** The registered kinds in planning order. */
export function perturbationKinds(): readonly PerturbationKind[] {
  const all = registry.all();
  return [...all.filter((kind) => kind.family === "rot"), ...all.filter((kind) => kind.family === "drift")];
}
