/**
 * Values worked out once per object and key, the object held weakly: what is derived from a task
 * set, a world or a list of Ids goes when they go, and a set loaded again makes its own.
 */
export class WeakMemo<Owner extends object, Key, Value> {
  private readonly byOwner = new WeakMap<Owner, Map<Key, Value>>();

  /** The value for (owner, key), made by `make` the first time it is asked for. */
  get(owner: Owner, key: Key, make: () => Value): Value {
    let byKey = this.byOwner.get(owner);
    if (!byKey) {
      byKey = new Map();
      this.byOwner.set(owner, byKey);
    }
    if (byKey.has(key)) return byKey.get(key) as Value;
    const value = make();
    byKey.set(key, value);
    return value;
  }
}
