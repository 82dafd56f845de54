/**
 * The one shape of the project's registries (tools, perturbation kinds, dimensions, backends,
 * modes): entries with a unique name, kept in registration order, each registration returning
 * what removes it again (tests and extensions register their own and leave the process as they
 * found it). What a registry checks beyond the name (a dimension's column titles, a tool's
 * schema) it checks before `register`.
 */
export class NamedRegistry<T extends { readonly name: string }> {
  private readonly entries: T[] = [];

  /** `what` names an entry in the refusal of a second one of the same name ("a tool named x is registered already"). */
  constructor(
    private readonly what: string,
    initial: readonly T[] = [],
  ) {
    for (const entry of initial) this.register(entry);
  }

  /** Adds an entry after the registered ones; the returned function removes it again. */
  register(entry: T): () => void {
    if (this.entries.some((known) => known.name === entry.name)) throw new Error(`a ${this.what} named ${entry.name} is registered already`);
    this.entries.push(entry);
    return () => {
      const index = this.entries.indexOf(entry);
      if (index >= 0) this.entries.splice(index, 1);
    };
  }

  /** The entry of that name, or undefined. */
  named(name: string): T | undefined {
    return this.entries.find((entry) => entry.name === name);
  }

  /** Every entry, in registration order (a copy). */
  all(): T[] {
    return [...this.entries];
  }

  names(): string[] {
    return this.entries.map((entry) => entry.name);
  }
}
