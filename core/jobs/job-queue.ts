import { outsideRequest } from '../async-context.js';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { EntityManager } from 'typeorm';
import type { PiiCodec } from '../crypto/pii.js';
import type { Database } from '../db/database.js';
import { mergePatch } from '../merge.js';
import type { AccountData } from '../model/schemas.js';
import type { JobStatus } from '../status.js';

/** What the requests behind a job asked for. Requests for an entry whose job is still queued are merged into it. */
export interface JobInput {
  /** Why the job exists: `create`, `update`, `data`, `fees`, `forms`, ... (stages read these in `appliesTo`). */
  reasons: string[];
  /** Account data to merge into the entry (the intake stage applies it). */
  account_data?: AccountData;
  /** Document URLs to fetch and read (the ocr stage). */
  attachments?: string[];
  sync_nmvtis?: boolean;
  sync_public?: boolean;
  sync_private?: boolean;
  dppa_exemption?: string;
}

export interface ClaimedJob {
  id: string;
  entryId: string;
  orgId: string;
  input: JobInput;
  stagesDone: string[];
  attempts: number;
  initialStatus: JobStatus;
}

/** Merges two job inputs: reasons and attachments accumulate, flags OR together, account data merges (RFC 7396). */
export function mergeJobInput(a: JobInput, b: JobInput): JobInput {
  const out: JobInput = { reasons: [...new Set([...a.reasons, ...b.reasons])] };
  if (a.account_data || b.account_data)
    out.account_data = mergePatch(a.account_data ?? {}, b.account_data ?? {}) as AccountData;
  if (a.attachments || b.attachments) out.attachments = [...(a.attachments ?? []), ...(b.attachments ?? [])];
  for (const f of ['sync_nmvtis', 'sync_public', 'sync_private'] as const) if (a[f] || b[f]) out[f] = true;
  const dppa = b.dppa_exemption ?? a.dppa_exemption;
  if (dppa) out.dppa_exemption = dppa;
  return out;
}

/**
 * The durable job queue, in the database. A job is enqueued in the same
 * transaction as the entry change that asks for it. Workers claim jobs with a
 * lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so several daemons share one
 * database); a job whose lease expired (its worker died) is claimed again and
 * resumes after its last checkpoint. At most one job of an entry runs at once.
 */
export class JobQueue {
  /** Emits 'enqueued' after the enqueuing transaction commits (callers call `wake`). */
  readonly events = new EventEmitter();

  /**
   * @param perOrganization jobs of one organization this daemon (one lease
   *   owner) runs at once while another organization's jobs wait (config
   *   `workers.perOrganization`); when no other organization waits, an
   *   organization may use every free worker.
   */
  constructor(
    private readonly db: Database,
    private readonly opts: { perOrganization?: number; pii?: PiiCodec } = {},
  ) {}

  /** A job's input as stored: its account data may hold PII, sealed like the entry's (docs/security.md). */
  private store(orgId: string, input: JobInput, m?: EntityManager): Promise<string> | string {
    return this.opts.pii ? this.opts.pii.stringify(orgId, input, undefined, m) : JSON.stringify(input);
  }

  private async read(orgId: string, text: string, m?: EntityManager): Promise<JobInput> {
    return (this.opts.pii ? await this.opts.pii.parse(orgId, text, m) : JSON.parse(text)) as JobInput;
  }

  async enqueue(
    m: EntityManager,
    j: { entryId: string; orgId: string; input: JobInput; initialStatus: JobStatus; newEntry?: boolean },
  ): Promise<string> {
    // an entry inserted in this transaction has no job yet: no queued one to look for
    const merged = j.newEntry ? null : await this.mergeIntoQueued(m, j.entryId, j.input, j.initialStatus);
    if (merged) return merged;
    const id = randomUUID();
    const now = Date.now();
    await this.db.exec(
      'INSERT INTO jobs (id, "entryId", "orgId", status, input, "stagesDone", attempts, "runAfter", "initialStatus", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)',
      [id, j.entryId, j.orgId, 'queued', await this.store(j.orgId, j.input, m), '[]', now, j.initialStatus, now, now],
      m,
    );
    // the other daemons on this database claim it at once (PostgreSQL, sent on commit); local workers: `wake`
    await this.db.notifications.notify(m, 'jobs');
    return id;
  }

