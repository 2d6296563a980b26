/**
 * PII at rest (docs/security.md): SSNs, dates of birth and license numbers
 * are sealed field by field when JSON is written (`stringify`) and opened
 * when it is read (`open`), with the organization's data key. A sealed value
 * is the JSON string `"enc:pii:<version>:<base64url>"` in place of the plain
 * one; everything else in the document stays as it was (indexes, presigning,
 * JSON queries). Whole JSON objects (extractions, pull records) are sealed as
 * one blob (`sealBlob`).
 */
import type { EntityManager } from 'typeorm';
import type { DataKey, DataKeys } from './data-keys.js';
import { open, seal } from './aead.js';

export const PII_PREFIX = 'enc:pii:';
/** Member names whose string values are PII wherever they sit; `number` is PII inside a `dlid` (driver's license). */
export const PII_KEYS: ReadonlySet<string> = new Set(['ssn', 'dob', 'license_number']);
// a sealed value as a JSON string value (a member name is followed by ':', a value is not)
const TOKEN_RE = /"enc:pii:(\d{1,9}):([A-Za-z0-9_-]+)"(?!\s*:)/g;
/** Text the replacer below could change: a PII member, a license, or a string that looks sealed. */
const MAY_SEAL_RE = /"(?:ssn|dob|license_number|dlid)":|enc:pii:/;
const BLOB_MAGIC = 'titled-sealed-v1:';
const aadOf = (orgId: string) => `titled:pii:${orgId}`;

const OPENED_MAX = 20_000;

export class PiiCodec {
  /**
   * Sealed values this codec opened (organization + sealed token -> the JSON string), oldest dropped first. The
   * plaintext is what a read hands out anyway; the cache spares the key look-up and decipher on every read.
   */
  private readonly opened = new Map<string, string>();
  /** @param enabled whether writes seal (reads always open what is sealed) */
  constructor(
    readonly keys: DataKeys,
    readonly enabled: boolean,
  ) {}

  /** JSON text of `value` with its PII values sealed (plain JSON when encryption is off). */
  async stringify(orgId: string, value: unknown, space?: number, m?: EntityManager): Promise<string> {
    if (!this.enabled) return JSON.stringify(value, null, space);
    return this.stringifyWith(orgId, await this.keys.active(orgId, m), value, space);
  }

  /**
   * `stringify` with a key at hand (synchronous). `memo` (plain value → sealed value) may be shared by the calls
   * that write one row, so a value the row holds twice (account_data and its source) is sealed once.
   */
  stringifyWith(orgId: string, k: DataKey, value: unknown, space?: number, memo = new Map<string, string>()): string {
    // JSON.stringify with a replacer leaves V8's fast path (about 20 us per entry written): most documents have no
    // member the replacer would change, and for those the plain text is the same text
    const plain = JSON.stringify(value, null, space);
    if (plain === undefined || !MAY_SEAL_RE.test(plain)) return plain;
    const aad = aadOf(orgId);
    const token = (s: string) => {
      let t = memo.get(s);
      if (t === undefined) {
        t = `${PII_PREFIX}${k.version}:${seal(k.key, Buffer.from(s), aad)}`;
        memo.set(s, t);
      }
      return t;
    };
    const licenses = new WeakSet<object>();
    // a client's string that merely looks sealed is sealed too, so every such string in stored text is one we sealed
    return JSON.stringify(
      value,
      function (this: object, name: string, v: unknown) {
        if (typeof v === 'string') {
          return PII_KEYS.has(name) || (name === 'number' && licenses.has(this)) || v.startsWith(PII_PREFIX)
            ? token(v)
            : v;
        }
        if (name === 'dlid' && v && typeof v === 'object') licenses.add(v);
        return v;
      },
      space,
    );
  }

  /** The JSON text with every sealed value opened (the text as before sealing); `m`: the caller's transaction. */
  open(orgId: string, text: string, m?: EntityManager): Promise<string> | string {
    // most documents hold nothing sealed: no promise for them (every GET /title/{id} reads one)
    return text.includes(PII_PREFIX) ? this.openSealed(orgId, text, m) : text;
  }

  private async openSealed(orgId: string, text: string, m?: EntityManager): Promise<string> {
    // a value opened before is taken from the cache: reads (GET /title/{id}) then cost no key look-up or decipher
    const cacheKey = (all: string) => `${orgId}\u0000${all}`;
    const versions = new Set<number>();
    for (const t of text.matchAll(TOKEN_RE)) if (!this.opened.has(cacheKey(t[0]))) versions.add(Number(t[1]));
    const keys = new Map<number, Buffer>();
    for (const v of versions) {
      try {
        keys.set(v, await this.keys.key(orgId, v, m));
      } catch (e) {
        // with sealing off, a client's string may look sealed without being so: it stays as written
        if (this.enabled) throw e;
      }
    }
    const aad = aadOf(orgId);
    return text.replace(TOKEN_RE, (all, v: string, sealed: string) => {
      const k = cacheKey(all);
      let plain = this.opened.get(k);
      if (plain === undefined) {
        const opened = this.openOne(keys.get(Number(v)), sealed, aad);
        if (opened === undefined) return all;
        plain = opened;
        if (this.opened.size >= OPENED_MAX) this.opened.delete(this.opened.keys().next().value!);
        this.opened.set(k, plain);
      }
      return plain;
    });
  }

  /** One sealed value as a JSON string; undefined when it does not open and sealing is off (see `open`). */
  private openOne(key: Buffer | undefined, sealed: string, aad: string): string | undefined {
    try {
      if (!key) throw new Error('no data key for a sealed value');
      return JSON.stringify(open(key, sealed, aad).toString());
    } catch (e) {
      if (this.enabled) throw e;
      return undefined;
    }
  }

  /** Parses JSON text written by `stringify`. */
  async parse<T>(orgId: string, text: string, m?: EntityManager): Promise<T> {
    return JSON.parse(await this.open(orgId, text, m)) as T;
  }

  /** Whether the text holds a value sealed with a version other than `version`. */
  sealedWithOther(text: string, version: number): boolean {
    for (const m of text.matchAll(TOKEN_RE)) if (Number(m[1]) !== version) return true;
    return false;
  }

  /** Seals a whole object (bytes) with the organization's active key. */
  async sealBlob(orgId: string, data: Buffer): Promise<Buffer> {
    if (!this.enabled) return data;
    const k = await this.keys.active(orgId);
    return Buffer.from(`${BLOB_MAGIC}${k.version}:${seal(k.key, data, aadOf(orgId))}`);
  }

  /** Opens what `sealBlob` made (other bytes are returned as they are). */
  async openBlob(orgId: string, data: Buffer): Promise<Buffer> {
    if (!isSealedBlob(data)) return data;
    const text = data.toString('latin1');
    const rest = text.slice(BLOB_MAGIC.length);
    const colon = rest.indexOf(':');
    const key = await this.keys.key(orgId, Number(rest.slice(0, colon)));
    return open(key, rest.slice(colon + 1), aadOf(orgId));
  }
}

export function isSealedBlob(data: Buffer): boolean {
  return data.length > BLOB_MAGIC.length && data.subarray(0, BLOB_MAGIC.length).toString('latin1') === BLOB_MAGIC;
}
