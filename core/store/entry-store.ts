import type { EntityManager } from 'typeorm';
import type { PiiCodec } from '../crypto/pii.js';
import type { Database } from '../db/database.js';
import { TitledError } from '../errors.js';
import type { TitleEntry } from '../model/entry.js';
import {
  ACCOUNT_STATUS_MOVES,
  assertMove,
  FORMS_STATUS_MOVES,
  FOUND_STATUS_MOVES,
  JOB_STATUS_MOVES,
  PHYSICAL_TITLE_STATUS_MOVES,
  type JobStatus,
} from '../status.js';

const STATUS_MACHINES = {
  job_status: JOB_STATUS_MOVES,
  account_status: ACCOUNT_STATUS_MOVES,
  physical_title_status: PHYSICAL_TITLE_STATUS_MOVES,
  nmvtis_found_status: FOUND_STATUS_MOVES,
  state_found_status: FOUND_STATUS_MOVES,
  portal_found_status: FOUND_STATUS_MOVES,
  public_found_status: FOUND_STATUS_MOVES,
  forms_status: FORMS_STATUS_MOVES,
};
export type StatusField = keyof typeof STATUS_MACHINES;

/**
 * Moves one status field of `entry` through its table (core/status.ts) in
 * memory and returns the event the move makes (`title.<field>.<new status>`),
 * or null when the status already is `to`. Throws CONFLICT for a move the
 * table does not allow. `EntryStore.setStatus` and a stage's `ctx.setStatus`
 * both go through here; the caller writes the event to the outbox.
 */
export function moveStatus(
  entry: TitleEntry,
  field: StatusField,
  to: string,
  payload: Record<string, unknown> = {},
): { name: string; payload: Record<string, unknown> } | null {
  const from = (entry[field] as string | undefined) ?? 'none';
  if (from === to) return null;
  assertMove(field, STATUS_MACHINES[field] as Record<string, readonly string[]>, from, to);
  (entry as Record<string, unknown>)[field] = to;
  return { name: `title.${field}.${to}`, payload: { field, from, to, ...payload } };
}
import type { Outbox } from './outbox.js';

export interface StoredEntry {
  entry: TitleEntry;
  version: number;
}

export interface EntryFilter {
  vin?: string;
  groupId?: string;
  state?: string;
  job_status?: string;
  account_status?: string;
  /** Case-insensitive substring of the stored document (the console's search; callers narrow the hits to the fields they search). */
  text?: string;
  /** The principal's groups; null = no group restriction (sees every entry of the organization). */
  visibleGroups: readonly string[] | null;
}

export interface PageCursor {
  createdAt: number;
  id: string;
}

interface EntryRow {
  doc: string;
  sources: string | null;
  version: number;
}

/**
 * The JSON text of an entry with its sources: the stored document with an
 * `account_sources` member appended (the document is written without it).
 */
function withSources(doc: string, sources: string | null): string {
  return sources === null ? doc : `${doc.slice(0, -1)}${doc.length > 2 ? ',' : ''}"account_sources":${sources}}`;
}

type Stringify = (value: unknown) => string;

/**
 * The entry's document (what clients see, before presigning) and its sources (undefined: not held, keep the stored
 * ones), as `json` writes them (with PII sealed: core/crypto/pii.ts).
 */
function toColumns(entry: TitleEntry, json: Stringify): { doc: string; sources: string | null | undefined } {
  if (!Object.hasOwn(entry, 'account_sources')) return { doc: json(entry), sources: undefined };
  const { account_sources: list, ...visible } = entry;
  return { doc: json(visible), sources: list ? json(list) : null };
}

/**
 * Entries of organizations. Every method is scoped by organization id; ids of
 * duplicate pointers resolve to their canonical entry.
 */