  /**
   * A job of `entryId` stops holding the entry (it finished, failed or folded
   * into a newer one): a queued job of that entry, which no claim could take
   * while it ran, is announced to the other daemons (PostgreSQL).
   */
  private async unblocked(m: EntityManager, entryId: string): Promise<void> {
    const q = this.db.notifications.notifyIfSql('jobs', `jobs WHERE "entryId" = ? AND status = 'queued'`);
    if (q) await this.db.query(q.sql, [...q.params, entryId], m);
  }

  /**
   * Merges `input` into the entry's queued job, if it has one (true then).
   * A PATCH uses it so a create's account data, merged later by intake, does
   * not undo the PATCH made after it.
   */
  async amendQueued(m: EntityManager, entryId: string, input: Omit<JobInput, 'reasons'>): Promise<boolean> {
    return (await this.mergeIntoQueued(m, entryId, { reasons: [], ...input })) !== null;
  }

  /** Merges into the entry's queued job and returns its id, or null when none is queued. */
  private async mergeIntoQueued(
    m: EntityManager,
    entryId: string,
    add: JobInput,
    initialStatus?: JobStatus,
  ): Promise<string | null> {
    for (;;) {
      const queued = await this.db.query<{ id: string; orgId: string; input: string; initialStatus: string }>(
        'SELECT id, "orgId", input, "initialStatus" FROM jobs WHERE "entryId" = ? AND status = ?',
        [entryId, 'queued'],
        m,
      );
      if (!queued[0]) return null;
      const orgId = queued[0].orgId;
      const input = mergeJobInput(await this.read(orgId, queued[0].input, m), add);
      // Only if it is still queued with the input read: a worker that claimed it meanwhile has read its input
      // already (the request then gets a job of its own), and a concurrent merge must not be overwritten.
      // A queued job waiting for a retry has a checkpoint: with new input it runs every stage again.
      const { affected } = await this.db.exec(
        `UPDATE jobs SET input = ?, "initialStatus" = ?, "stagesDone" = '[]', attempts = 0, "updatedAt" = ? WHERE id = ? AND status = ? AND input = ?`,
        [
          await this.store(orgId, input, m),
          initialStatus ?? queued[0].initialStatus,
          Date.now(),
          queued[0].id,
          'queued',
          queued[0].input,
        ],
        m,
      );
      if (affected === 1) return queued[0].id;
    }
  }

  /** Tells local workers there is work (call after the enqueuing transaction committed). */
  wake(): void {
    // outside the request's context: work it starts is not that request's (no reqId on the workers' log lines)
    outsideRequest(() => this.events.emit('enqueued'));
  }

