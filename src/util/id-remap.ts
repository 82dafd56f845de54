import { type Cipher, createCipheriv, createHash, hash } from "node:crypto";
import { BASE62, caseSafeSuffix, SALESFORCE_ID, SUFFIX_CHARS } from "./salesforce-id.js";

/**
 * A sandbox refresh, as Salesforce does it: every record gets a new Id, the key prefix (which
 * names the object) kept and the rest fresh. One `IdRemap` is a keyed bijection on Ids: the same
 * key gives the same new Ids (a run is reproducible from its seed), a different key gives
 * unrelated ones (an answer file of the public dataset names no record a purple can see).
 *
 * The map is a keyed pseudo-random function of the 15-character (case-sensitive) Id (AES-128 on
 * the Id as one block: a few microseconds an Id where an HMAC took four times as long, which counts
 * for the 100,000 Id values of a full-size org), so it needs no table and applies alike to the
 * org, the task texts and the ground truths. A 15-character Id maps to a
 * 15-character one, an 18-character Id to an 18-character one with its case-safe suffix.
 * Collisions among 62^12 bodies are not expected; `assertInjective` checks an org's Ids.
 */
export class IdRemap {
  private readonly memo = new Map<string, string>();
  /** One cipher for the run: in ECB mode without padding each 16-byte block is enciphered on its own. */
  private readonly cipher: Cipher;
  /** HMAC-SHA256 under the key, for the names and maps derived from it. */
  private readonly mac: HmacSha256;

  private constructor(
    private readonly secretKey: Buffer,
    /** A fingerprint of the key, safe to publish: it names the map without giving it away. */
    readonly digest: string,
  ) {
    this.cipher = createCipheriv("aes-128-ecb", secretKey.subarray(0, 16), null);
    this.cipher.setAutoPadding(false);
    this.mac = new HmacSha256(secretKey);
  }

  /**
   * The remap of a run: from its seed and, when the operator sets one, a secret. Without a
   * secret anyone who knows the seed can recompute the map (the code is public); with one the
   * map is known only to the green agent. Recorded in the log as its digest, never the key.
   */
  static forRun(seed: number, secret = ""): IdRemap {
    const key = createHash("sha256").update(`entropic-crmarena id remap v1\0${secret}\0${seed}`).digest();
    return IdRemap.fromKey(key);
  }

  /** The same map in another thread of this process (the org copy is made off the event loop): from `keyForWorker()`. */
  static fromKey(key: Uint8Array): IdRemap {
    const copy = Buffer.from(key);
    return new IdRemap(copy, createHash("sha256").update(copy).digest("hex").slice(0, 16));
  }

