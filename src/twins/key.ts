import { createHash } from "node:crypto";
import { inspect } from "node:util";

/**
 * The root of every random choice a twin set makes: the twin org, which twins are None, each
 * twin's entities and so its answer. A run's key is a keyed hash of the operator's secret and the
 * seed (`forRun`), so a purple that knows the seed (it is public, and so is this code) cannot
 * rebuild the set and read its answers off: without the secret it gets another org and other
 * twins. The key itself is never logged or sent: it serialises to its `digest`, a fingerprint
 * safe to print (the cache folder, the results' `builtFrom`), from which neither the key nor the
 * seed can be recovered.
 */
export class TwinKey {
  readonly #root: string;
  /** A fingerprint of the key, safe to publish: it names the set without giving it away. */
  readonly digest: string;

  private constructor(root: string) {
    this.#root = root;
    this.digest = createHash("sha256").update(`entropic-crmarena twin key digest\0${root}`).digest("hex").slice(0, 16);
  }

  /** The key of a run's twin set: from the operator's secret (resolveIdSecret in src/data, the Id remap's) and the seed. */
  static forRun(seed: number, secret: string): TwinKey {
    return new TwinKey(createHash("sha256").update(`entropic-crmarena twins v1\0${secret}\0${seed}`).digest("hex"));
  }

  /**
   * A key anyone can compute from the seed alone: the set the builder made before twins were
   * keyed, so measurements that must be the same on every machine (the validity suite, the twins'
   * calibration, the tests) keep their figures. Never for a run a purple could game: with the
   * seed it rebuilds the set.
   */
  static unkeyed(seed: number): TwinKey {
    return new TwinKey(String(seed));
  }

  /** The text a random source's seed is built from (`new Random(\`twin:${key.seedText()}:…\`)`); inside the builder only. */
  seedText(): string {
    return this.#root;
  }

  toJSON(): string {
    return this.digest;
  }

  toString(): string {
    return `twin key ${this.digest}`;
  }

  [inspect.custom](): string {
    return `TwinKey(${this.digest})`;
  }
}