  /**
   * Claims up to `n` runnable jobs for `owner` for `leaseMs`, fairly across
   * organizations: organizations below their share (`perOrganization` jobs
   * running under this owner) take turns, oldest waiting organization first,
   * one job each per turn; workers still free after that go to the oldest
   * remaining jobs of any organization (no worker idles while work waits).
   * One organization's backlog therefore never holds every worker while
   * another organization's job waits. PostgreSQL: candidates are locked with
   * FOR UPDATE SKIP LOCKED, so daemons sharing the database never claim the
   * same job; SQLite transactions are serialized.
   */
  async claim(owner: string, n: number, leaseMs: number): Promise<ClaimedJob[]> {
    if (n <= 0) return [];
    const now = Date.now();
    const take = async (m?: EntityManager): Promise<Record<string, unknown>[]> => {
      const chosen = pickFairly(
        await this.candidates(owner, n, now, m),
        n,
        this.opts.perOrganization ?? Number.MAX_SAFE_INTEGER,
      );
      if (!chosen.length) return [];
      // the WHERE re-checks each row: a job another worker claimed meanwhile is not taken twice, and a job whose
      // entry has a job running by now is left queued
      return this.db.query<Record<string, unknown>>(
        `UPDATE jobs SET status = 'running', "leaseOwner" = ?, "leaseExpiresAt" = ?, attempts = attempts + 1, "updatedAt" = ?
         WHERE id IN (${chosen.map(() => '?').join(', ')})
           AND ((status = 'queued' AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r."entryId" = jobs."entryId" AND r.status = 'running'))
             OR (status = 'running' AND "leaseExpiresAt" < ?))
         RETURNING id, "entryId", "orgId", input, "stagesDone", attempts, "initialStatus"`,
        [owner, now + leaseMs, now, ...chosen, now],
        m,
      );
    };
    // PostgreSQL locks the candidates in a transaction (SKIP LOCKED). SQLite: the reads take the direct read path
    // and the UPDATE (which re-checks every row) is one serialized statement: a transaction around them cost a
    // BEGIN, the write-lock statement and TypeORM's runner on every claim, one claim per created entry.
    const rows = this.db.dialect === 'postgres' ? await this.db.tx(take) : await take();
    return Promise.all(
      rows.map(async (r) => ({
        id: String(r.id),
        entryId: String(r.entryId),
        orgId: String(r.orgId),
        input: await this.read(String(r.orgId), String(r.input)),
        stagesDone: JSON.parse(String(r.stagesDone)) as string[],
        attempts: Number(r.attempts),
        initialStatus: String(r.initialStatus) as JobStatus,
      })),
    );
  }

  /**
   * The runnable jobs in turn order: each organization's jobs ranked oldest
   * first (`rk`), listed by rank, then by age (the first job of every
   * organization, oldest organization first, then the second of each, ...),
   * with how many jobs of the organization `owner` runs now. PostgreSQL: the
   * candidates are then locked with SKIP LOCKED (a window query cannot lock),
   * so two daemons claiming at once skip each other's.
   */
  private async candidates(owner: string, n: number, now: number, m?: EntityManager): Promise<Candidate[]> {
    const limit = 4 * n + 16;
    const list =
      (await this.fewCandidates(m, owner, n, now, limit)) ?? (await this.rankedCandidates(m, owner, n, now, limit));
    if (this.db.dialect !== 'postgres' || !list.length) return list;
    const locked = await this.db.query<{ id: string }>(
      `SELECT id FROM jobs WHERE id IN (${list.map(() => '?').join(', ')}) FOR UPDATE SKIP LOCKED`,
      list.map((c) => c.id),
      m,
    );
    const ids = new Set(locked.map((r) => String(r.id)));
    return list.filter((c) => ids.has(c.id));
  }