  /** The key, for `fromKey` in a worker thread only: it is the map itself, so never logged or sent out of the process. */
  keyForWorker(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.secretKey);
  }

  /** The new Id of a 15- or 18-character Id; anything else is returned as it is. */
  id(id: string): string {
    if (!SALESFORCE_ID.test(id)) return id;
    const id15 = id.slice(0, 15);
    let mapped = this.memo.get(id15);
    if (mapped === undefined) {
      this.encipher([id15]);
      mapped = this.memo.get(id15)!;
    }
    return spelledLike(id, mapped);
  }

  /**
   * `id` of many values at once, as a map the caller holds (value -> new value, a value that is
   * no Id as itself): their Ids enciphered in one call of the cipher, the check and the suffix
   * once per distinct value. An org copy maps each Id several times (the record's own, and every
   * lookup to it), and these were the most of a lookup's cost.
   */
  answers(values: Iterable<string>): Map<string, string> {
    const answers = new Map<string, string>();
    const ids: string[] = [];
    const fresh = new Set<string>();
    for (const value of values) {
      if (answers.has(value)) continue;
      // Itself until its Id is enciphered below (a value that is no Id stays so).
      answers.set(value, value);
      if (!SALESFORCE_ID.test(value)) continue;
      ids.push(value);
      if (!this.memo.has(value.slice(0, 15))) fresh.add(value.slice(0, 15));
    }
    if (fresh.size > 0) this.encipher([...fresh]);
    for (const id of ids) answers.set(id, spelledLike(id, this.memo.get(id.slice(0, 15))!));
    return answers;
  }

  /**
   * The new Ids of 15-character Ids not met before, remembered: their blocks in one call of the
   * cipher (in ECB mode each is enciphered on its own, so the same bytes as one call each, at a
   * fraction of the cost for an org's tens of thousands of Ids).
   */
  private encipher(ids15: readonly string[]): void {
    const blocks = Buffer.alloc(16 * ids15.length);
    ids15.forEach((id15, i) => {
      blocks.write(id15, 16 * i, "latin1");
    });
    const enciphered = this.cipher.update(blocks);
    // Each new Id spelled into one buffer (its prefix kept, its body from the cipher's bytes) and
    // read back as one string: a string built a character at a time cost more than the cipher.
    const spelled = Buffer.allocUnsafe(15 * ids15.length);
    for (let i = 0; i < ids15.length; i++) {
      blocks.copy(spelled, 15 * i, 16 * i, 16 * i + 3);
      for (let at = 0; at < 12; at++) spelled[15 * i + 3 + at] = BASE62_CODES[enciphered[16 * i + at]! % 62]!;
    }
    ids15.forEach((id15, i) => {
      this.memo.set(id15, spelled.toString("latin1", 15 * i, 15 * i + 15));
    });
  }

  /**
   * A text with every record Id in it remapped: each 18-character token whose case-safe suffix
   * is right (which natural words almost never are), and each 15-character token that is one of
   * `known` (an org's Ids, by their first 15 characters) when given.
   */
  text(text: string, known?: ReadonlySet<string>): string {
    if (text.length < 15) return text;
    return replaceIdTokens(text, (token) => (isCaseSafeId(token) || (token.length === 15 && known?.has(token)) ? this.id(token) : token));
  }

  /** A ground truth with its Ids remapped (null, None and other values kept). */
  answer(answer: readonly (string | null)[]): (string | null)[] {
    return answer.map((item) => (item === null ? null : SALESFORCE_ID.test(item) ? this.id(item) : this.text(item)));
  }

  /**
   * An opaque name for an episode of a task: the purple sees it instead of the dataset index. A
   * task's first episode (no `episode`: its only one in a single-trial run) keeps the name it
   * always had; each other trial and paired view gets its own, so two episodes of a task share no name.
   */
  episodeId(taskIdx: number, episode?: EpisodeOrdinal): string {
    const name = episode ? `episode ${taskIdx} ${ordinalName(episode)}` : `episode ${taskIdx}`;
    return `ep-${this.mac.digest(name).toString("hex", 0, 6)}`;
  }

  /**
   * The second map an episode other than its task's first sees over the run's Ids: keyed by this
   * map's key and the episode, so no two episodes of a task show one record under one Id, and
   * no purple without the key can tell which of two Ids name the same record.
   */
  episodeLayer(taskIdx: number, episode: EpisodeOrdinal): IdRemap {
    return this.derive(`episode layer ${taskIdx} ${ordinalName(episode)}`);
  }

  /** Another map, keyed by this one's key and a label: unrelated to it for anyone without the key. */
  derive(label: string): IdRemap {
    return IdRemap.fromKey(this.mac.digest(label));
  }

  /** Throws if two of these Ids would get one new Id (a bijection is what makes the refresh faithful). */
  assertInjective(ids: Iterable<string>, answered?: ReadonlyMap<string, string>): void {
    const all = [...ids];
    // An org's Ids enciphered together, before they are compared one by one (and mapped by the
    // copy); or the caller's answers (`answers`) when it has them already.
    const answers = answered ?? this.answers(all);
    const seen = new Map<string, string>();
    for (const id of all) {
      const mapped = (answers.get(id) ?? this.id(id)).slice(0, 15);
      const other = seen.get(mapped);
      if (other !== undefined && other !== id.slice(0, 15)) throw new Error(`id remap collision: ${other} and ${id} both map to ${mapped}`);
      seen.set(mapped, id.slice(0, 15));
    }
  }
}

/** Which episode of a task other than its first: its trial (1-based) and, in a paired run, its view. */
export interface EpisodeOrdinal {
  readonly trial: number;
  readonly condition?: string | undefined;
}

const ordinalName = (episode: EpisodeOrdinal) => `trial ${episode.trial}${episode.condition ? ` ${episode.condition}` : ""}`;

