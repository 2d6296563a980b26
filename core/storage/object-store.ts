import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { TitledError } from '../errors.js';

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._\-/]*$/;

/** Whether `key` is a well-formed object key (no empty, `.` or `..` segments; at most 1024 characters). */
function isObjectKey(key: string): boolean {
  return KEY_RE.test(key) && !key.split('/').some((p) => p === '' || p === '.' || p === '..') && key.length <= 1024;
}

function assertKey(key: string): void {
  if (!isObjectKey(key)) throw new TitledError('INVALID_INPUT', `invalid object key '${key}'`);
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', json: 'application/json', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', txt: 'text/plain; charset=utf-8',
};
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Object storage. Keys live under an entry's `storeIndex` (`<orgId>/<entryId>/...`).
 * Reads by clients go through presigned, expiring URLs.
 */
export abstract class ObjectStore {
  abstract put(key: string, data: Buffer | string): Promise<void>;
  /** The object's bytes, or null when absent. */
  abstract get(key: string): Promise<Buffer | null>;
  /** Removes every object under `prefix/`. */
  abstract deletePrefix(prefix: string): Promise<void>;
  /** A URL that reads the object until `ttlSeconds` from now. */
  abstract presign(key: string, ttlSeconds: number): string;

  private readonly readListeners = new Set<(key: string) => void>();

  /**
   * Calls `fn` with the key of every object a client reads through a
   * presigned URL (`GET /files/...`), after the read was served; plugins count
   * downloads this way. Returns a function that removes the listener.
   */
  onRead(fn: (key: string) => void): () => void {
    this.readListeners.add(fn);
    return () => void this.readListeners.delete(fn);
  }

  /** Tells the read listeners a client read `key`; a listener that throws does not affect the read or the others. */
  notifyRead(key: string): void {
    for (const fn of this.readListeners) {
      try {
        fn(key);
      } catch {
        // a listener handles (and logs) its own failures
      }
    }
  }
}

/**
 * Objects as files under a folder; the daemon serves them at
 * `GET /files/<key>?expires=<epoch seconds>&signature=<hex HMAC-SHA256 of "key\nexpires">`.
 * A tampered or expired URL is refused with 403.
 */
export class LocalObjectStore extends ObjectStore {
  private readonly root: string;

  constructor(root: string, private readonly secret: string, private publicUrl: string) {
    super();
    this.root = resolve(root);
  }

  /** Sets the base of presigned URLs (the engine calls it once the daemon listens on a port chosen at start). */
  setPublicUrl(url: string): void {
    this.publicUrl = url.replace(/\/$/, '');
  }

  private path(key: string): string {
    assertKey(key);
    const p = join(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new TitledError('INVALID_INPUT', `invalid object key '${key}'`);
    return p;
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, p);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw e;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix), { recursive: true, force: true });
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('hex');
  }

  presign(key: string, ttlSeconds: number): string {
    assertKey(key);
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${this.publicUrl}/files/${path}?expires=${expires}&signature=${this.sign(key, expires)}`;
  }

  /** Checks a presigned URL's parts: true only for an untampered, unexpired signature. */
  verify(key: string, expires: string | undefined, signature: string | undefined): boolean {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return false;
    if (Number(expires) < Date.now() / 1000) return false;
    const want = Buffer.from(this.sign(key, Number(expires)), 'hex');
    return timingSafeEqual(want, Buffer.from(signature, 'hex'));
  }
}

/** Object storage seen from one entry: names are relative to its `storeIndex`. */
export class EntryObjects {
  constructor(private readonly store: ObjectStore, readonly storeIndex: string) {}

  /** Stores `data` at `<storeIndex>/<name>` and returns that key (what entry fields hold). */
  async put(name: string, data: Buffer | string): Promise<string> {
    const key = `${this.storeIndex}/${name}`;
    await this.store.put(key, data);
    return key;
  }

  get(keyOrName: string): Promise<Buffer | null> {
    return this.store.get(keyOrName.startsWith(this.storeIndex + '/') ? keyOrName : `${this.storeIndex}/${keyOrName}`);
  }
}

/**
 * Rewrites every object key in an entry into a presigned URL. A key is any
 * string value that starts with the entry's `storeIndex` followed by `/`
 * (every object of an entry lives there), wherever it sits in the entry.
 */
export function presignEntry<T>(entry: T & { storeIndex: string }, store: ObjectStore, ttlSeconds: number): T {
  const prefix = entry.storeIndex + '/';
  const walk = (v: unknown): unknown => {
    // a client's string that merely starts like a key is left as it is (presign would throw and make the entry unreadable)
    if (typeof v === 'string') return v.startsWith(prefix) && isObjectKey(v) ? store.presign(v, ttlSeconds) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(entry) as T;
}

/**
 * False when the stored JSON text of an entry of organization `orgId` surely
 * holds no object key, so `presignEntry` would change nothing. Keys are string
 * values under `<orgId>/<entryId>/` and `storeIndex` (`<orgId>/<entryId>`,
 * see newEntry) is the one string that may start with `<orgId>/`; a UUID needs
 * no JSON escaping, so each such string shows as `"<orgId>/` in the text.
 * Conservative: true when unsure (a second occurrence, or none at all).
 */
export function mayHoldObjectKeys(json: string, orgId: string): boolean {
  const needle = `"${orgId}/`;
  const first = json.indexOf(needle);
  return first < 0 || json.indexOf(needle, first + needle.length) >= 0;
}
