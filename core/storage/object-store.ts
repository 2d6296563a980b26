import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
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
  pdf: 'application/pdf',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  txt: 'text/plain; charset=utf-8',
};
export { assertKey, isObjectKey };

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
}

/** Seals some objects at rest (the engine's: extraction and pull JSON, docs/security.md). */
export interface ObjectSealer {
  /** Whether objects under this key are sealed when written. */
  seals(key: string): boolean;
  seal(key: string, data: Buffer): Promise<Buffer>;
  /** The object's bytes, opened when they are sealed (other bytes unchanged). */
  open(key: string, data: Buffer): Promise<Buffer>;
}

/**
 * Object storage. Keys live under an entry's `storeIndex` (`<orgId>/<entryId>/...`).
 * Reads by clients go through presigned, expiring URLs.
 */
export abstract class ObjectStore {
  abstract put(key: string, data: Buffer | string): Promise<void>;
  /** The object's bytes, or null when absent. */
  abstract get(key: string): Promise<Buffer | null>;
  /**
   * The object as a stream and its size, or null when absent: what serves a
   * download, so a large object passes through in bounded chunks instead of
   * one buffer per request. The default reads it whole (override it).
   */
  async openRead(key: string): Promise<{ stream: Readable; size: number } | null> {
    const data = await this.get(key);
    return data ? { stream: Readable.from([data]), size: data.length } : null;
  }
  /**
   * Writes the object (opened when sealed) to the file `path`, in bounded chunks; false when the object is absent.
   * What hands objects to another program (the portal worker's browser uploads files from disk) without holding
   * them in the daemon's memory.
   */
  async saveToFile(key: string, path: string): Promise<boolean> {
    const found = await this.openRead(key);
    if (!found) return false;
    await pipeline(found.stream, createWriteStream(path, { mode: 0o600 }));
    return true;
  }
  /** Removes every object under `prefix/`. */
  abstract deletePrefix(prefix: string): Promise<void>;
  /** A URL that reads the object until `ttlSeconds` from now. */
  abstract presign(key: string, ttlSeconds: number): string;

  private readonly readListeners = new Set<(key: string) => void>();
  protected sealer?: ObjectSealer;

  /** Seals the objects `sealer` names as they are written, and opens them as they are read (get, openRead). */
  setSealer(sealer: ObjectSealer): void {
    this.sealer = sealer;
  }

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
 * A store whose clients read through the daemon's own presigned URLs:
 * `GET /files/<key>?expires=<epoch seconds>&signature=<hex HMAC-SHA256 of "key\nexpires">`.
 * A tampered or expired URL is refused with 403. Every daemon configured with
 * the same `secret` accepts the URLs any of them signed.
 */
export abstract class SignedObjectStore extends ObjectStore {
  protected constructor(
    private readonly secret: string,
    private publicUrl: string,
  ) {
    super();
  }

  /** Sets the base of presigned URLs (the engine calls it once the daemon listens on a port chosen at start). */
  setPublicUrl(url: string): void {
    this.publicUrl = url.replace(/\/$/, '');
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

  /**
   * Where `GET /files/<key>` sends the client instead of streaming the object
   * itself: a URL of the store's own (an S3 presigned GET) valid `ttlSeconds`,
   * or null to stream through the daemon (the default). Called after the
   * daemon's signature was verified; throws NOT_FOUND when the object is absent.
   */
  async redirectUrl(_key: string, _ttlSeconds: number): Promise<string | null> {
    return null;
  }

  /**
   * Whether the store answers (readiness, `/readyz`): an answer younger than
   * `maxAgeMs` may be reused, so a load balancer's probes do not each cost a
   * request. Files on disk: always.
   */
  async ping(_maxAgeMs = 5000): Promise<boolean> {
    return true;
  }

  /** Releases what the store holds open (connections); the engine calls it on stop. */
  async close(): Promise<void> {
    // nothing to release by default
  }
}

/** How many folders LocalObjectStore remembers having made (a few hundred bytes each). */
const FOLDERS_MAX = 10_000;

/** Objects as files under a folder (`<dataDir>/objects`), served by the daemon at `/files/<key>`. */
export class LocalObjectStore extends SignedObjectStore {
  private readonly root: string;
  /**
   * Folders this store made (or is making): a write into one of them skips `mkdir`. A write into a new folder
   * (every pull, form and document of a new entry) would otherwise fail with ENOENT first, and node builds an
   * error with a stack for each. Forgotten when a prefix is deleted, or all at once past FOLDERS_MAX; a folder
   * removed behind the store's back is made again by the write that finds it missing.
   */
  private readonly folders = new Map<string, Promise<void>>();

