import type { PerturbationKind } from "./kind.js";
import { BUILT_IN_KINDS } from "./kinds/index.js";

/*
 * The registered kinds: the built-in ones from the start (a value, not the side effect of an
 * import), and any a test or an extension adds with registerPerturbation.
 */
const registry: PerturbationKind[] = [];
for (const kind of BUILT_IN_KINDS) registerPerturbation(kind);

/**
 * Adds a kind of perturbation. Rot kinds plan before drift kinds (drift renames what rot added
 * records to), each family in registration order. Returns a function that removes it again.
 */
export function registerPerturbation(kind: PerturbationKind): () => void {
  if (registry.some((known) => known.name === kind.name)) throw new Error(`a perturbation named ${kind.name} is registered already`);
  registry.push(kind);
  return () => {
    const index = registry.indexOf(kind);
    if (index >= 0) registry.splice(index, 1);
  };
}

/** The registered kinds in planning order. */
export function perturbationKinds(): readonly PerturbationKind[] {
  return [...registry.filter((kind) => kind.family === "rot"), ...registry.filter((kind) => kind.family === "drift")];
}