  /**
   * The common case, without the window query: when at most `limit` jobs are
   * runnable, one indexed query lists them all, oldest first, and the turn
   * order is worked out here, the same as {@link rankedCandidates} would
   * give. The window query cost 100-400 us per claim on SQLite (temporary
   * B-trees and an automatic index, even with an empty queue): one claim per
   * created entry. `mine` is counted only when the jobs are of more than one
   * organization (with one, `pickFairly` takes them in age order whatever it
   * is). Undefined when more are runnable (a backlog): the window query ranks
   * them.
   */
  private async fewCandidates(
    m: EntityManager | undefined,
    owner: string,
    n: number,
    now: number,
    limit: number,
  ): Promise<Candidate[] | undefined> {
    const rows = await this.db.query<{ id: string; orgId: string; createdAt: number }>(
      `SELECT j.id AS id, j."orgId" AS "orgId", j."createdAt" AS "createdAt" FROM jobs j WHERE ${RUNNABLE}
       ORDER BY j."createdAt", j.id LIMIT ?`,
      [now, now, limit + 1],
      m,
    );
    if (rows.length > limit) return undefined;
    const rank = new Map<string, number>();
    const ranked = rows.map((r) => {
      const rk = (rank.get(String(r.orgId)) ?? 0) + 1;
      rank.set(String(r.orgId), rk);
      return { id: String(r.id), orgId: String(r.orgId), createdAt: Number(r.createdAt), mine: 0, rk };
    });
    const picked = ranked
      .filter((c) => c.rk <= n)
      .sort((a, b) => a.rk - b.rk || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (rank.size > 1) {
      const mine = await this.db.query<{ orgId: string; n: number | string }>(
        `SELECT "orgId", COUNT(*) AS n FROM jobs WHERE status = 'running' AND "leaseOwner" = ? AND "leaseExpiresAt" >= ?
         GROUP BY "orgId"`,
        [owner, now],
        m,
      );
      const byOrg = new Map(mine.map((r) => [String(r.orgId), Number(r.n)]));
      for (const c of picked) c.mine = byOrg.get(c.orgId) ?? 0;
    }
    return picked.map(({ id, orgId, createdAt, mine }) => ({ id, orgId, createdAt, mine }));
  }

  /** The turn order by a window query over every runnable job (a backlog larger than `limit`). */
  private async rankedCandidates(
    m: EntityManager | undefined,
    owner: string,
    n: number,
    now: number,
    limit: number,
  ): Promise<Candidate[]> {
    const rows = await this.db.query<{ id: string; orgId: string; createdAt: number; mine: number | string | null }>(
      `SELECT x.id AS id, x."orgId" AS "orgId", x."createdAt" AS "createdAt", mine.n AS mine FROM (
         SELECT j.id, j."orgId", j."createdAt", ROW_NUMBER() OVER (PARTITION BY j."orgId" ORDER BY j."createdAt", j.id) AS rk
         FROM jobs j WHERE ${RUNNABLE}) x
       LEFT JOIN (SELECT "orgId", COUNT(*) AS n FROM jobs WHERE "leaseOwner" = ? AND status = 'running' AND "leaseExpiresAt" >= ?
                  GROUP BY "orgId") mine ON mine."orgId" = x."orgId"
       WHERE x.rk <= ? ORDER BY x.rk, x."createdAt", x.id LIMIT ?`,
      [now, now, owner, now, n, limit],
      m,
    );
    return rows.map((r) => ({
      id: String(r.id),
      orgId: String(r.orgId),
      createdAt: Number(r.createdAt),
      mine: Number(r.mine ?? 0),
    }));
  }

  /** Extends the lease; false when the job is no longer this owner's (lease lost, job deleted). */
  async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const { affected } = await this.db.exec(
      'UPDATE jobs SET "leaseExpiresAt" = ? WHERE id = ? AND "leaseOwner" = ? AND status = ?',
      [Date.now() + leaseMs, jobId, owner, 'running'],
    );
    return affected === 1;
  }

  /** Records finished stages; false when the lease was lost (another worker owns the job now). */
  async checkpoint(m: EntityManager, jobId: string, owner: string, stagesDone: string[]): Promise<boolean> {
    const { affected } = await this.db.exec(
      'UPDATE jobs SET "stagesDone" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ? AND status = ?',
      [JSON.stringify(stagesDone), Date.now(), jobId, owner, 'running'],
      m,
    );
    return affected === 1;
  }

  /** The job finished: it is removed (the entry and its outbox events are the record). */
  async finish(m: EntityManager, jobId: string, owner: string): Promise<boolean> {
    // RETURNING: the rows tell whether it was ours (SQLite reports no affected count for a statement that returns rows)
    const { rows } = await this.db.exec<{ entryId: string }>(
      'DELETE FROM jobs WHERE id = ? AND "leaseOwner" = ? RETURNING "entryId"',
      [jobId, owner],
      m,
    );
    if (rows[0]) await this.unblocked(m, String(rows[0].entryId));
    return rows.length === 1;
  }