  constructor(root: string, secret: string, publicUrl: string) {
    super(secret, publicUrl);
    this.root = resolve(root);
  }

  private path(key: string): string {
    assertKey(key);
    const p = join(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new TitledError('INVALID_INPUT', `invalid object key '${key}'`);
    return p;
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const p = this.path(key);
    if (this.sealer?.seals(key)) data = await this.sealer.seal(key, Buffer.from(data));
    // unique per write: concurrent writes of one key (a form regenerated by two requests) each rename their own whole file
    const tmp = `${p}.${randomUUID()}.tmp`;
    const folder = dirname(p);
    try {
      await (this.folders.get(folder) ?? this.makeFolder(folder));
      await writeFile(tmp, data, { mode: 0o600 }).catch(async (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
        this.folders.delete(folder);
        await this.makeFolder(folder);
        await writeFile(tmp, data, { mode: 0o600 });
      });
      await rename(tmp, p);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const data = await readFile(this.path(key));
      return this.sealer ? await this.sealer.open(key, data) : data;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw e;
    }
  }

  /** Reads the file in 64 KB chunks from one open descriptor (a rename that replaces it meanwhile does not change what is read). */
  override async openRead(key: string): Promise<{ stream: Readable; size: number } | null> {
    // a sealed object (small JSON) is opened whole
    if (this.sealer?.seals(key)) return super.openRead(key);
    let fh;
    try {
      fh = await open(this.path(key), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw e;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) {
        await fh.close();
        return null;
      }
      // the stream owns the handle from here and closes it when it ends or is destroyed
      return {
        stream: fh.createReadStream({ highWaterMark: 64 * 1024, start: 0, end: Math.max(st.size - 1, 0) }),
        size: st.size,
      };
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  /** A plain object is copied by the kernel (no bytes pass through the daemon); a sealed one is opened on the way. */
  override async saveToFile(key: string, path: string): Promise<boolean> {
    if (this.sealer?.seals(key)) return super.saveToFile(key, path);
    try {
      await copyFile(this.path(key), path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR')
        return false;
      throw e;
    }
  }

  /** Makes a folder once: the writes into it that start meanwhile (a pull's three files) wait for the same mkdir. */
  private makeFolder(folder: string): Promise<void> {
    if (this.folders.size >= FOLDERS_MAX) this.folders.clear();
    const made = mkdir(folder, { recursive: true, mode: 0o700 }).then(() => undefined);
    this.folders.set(folder, made);
    made.catch(() => this.folders.delete(folder));
    return made;
  }

  async deletePrefix(prefix: string): Promise<void> {
    this.folders.clear();
    await rm(this.path(prefix), { recursive: true, force: true });
  }
}

/** Object storage seen from one entry: names are relative to its `storeIndex`. */
export class EntryObjects {
  constructor(
    private readonly store: ObjectStore,
    readonly storeIndex: string,
  ) {}

  /** Stores `data` at `<storeIndex>/<name>` and returns that key (what entry fields hold). */
  async put(name: string, data: Buffer | string): Promise<string> {
    const key = `${this.storeIndex}/${name}`;
    await this.store.put(key, data);
    return key;
  }

  get(keyOrName: string): Promise<Buffer | null> {
    return this.store.get(this.keyOf(keyOrName));
  }

  /** ObjectStore.saveToFile for a key or a name of the entry. */
  saveToFile(keyOrName: string, path: string): Promise<boolean> {
    return this.store.saveToFile(this.keyOf(keyOrName), path);
  }

  private keyOf(keyOrName: string): string {
    return keyOrName.startsWith(this.storeIndex + '/') ? keyOrName : `${this.storeIndex}/${keyOrName}`;
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