export class EntryStore {
  /**
   * @param pii seals SSNs, dates of birth and license numbers in `doc` and `sources` as they are written, and opens
   *   them as they are read: the one place entries are encrypted at rest (docs/security.md)
   */
  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
    private readonly pii?: PiiCodec,
  ) {}

  /** The JSON writer for the organization's entries (sealing PII when encryption is on). */
  private async writer(orgId: string, m?: EntityManager): Promise<Stringify> {
    const pii = this.pii;
    if (!pii?.enabled) return (v) => JSON.stringify(v);
    const k = await pii.keys.active(orgId, m);
    // one writer per row written: a value in both doc and sources is sealed once
    const memo = new Map<string, string>();
    return (v) => pii.stringifyWith(orgId, k, v, undefined, memo);
  }

  /** Stored JSON text with its sealed PII opened. */
  private opened(orgId: string, text: string, m?: EntityManager): Promise<string> | string {
    return this.pii ? this.pii.open(orgId, text, m) : text;
  }

  private async fromRow(orgId: string, r: EntryRow, m?: EntityManager): Promise<StoredEntry> {
    const doc = await this.opened(orgId, withSources(r.doc, r.sources), m);
    return { entry: JSON.parse(doc) as TitleEntry, version: Number(r.version) };
  }

  /** The canonical entry id for `id` (itself, or the entry a pointer points at), or null. */
  async resolveId(orgId: string, id: string, m?: EntityManager): Promise<string | null> {
    const rows = await this.db.query<{ id: string }>(
      'SELECT id FROM entries WHERE "orgId" = ? AND id = ? UNION ALL SELECT "canonicalId" AS id FROM duplicate_pointers WHERE "orgId" = ? AND id = ?',
      [orgId, id, orgId, id],
      m,
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Inside a transaction (`m`) on PostgreSQL the row is locked until the
   * transaction ends, so a read-modify-write (status change, checkpoint,
   * update) cannot overwrite a concurrent one or write its events out of order.
   * (SQLite transactions are serialized already.)
   */
  private lock(m?: EntityManager, of?: string): string {
    return m && this.db.dialect === 'postgres' ? ` FOR UPDATE${of ? ` OF ${of}` : ''}` : '';
  }

  /** The entry for `id` (or the canonical entry of a pointer id); locked for the transaction `m` when given. */
  async load(orgId: string, id: string, m?: EntityManager): Promise<StoredEntry | null> {
    let rows = await this.db.query<EntryRow>(
      `SELECT doc, sources, version FROM entries WHERE "orgId" = ? AND id = ?${this.lock(m)}`,
      [orgId, id],
      m,
    );
    if (!rows.length) {
      rows = await this.db.query<EntryRow>(
        `SELECT e.doc, e.sources, e.version FROM duplicate_pointers p JOIN entries e ON e.id = p."canonicalId" WHERE p."orgId" = ? AND p.id = ?${this.lock(m, 'e')}`,
        [orgId, id],
        m,
      );
    }
    return rows[0] ? this.fromRow(orgId, rows[0], m) : null;
  }

  /**
   * The version of the canonical entry `id`, or null when it does not exist;
   * locked for the transaction `m` when given (see `load`). A writer that
   * knows which version it last read or wrote learns whether anyone else
   * wrote the entry since, without reading the document.
   */
  async versionOf(orgId: string, id: string, m?: EntityManager): Promise<number | null> {
    const rows = await this.db.query<{ version: number }>(
      `SELECT version FROM entries WHERE "orgId" = ? AND id = ?${this.lock(m)}`,
      [orgId, id],
      m,
    );
    return rows[0] ? Number(rows[0].version) : null;
  }

  /** The stored JSON text of an entry (the hot path of GET /title/{id}: no parse when nothing is rewritten). */
  async loadRaw(orgId: string, id: string): Promise<string | null> {
    // the pointer's arm runs only when `id` is no entry of its own (the first row ends the statement)
    const doc = await this.db.firstValue<string>(
      'SELECT doc FROM entries WHERE "orgId" = ? AND id = ? UNION ALL SELECT e.doc FROM duplicate_pointers p JOIN entries e ON e.id = p."canonicalId" WHERE p."orgId" = ? AND p.id = ?',
      [orgId, id, orgId, id],
    );
    return doc === undefined ? null : this.opened(orgId, doc);
  }

  /** The entry with this VIN; locked for the transaction `m` when given (see `load`). */
  async findByVin(orgId: string, vin: string, m?: EntityManager): Promise<StoredEntry | null> {
    const rows = await this.db.query<EntryRow>(
      `SELECT doc, sources, version FROM entries WHERE "orgId" = ? AND vin = ?${this.lock(m)}`,
      [orgId, vin],
      m,
    );
    return rows[0] ? this.fromRow(orgId, rows[0], m) : null;
  }

  async insert(m: EntityManager, orgId: string, entry: TitleEntry): Promise<void> {
    const now = entry.last_modified;
    const { doc, sources } = toColumns(entry, await this.writer(orgId, m));
    await this.db.exec(
      'INSERT INTO entries (id, "orgId", vin, state, "groupId", "jobStatus", "accountStatus", "createdAt", "updatedAt", version, doc, sources) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
      [
        entry.entryId,
        orgId,
        entry.VIN || null,
        entry.state,
        entry.groupId ?? null,
        entry.job_status,
        entry.account_status,
        Date.parse(entry.createdAt),
        now,
        doc,
        sources ?? null,
      ],
      m,
    );
    await this.outbox.append(
      m,
      {
        orgId,
        entryId: entry.entryId,
        name: `title.job_status.${entry.job_status}`,
        payload: { field: 'job_status', from: null, to: entry.job_status },
      },
      now,
    );
  }

  /**
   * Writes the entry (doc and indexed columns). With `expectedVersion`, fails
   * with CONFLICT when someone else wrote it since. Returns the new version.
   */
  async save(m: EntityManager, orgId: string, entry: TitleEntry, expectedVersion?: number): Promise<number> {
    return (await this.write(m, orgId, entry, expectedVersion)).version;
  }

  /** `save`, returning what it stored: the new version and the JSON text written (with `entry`, the object given). */
  async write(m: EntityManager, orgId: string, entry: TitleEntry, expectedVersion?: number): Promise<StoredEntry> {
    const json = await this.writer(orgId, m);
    entry.last_modified = Date.now();
    const { doc, sources } = toColumns(entry, json);
    const params: unknown[] = [
      entry.VIN || null,
      entry.state,
      entry.groupId ?? null,
      entry.job_status,
      entry.account_status,
      entry.last_modified,
      doc,
    ];
    // an entry read without its sources (a list item) leaves the stored sources as they are
    const setSources = sources !== undefined ? ', sources = ?' : '';
    if (sources !== undefined) params.push(sources);
    params.push(orgId, entry.entryId);
    let sql =
      `UPDATE entries SET vin = ?, state = ?, "groupId" = ?, "jobStatus" = ?, "accountStatus" = ?, "updatedAt" = ?, doc = ?${setSources}, ` +
      'version = version + 1 WHERE "orgId" = ? AND id = ?';
    if (expectedVersion !== undefined) {
      sql += ' AND version = ?';
      params.push(expectedVersion);
    }
    // the new version comes back with the update (one statement, not an update and a read)
    const { rows } = await this.db.exec<{ version: number }>(`${sql} RETURNING version`, params, m);
    if (rows.length !== 1) throw new TitledError('CONFLICT', `entry ${entry.entryId} changed or was deleted meanwhile`);
    return { entry, version: Number(rows[0]!.version) };
  }

  async addPointer(
    m: EntityManager,
    p: { id: string; orgId: string; canonicalId: string; userId: string },
  ): Promise<void> {
    await this.db.exec(
      'INSERT INTO duplicate_pointers (id, "orgId", "canonicalId", "userId", "createdAt") VALUES (?, ?, ?, ?, ?)',
      [p.id, p.orgId, p.canonicalId, p.userId, Date.now()],
      m,
    );
  }

  /** Moves job_status through the transition table and appends its event to the outbox (same transaction). */
  setJobStatus(
    m: EntityManager,
    orgId: string,
    entry: TitleEntry,
    to: JobStatus,
    payload: Record<string, unknown> = {},
  ): Promise<void> {
    return this.setStatus(m, orgId, entry, 'job_status', to, payload);
  }

  /**
   * Moves one of the entry's status fields through its table (core/status.ts)
   * and appends `title.<field>.<new status>` to the outbox in the same
   * transaction. No move, no event. The caller saves the entry.
   */
  async setStatus(
    m: EntityManager,
    orgId: string,
    entry: TitleEntry,
    field: StatusField,
    to: string,
    payload: Record<string, unknown> = {},
  ): Promise<void> {
    const event = moveStatus(entry, field, to, payload);
    if (event) await this.outbox.append(m, { orgId, entryId: entry.entryId, ...event });
  }

  private where(orgId: string, f: EntryFilter): { sql: string; params: unknown[] } {
    const parts = ['"orgId" = ?'];
    const params: unknown[] = [orgId];
    const eq = (col: string, v: string | undefined) => {
      if (v !== undefined) {
        parts.push(`${col} = ?`);
        params.push(v);
      }
    };
    eq('vin', f.vin);
    eq('"groupId"', f.groupId);
    eq('state', f.state);
    eq('"jobStatus"', f.job_status);
    eq('"accountStatus"', f.account_status);
    if (f.text) {
      parts.push("LOWER(doc) LIKE ? ESCAPE '\\'");
      params.push(`%${f.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    if (f.visibleGroups) {
      const marks = f.visibleGroups.map(() => '?').join(', ');
      parts.push(f.visibleGroups.length ? `("groupId" IS NULL OR "groupId" IN (${marks}))` : '"groupId" IS NULL');
      params.push(...f.visibleGroups);
    }
    return { sql: parts.join(' AND '), params };
  }

  /** One page, newest first, in a stable order (createdAt, id). */
  async list(
    orgId: string,
    f: EntryFilter,
    limit: number,
    after?: PageCursor,
  ): Promise<{ entries: TitleEntry[]; next?: PageCursor }> {
    const w = this.where(orgId, f);
    let sql = `SELECT id, "createdAt", doc FROM entries WHERE ${w.sql}`;
    const params = [...w.params];
    if (after) {
      sql += ' AND ("createdAt" < ? OR ("createdAt" = ? AND id < ?))';
      params.push(after.createdAt, after.createdAt, after.id);
    }
    sql += ' ORDER BY "createdAt" DESC, id DESC LIMIT ?';
    params.push(limit + 1);
    const rows = await this.db.query<{ id: string; createdAt: number; doc: string }>(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: await Promise.all(page.map(async (r) => JSON.parse(await this.opened(orgId, r.doc)) as TitleEntry)),
      next: rows.length > limit && last ? { createdAt: Number(last.createdAt), id: last.id } : undefined,
    };
  }

  /** Entry counts by state (GET /title?stateMap=true). */
  async stateMap(orgId: string, f: EntryFilter): Promise<Record<string, number>> {
    const w = this.where(orgId, f);
    const rows = await this.db.query<{ state: string; n: number }>(
      `SELECT state, COUNT(*) AS n FROM entries WHERE ${w.sql} GROUP BY state ORDER BY state`,
      w.params,
    );
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  /**
   * Deletes a canonical entry, its pointers and all its jobs; returns how many
   * entries (canonical + pointers) went. A job running meanwhile loses its row,
   * so its worker stops quietly at its next checkpoint (nothing is left behind
   * to be claimed again when the lease runs out).
   */
  async delete(m: EntityManager, orgId: string, canonicalId: string): Promise<number> {
    const pointers = await this.db.exec(
      'DELETE FROM duplicate_pointers WHERE "orgId" = ? AND "canonicalId" = ?',
      [orgId, canonicalId],
      m,
    );
    const entries = await this.db.exec('DELETE FROM entries WHERE "orgId" = ? AND id = ?', [orgId, canonicalId], m);
    await this.db.exec('DELETE FROM jobs WHERE "orgId" = ? AND "entryId" = ?', [orgId, canonicalId], m);
    return entries.affected + pointers.affected;
  }
}