  /**
   * Puts the job back in the queue to run again at `runAfter`, keeping its
   * checkpoint; unless a request queued another job for the entry while this
   * one ran: then this job's input folds into that job, which runs every stage
   * from the start, and this one ends (an entry never has two queued jobs, so
   * its jobs never run at once or out of order).
   */
  async retry(jobId: string, owner: string, error: string, runAfter: number): Promise<void> {
    await this.db.tx(async (m) => {
      const mine = (
        await this.db.query<{ entryId: string; orgId: string; input: string }>(
          'SELECT "entryId", "orgId", input FROM jobs WHERE id = ? AND "leaseOwner" = ?',
          [jobId, owner],
          m,
        )
      )[0];
      if (!mine) return;
      // requests enqueue while holding the entry's row: take it too (SQLite transactions are serialized already)
      if (this.db.dialect === 'postgres')
        await this.db.query('SELECT id FROM entries WHERE id = ? FOR UPDATE', [mine.entryId], m);
      const newer = (
        await this.db.query<{ id: string; input: string }>(
          'SELECT id, input FROM jobs WHERE "entryId" = ? AND status = ? AND id <> ?',
          [mine.entryId, 'queued', jobId],
          m,
        )
      )[0];
      if (newer) {
        const input = mergeJobInput(
          await this.read(mine.orgId, mine.input, m),
          await this.read(mine.orgId, newer.input, m),
        );
        const text = await this.store(mine.orgId, input, m);
        await this.db.exec('UPDATE jobs SET input = ?, "updatedAt" = ? WHERE id = ?', [text, Date.now(), newer.id], m);
        await this.db.exec('DELETE FROM jobs WHERE id = ? AND "leaseOwner" = ?', [jobId, owner], m);
        await this.unblocked(m, mine.entryId);
        return;
      }
      await this.db.exec(
        'UPDATE jobs SET status = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "runAfter" = ?, "lastError" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ?',
        ['queued', runAfter, error, Date.now(), jobId, owner],
        m,
      );
    });
  }

  /** The job failed for good; kept with its error for inspection. */
  async fail(m: EntityManager, jobId: string, owner: string, error: string): Promise<void> {
    const { rows } = await this.db.exec<{ entryId: string }>(
      `UPDATE jobs SET status = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "lastError" = ?, "updatedAt" = ?
       WHERE id = ? AND "leaseOwner" = ? RETURNING "entryId"`,
      ['failed', error, Date.now(), jobId, owner],
      m,
    );
    if (rows[0]) await this.unblocked(m, String(rows[0].entryId));
  }

  /** The queued (not yet claimed) job of an entry, if any. */
  async queuedFor(entryId: string, m?: EntityManager): Promise<{ id: string; initialStatus: JobStatus } | null> {
    const rows = await this.db.query<{ id: string; initialStatus: string }>(
      'SELECT id, "initialStatus" FROM jobs WHERE "entryId" = ? AND status = ?',
      [entryId, 'queued'],
      m,
    );
    return rows[0] ? { id: rows[0].id, initialStatus: rows[0].initialStatus as JobStatus } : null;
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.db.query<{ status: string; n: number }>(
      'SELECT status, COUNT(*) AS n FROM jobs GROUP BY status',
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}

/** A job a claim may take (two parameters: now, now): queued and due with no job of its entry running, or its lease expired. */
const RUNNABLE = `((j.status = 'queued' AND j."runAfter" <= ?
             AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r."entryId" = j."entryId" AND r.status = 'running'))
         OR (j.status = 'running' AND j."leaseExpiresAt" < ?))`;

interface Candidate {
  id: string;
  orgId: string;
  createdAt: number;
  mine: number;
}

/**
 * Chooses up to `n` of `candidates` (in turn order): first the jobs of
 * organizations still below their `share` of this owner's workers, in turn
 * order; then, for workers still free, the oldest remaining jobs of any
 * organization (no worker idles while work waits).
 */
function pickFairly(candidates: readonly Candidate[], n: number, share: number): string[] {
  const room = new Map<string, number>();
  for (const c of candidates) if (!room.has(c.orgId)) room.set(c.orgId, Math.max(0, share - c.mine));
  const chosen: string[] = [];
  const rest: Candidate[] = [];
  for (const c of candidates) {
    const left = room.get(c.orgId)!;
    if (chosen.length < n && left > 0) {
      chosen.push(c.id);
      room.set(c.orgId, left - 1);
    } else {
      rest.push(c);
    }
  }
  rest.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  for (const c of rest) {
    if (chosen.length >= n) break;
    chosen.push(c.id);
  }
  return chosen;
}