/** 15 or 18 letters and digits with at least one digit, standing alone. */
export const ID_TOKEN = /(?<![A-Za-z0-9])(?=[A-Za-z0-9]{0,17}\d)[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?(?![A-Za-z0-9])/g;

/** Whether a UTF-16 code unit is an ASCII letter or digit (ID_TOKEN's [A-Za-z0-9]). */
function isIdChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** An ASCII digit: every Id token holds one, and most of a text's characters are none. */
const DIGIT = /[0-9]/g;

/**
 * `text.replace(ID_TOKEN, replace)`, found from the digits out: every task text, observation and
 * message passes through here, and the regular expression, its lookarounds tried at every
 * character, cost 3% of a run's CPU; the digits are found natively and only the run of letters
 * and digits around each is read. A token is a whole such run, 15 or 18 long (exactly what
 * ID_TOKEN matches: tests/id-remap.test.ts compares them).
 */
export function replaceIdTokens(text: string, replace: (token: string) => string): string {
  if (text.length < 15) return text;
  let out = "";
  let copied = 0;
  const length = text.length;
  const digits = new RegExp(DIGIT);
  for (let found = digits.exec(text); found !== null; found = digits.exec(text)) {
    let start = found.index;
    while (start > 0 && isIdChar(text.charCodeAt(start - 1))) start--;
    let end = found.index + 1;
    while (end < length && isIdChar(text.charCodeAt(end))) end++;
    digits.lastIndex = end;
    if (end - start !== 15 && end - start !== 18) continue;
    const token = text.slice(start, end);
    const replaced = replace(token);
    if (replaced === token) continue;
    out += text.slice(copied, start) + replaced;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * HMAC-SHA256 under one key (RFC 2104) from two one-shot hashes of the key's padded blocks and
 * the message: the same bytes as `createHmac`, without its key object and hash context per call
 * (an episode's name is one call, 2% of a run's CPU that way).
 */
class HmacSha256 {
  private readonly inner: Uint8Array;
  private readonly outer: Uint8Array;

  constructor(key: Buffer) {
    const block = Buffer.alloc(HMAC_BLOCK);
    (key.length > HMAC_BLOCK ? hash("sha256", key, "buffer") : key).copy(block);
    this.inner = block.map((byte) => byte ^ 0x36);
    this.outer = block.map((byte) => byte ^ 0x5c);
  }

  digest(message: string): Buffer {
    const inner = hash("sha256", Buffer.concat([this.inner, Buffer.from(message, "utf8")]), "buffer");
    return hash("sha256", Buffer.concat([this.outer, inner]), "buffer");
  }
}

/** SHA-256's block size in bytes, to which HMAC pads its key. */
const HMAC_BLOCK = 64;

/** A new 15-character Id in the form of the Id it replaces: with its case-safe suffix when that one had 18 characters. */
function spelledLike(id: string, mapped15: string): string {
  return id.length === 15 ? mapped15 : mapped15 + caseSafeSuffix(mapped15);
}

/** BASE62's characters as their codes. */
const BASE62_CODES = Uint8Array.from(BASE62, (char) => char.charCodeAt(0));

/** An 18-character Id whose suffix matches the case of its first 15 characters. */
export function isCaseSafeId(token: string): boolean {
  return token.length === 18 && caseSafeSuffix(token.slice(0, 15)) === token.slice(15);
}

/**
 * The key a record is compared by: its `canonicalId`, or the Id as written when it is not a
 * Salesforce Id (an org of other Ids, a value that only looks like one).
 */
export function recordKey(id: string): string {
  return canonicalId(id) ?? id;
}

/**
 * The record an Id names, as Salesforce resolves it: the 15-character case-sensitive form. An
 * 18-character Id in any letter case names one record (its suffix says which letters are upper
 * case), so it is brought back to its case first; a 15-character Id is taken as written.
 */
export function canonicalId(token: string): string | undefined {
  if (!SALESFORCE_ID.test(token)) return undefined;
  if (token.length === 15) return token;
  // Most Ids come in their own case already (every record Id of an org, on each copy's admission):
  // their suffix is the one their letters give, and the 15 characters are the record's as written.
  const head = token.slice(0, 15);
  if (caseSafeSuffix(head) === token.slice(15)) return head;
  const suffix = token.slice(15).toUpperCase();
  const chars = [...token.slice(0, 15).toLowerCase()];
  for (let chunk = 0; chunk < 3; chunk++) {
    const bits = SUFFIX_CHARS.indexOf(suffix[chunk]!);
    if (bits < 0) return undefined;
    for (let i = 0; i < 5; i++) if (bits & (1 << i)) chars[chunk * 5 + i] = chars[chunk * 5 + i]!.toUpperCase();
  }
  const id15 = chars.join("");
  // A letter the suffix marks upper case must be a letter: a digit there means no such Id.
  return caseSafeSuffix(id15) === suffix ? id15 : undefined;
}
