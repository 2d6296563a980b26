/**
 * Master keys: what wraps the per-organization data keys (envelope
 * encryption, docs/security.md). A provider wraps and unwraps data keys; it
 * never hands out a master key. Two implementations: `local` (a key from the
 * config, or a key file created 0600 under dataDir at first start) and `http`
 * (a KMS-style service at a configurable endpoint).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { TitledConfig } from '../config.js';
import { EngineConfigError } from '../errors.js';
import { open, seal } from './aead.js';

export interface KeyProvider {
  /** Wraps a data key with the current master key; returns the id of that master key and the wrapped bytes. */
  wrap(dataKey: Buffer): Promise<{ masterKeyId: string; wrapped: string }>;
  /** Unwraps a data key wrapped by master key `masterKeyId` (an older master key too, until it is retired). */
  unwrap(wrapped: string, masterKeyId: string): Promise<Buffer>;
  /** Makes a new master key current; returns its id. */
  rotate(): Promise<string>;
  /** The id of the current master key. */
  currentId(): Promise<string>;
  /** Forgets master keys other than the current one (after every data key was wrapped again). */
  retireOthers(): Promise<void>;
}

const WRAP_AAD = 'titled:data-key';
const keyId = (key: Buffer) => `mk_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

function parseMaster(b64: string, what: string): Buffer {
  const key = Buffer.from(b64, 'base64');
  if (key.length !== 32)
    throw new EngineConfigError(`${what} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return key;
}

interface KeyFile {
  current: string;
  keys: Record<string, string>;
}

/**
 * Master keys held locally: `encryption.masterKey` (+ `previousMasterKeys`
 * while rotating), or else a key file (default `<dataDir>/master.key`, JSON
 * `{current, keys: {id: base64}}`, mode 0600) created at first start.
 */
export class LocalKeyProvider implements KeyProvider {
  private keys = new Map<string, Buffer>();
  private current = '';
  private readonly file?: string;

  constructor(cfg: { masterKey?: string; previousMasterKeys?: readonly string[]; keyFile?: string; dataDir: string }) {
    if (cfg.masterKey) {
      const k = parseMaster(cfg.masterKey, 'encryption.masterKey');
      this.current = keyId(k);
      this.keys.set(this.current, k);
      for (const p of cfg.previousMasterKeys ?? []) {
        const old = parseMaster(p, 'encryption.previousMasterKeys[]');
        this.keys.set(keyId(old), old);
      }
      return;
    }
    this.file = resolve(cfg.keyFile ?? join(cfg.dataDir, 'master.key'));
    this.load();
  }

  private load(): void {
    const file = this.file!;
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const k = randomBytes(32);
      // written whole to a temp file, then linked into place: two processes starting on a new folder agree on one key
      const tmp = `${file}.${process.pid}.${randomUUID()}`;
      writeFileSync(tmp, JSON.stringify({ current: keyId(k), keys: { [keyId(k)]: k.toString('base64') } }), {
        mode: 0o600,
      });
      try {
        linkSync(tmp, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      } finally {
        unlinkSync(tmp);
      }
    }
    let parsed: KeyFile;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
    } catch (e) {
      throw new EngineConfigError(`cannot read the master key file ${file}: ${(e as Error).message}`);
    }
    this.keys = new Map(Object.entries(parsed.keys).map(([id, b64]) => [id, parseMaster(b64, `key ${id} in ${file}`)]));
    if (!this.keys.has(parsed.current))
      throw new EngineConfigError(`${file}: the current master key ${parsed.current} is missing`);
    this.current = parsed.current;
  }

  private save(): void {
    const file = this.file!;
    const tmp = `${file}.${process.pid}.${randomUUID()}`;
    const keys = Object.fromEntries([...this.keys].map(([id, k]) => [id, k.toString('base64')]));
    writeFileSync(tmp, JSON.stringify({ current: this.current, keys }), { mode: 0o600 });
    renameSync(tmp, file);
  }

  async wrap(dataKey: Buffer) {
    return { masterKeyId: this.current, wrapped: seal(this.keys.get(this.current)!, dataKey, WRAP_AAD) };
  }

  async unwrap(wrapped: string, masterKeyId: string): Promise<Buffer> {
    // another process (titled keys rotate-master) may have added it to the key file since this one read it
    if (!this.keys.has(masterKeyId) && this.file) this.load();
    const k = this.keys.get(masterKeyId);
    if (!k)
      throw new EngineConfigError(
        `master key ${masterKeyId} is not available (wrong key file or encryption.masterKey?)`,
      );
    return open(k, wrapped, WRAP_AAD);
  }

  async currentId(): Promise<string> {
    return this.current;
  }

  async rotate(): Promise<string> {
    // a configured key is rotated by the operator: set the new masterKey, keep the old one in previousMasterKeys
    if (!this.file) return this.current;
    const k = randomBytes(32);
    this.keys.set(keyId(k), k);
    this.current = keyId(k);
    this.save();
    return this.current;
  }

  async retireOthers(): Promise<void> {
    if (!this.file) return;
    this.keys = new Map([[this.current, this.keys.get(this.current)!]]);
    this.save();
  }
}

/**
 * A KMS-style service over HTTP (JSON, `Authorization: Bearer <token>` when
 * configured): `POST <url>/wrap {plaintext}` → `{keyId, ciphertext}`,
 * `POST <url>/unwrap {keyId, ciphertext}` → `{plaintext}`, `POST <url>/rotate`
 * → `{keyId}`, `GET <url>/current` → `{keyId}`, `POST <url>/retire` (base64 values).
 */
export class HttpKeyProvider implements KeyProvider {
  constructor(private readonly cfg: { url: string; token?: string; timeoutMs: number }) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.cfg.token) headers.authorization = `Bearer ${this.cfg.token}`;
    const res = await fetch(`${this.cfg.url.replace(/\/$/, '')}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.cfg.timeoutMs),
    });
    if (!res.ok) throw new Error(`key service ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  async wrap(dataKey: Buffer) {
    const r = await this.call<{ keyId: string; ciphertext: string }>('POST', '/wrap', {
      plaintext: dataKey.toString('base64'),
    });
    return { masterKeyId: r.keyId, wrapped: r.ciphertext };
  }

  async unwrap(wrapped: string, masterKeyId: string): Promise<Buffer> {
    const r = await this.call<{ plaintext: string }>('POST', '/unwrap', { keyId: masterKeyId, ciphertext: wrapped });
    return Buffer.from(r.plaintext, 'base64');
  }

  async rotate(): Promise<string> {
    return (await this.call<{ keyId: string }>('POST', '/rotate', {})).keyId;
  }

  async currentId(): Promise<string> {
    return (await this.call<{ keyId: string }>('GET', '/current')).keyId;
  }

  async retireOthers(): Promise<void> {
    await this.call('POST', '/retire', {});
  }
}

export function keyProviderFor(config: Pick<TitledConfig, 'encryption' | 'dataDir'>): KeyProvider {
  const e = config.encryption;
  if (e.provider === 'http') {
    if (!e.http) throw new EngineConfigError('encryption.provider http needs encryption.http.url');
    return new HttpKeyProvider(e.http);
  }
  return new LocalKeyProvider({ ...e, dataDir: config.dataDir });
}
