/**
 * Per-organization data keys (AES-256-GCM), stored wrapped by the master key
 * (table `data_keys`), unwrapped once per process and kept in memory. One
 * version per organization is active (what new writes use); retired versions
 * stay so whatever they sealed can still be read until it is sealed again.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { isUniqueViolation, type Database } from '../db/database.js';
import type { KeyProvider } from './key-provider.js';

export interface DataKey {
  version: number;
  key: Buffer;
}
interface KeyRow {
  version: number;
  wrapped: string;
  masterKeyId: string;
}

export class DataKeys {
  private readonly keys = new Map<string, Promise<Buffer>>();
  private readonly actives = new Map<string, { key: Promise<DataKey>; until: number; refreshing?: boolean }>();

  /**
   * @param activeCacheMs how long the active version is trusted before it is read again (another process may
   *   rotate it)
   */
  constructor(
    private readonly db: Database,
    readonly provider: KeyProvider,
    private readonly activeCacheMs: number,
  ) {}

  /**
   * The organization's active data key. `m`: the transaction the caller is in; the key row is read on its
   * connection (a read on another pooled connection while every connection is held by a transaction waiting for
   * this key would never get one). A cached key past `activeCacheMs` is still returned while it is read again in
   * the background, so only a process's first use of an organization waits.
   */
  active(orgId: string, m?: EntityManager): Promise<DataKey> {
    const c = this.actives.get(orgId);
    if (c && c.until <= Date.now() && !c.refreshing) {
      c.refreshing = true;
      this.loadActive(orgId).then(
        (key) => {
          this.actives.set(orgId, { key: Promise.resolve(key), until: Date.now() + this.activeCacheMs });
        },
        () => {
          c.refreshing = false;
        },
      );
    }
    if (c) return c.key;
    const key = this.loadActive(orgId, m);
    this.actives.set(orgId, { key, until: Date.now() + this.activeCacheMs });
    key.catch(() => this.actives.delete(orgId));
    return key;
  }

  private async loadActive(orgId: string, m?: EntityManager): Promise<DataKey> {
    for (let i = 0; i < 3; i++) {
      const rows = await this.db.query<KeyRow>(
        'SELECT version, wrapped, "masterKeyId" FROM data_keys WHERE "orgId" = ? AND state = ? ' +
          'ORDER BY version DESC LIMIT 1',
        [orgId, 'active'],
        m,
      );
      if (rows[0]) return { version: Number(rows[0].version), key: await this.unwrapRow(orgId, rows[0]) };
      try {
        // normally made with the organization or at start (outside any transaction); here only for an organization
        // another process added without a key (encryption off there)
        return await this.create(orgId, 1);
      } catch (e) {
        // another process made it meanwhile: read theirs
        if (!isUniqueViolation(e)) throw e;
      }
    }
    throw new Error(`no data key for organization ${orgId}`);
  }

  private async create(orgId: string, version: number): Promise<DataKey> {
    const key = randomBytes(32);
    const { masterKeyId, wrapped } = await this.provider.wrap(key);
    await this.db.exec(
      'INSERT INTO data_keys ("orgId", version, wrapped, "masterKeyId", state, "createdAt") VALUES (?, ?, ?, ?, ?, ?)',
      [orgId, version, wrapped, masterKeyId, 'active', Date.now()],
    );
    this.keys.set(`${orgId}:${version}`, Promise.resolve(key));
    return { version, key };
  }

  private unwrapRow(orgId: string, r: KeyRow): Promise<Buffer> {
    const id = `${orgId}:${Number(r.version)}`;
    let k = this.keys.get(id);
    if (!k) {
      k = this.provider.unwrap(r.wrapped, r.masterKeyId);
      this.keys.set(id, k);
      k.catch(() => this.keys.delete(id));
    }
    return k;
  }

  /** Version `version` of the organization's data key (active or retired). */
  async key(orgId: string, version: number, m?: EntityManager): Promise<Buffer> {
    const cached = this.keys.get(`${orgId}:${version}`);
    if (cached) return cached;
    const rows = await this.db.query<KeyRow>(
      'SELECT version, wrapped, "masterKeyId" FROM data_keys WHERE "orgId" = ? AND version = ?',
      [orgId, version],
      m,
    );
    if (!rows[0]) throw new Error(`organization ${orgId} has no data key version ${version}`);
    return this.unwrapRow(orgId, rows[0]);
  }

  /** Makes a new data key version active for the organization (the old ones are retired, kept for reading). */
  async rotate(orgId: string): Promise<DataKey> {
    await this.active(orgId);
    const max = await this.db.query<{ v: number }>('SELECT MAX(version) AS v FROM data_keys WHERE "orgId" = ?', [
      orgId,
    ]);
    await this.db.exec('UPDATE data_keys SET state = ? WHERE "orgId" = ?', ['retired', orgId]);
    const made = await this.create(orgId, Number(max[0]?.v ?? 0) + 1);
    this.actives.set(orgId, { key: Promise.resolve(made), until: Date.now() + this.activeCacheMs });
    return made;
  }

  /** Wraps every data key again with the provider's current master key; returns how many. */
  async rewrapAll(): Promise<number> {
    const rows = await this.db.query<KeyRow & { orgId: string }>(
      'SELECT "orgId", version, wrapped, "masterKeyId" FROM data_keys',
    );
    for (const r of rows) {
      const key = await this.provider.unwrap(r.wrapped, r.masterKeyId);
      const w = await this.provider.wrap(key);
      await this.db.exec('UPDATE data_keys SET wrapped = ?, "masterKeyId" = ? WHERE "orgId" = ? AND version = ?', [
        w.wrapped,
        w.masterKeyId,
        r.orgId,
        r.version,
      ]);
    }
    return rows.length;
  }

  /** Deletes the organization's retired versions (after everything they sealed was sealed again). */
  async dropRetired(orgId: string): Promise<number> {
    const { affected } = await this.db.exec('DELETE FROM data_keys WHERE "orgId" = ? AND state = ?', [
      orgId,
      'retired',
    ]);
    for (const k of [...this.keys.keys()]) if (k.startsWith(`${orgId}:`)) this.keys.delete(k);
    this.actives.delete(orgId);
    return affected;
  }
}
