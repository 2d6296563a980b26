import { requestContext } from '../logger.js';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { EntityManager } from 'typeorm';
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
  if (a.account_data || b.account_data) out.account_data = mergePatch(a.account_data ?? {}, b.account_data ?? {}) as AccountData;
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
  constructor(private readonly db: Database, private readonly opts: { perOrganization?: number } = {}) {}

  async enqueue(m: EntityManager, j: { entryId: string; orgId: string; input: JobInput; initialStatus: JobStatus }): Promise<string> {
    const merged = await this.mergeIntoQueued(m, j.entryId, j.input, j.initialStatus);
    if (merged) return merged;
    const id = randomUUID();
    const now = Date.now();
    await this.db.exec(
      'INSERT INTO jobs (id, "entryId", "orgId", status, input, "stagesDone", attempts, "runAfter", "initialStatus", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)',
      [id, j.entryId, j.orgId, 'queued', JSON.stringify(j.input), '[]', now, j.initialStatus, now, now], m);
    return id;
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
  private async mergeIntoQueued(m: EntityManager, entryId: string, add: JobInput, initialStatus?: JobStatus): Promise<string | null> {
    for (;;) {
      const queued = await this.db.query<{ id: string; input: string; initialStatus: string }>('SELECT id, input, "initialStatus" FROM jobs WHERE "entryId" = ? AND status = ?', [entryId, 'queued'], m);
      if (!queued[0]) return null;
      const input = mergeJobInput(JSON.parse(queued[0].input) as JobInput, add);
      // Only if it is still queued with the input read: a worker that claimed it meanwhile has read its input
      // already (the request then gets a job of its own), and a concurrent merge must not be overwritten.
      // A queued job waiting for a retry has a checkpoint: with new input it runs every stage again.
      const { affected } = await this.db.exec(`UPDATE jobs SET input = ?, "initialStatus" = ?, "stagesDone" = '[]', attempts = 0, "updatedAt" = ? WHERE id = ? AND status = ? AND input = ?`,
        [JSON.stringify(input), initialStatus ?? queued[0].initialStatus, Date.now(), queued[0].id, 'queued', queued[0].input], m);
      if (affected === 1) return queued[0].id;
    }
  }

  /** Tells local workers there is work (call after the enqueuing transaction committed). */
  wake(): void {
    // outside the request's context: work it starts is not that request's (no reqId on the workers' log lines)
    requestContext.exit(() => this.events.emit('enqueued'));
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
    const share = this.opts.perOrganization ?? Number.MAX_SAFE_INTEGER;
    const runnable = `((j.status = 'queued' AND j."runAfter" <= ?
             AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r."entryId" = j."entryId" AND r.status = 'running'))
         OR (j.status = 'running' AND j."leaseExpiresAt" < ?))`;
    const lock = this.db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
    const rows = await this.db.tx(async (m) => {
      const orgs = await this.db.query<{ orgId: string }>(
        `SELECT j."orgId" AS "orgId", MIN(j."createdAt") AS "firstAt" FROM jobs j WHERE ${runnable} GROUP BY j."orgId" ORDER BY "firstAt", j."orgId" LIMIT ?`, [now, now, 4 * n + 16], m);
      if (!orgs.length) return [];
      const mine = await this.db.query<{ orgId: string; n: number }>(
        'SELECT "orgId" AS "orgId", COUNT(*) AS n FROM jobs WHERE "leaseOwner" = ? AND status = ? AND "leaseExpiresAt" >= ? GROUP BY "orgId"', [owner, 'running', now], m);
      const room = new Map(orgs.map((o) => [o.orgId, share]));
      for (const r of mine) if (room.has(r.orgId)) room.set(r.orgId, Math.max(0, share - Number(r.n)));
      // candidates per organization, oldest first: organizations with room before the others
      const order = [...orgs.filter((o) => room.get(o.orgId)! > 0), ...orgs.filter((o) => room.get(o.orgId) === 0)];
      const candidates = new Map<string, { id: string; createdAt: number }[]>();
      let found = 0;
      for (const o of order) {
        if (found >= 2 * n) break;
        const c = await this.db.query<{ id: string; createdAt: number }>(
          `SELECT j.id AS id, j."createdAt" AS "createdAt" FROM jobs j WHERE ${runnable} AND j."orgId" = ? ORDER BY j."createdAt", j.id LIMIT ?${lock}`, [now, now, o.orgId, n], m);
        candidates.set(o.orgId, c.map((r) => ({ id: String(r.id), createdAt: Number(r.createdAt) })));
        found += c.length;
      }
      const chosen: string[] = [];
      // turns: one job per organization with room, until n are chosen or no organization has room and a job left
      for (let progress = true; progress && chosen.length < n;) {
        progress = false;
        for (const [org, list] of candidates) {
          if (chosen.length >= n) break;
          if (room.get(org)! > 0 && list.length) {
            chosen.push(list.shift()!.id);
            room.set(org, room.get(org)! - 1);
            progress = true;
          }
        }
      }
      // free workers left: the oldest remaining jobs, whatever their organization
      const rest = [...candidates.values()].flat().sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
      for (const c of rest) {
        if (chosen.length >= n) break;
        chosen.push(c.id);
      }
      if (!chosen.length) return [];
      return this.db.query<Record<string, unknown>>(
        `UPDATE jobs SET status = 'running', "leaseOwner" = ?, "leaseExpiresAt" = ?, attempts = attempts + 1, "updatedAt" = ?
         WHERE id IN (${chosen.map(() => '?').join(', ')}) AND (status = 'queued' OR (status = 'running' AND "leaseExpiresAt" < ?))
         RETURNING id, "entryId", "orgId", input, "stagesDone", attempts, "initialStatus"`,
        [owner, now + leaseMs, now, ...chosen, now], m);
    });
    return rows.map((r) => ({
      id: String(r.id), entryId: String(r.entryId), orgId: String(r.orgId),
      input: JSON.parse(String(r.input)) as JobInput, stagesDone: JSON.parse(String(r.stagesDone)) as string[],
      attempts: Number(r.attempts), initialStatus: String(r.initialStatus) as JobStatus,
    }));
  }

  /** Extends the lease; false when the job is no longer this owner's (lease lost, job deleted). */
  async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const { affected } = await this.db.exec('UPDATE jobs SET "leaseExpiresAt" = ? WHERE id = ? AND "leaseOwner" = ? AND status = ?', [Date.now() + leaseMs, jobId, owner, 'running']);
    return affected === 1;
  }

  /** Records finished stages; false when the lease was lost (another worker owns the job now). */
  async checkpoint(m: EntityManager, jobId: string, owner: string, stagesDone: string[]): Promise<boolean> {
    const { affected } = await this.db.exec('UPDATE jobs SET "stagesDone" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ? AND status = ?',
      [JSON.stringify(stagesDone), Date.now(), jobId, owner, 'running'], m);
    return affected === 1;
  }

  /** The job finished: it is removed (the entry and its outbox events are the record). */
  async finish(m: EntityManager, jobId: string, owner: string): Promise<boolean> {
    const { affected } = await this.db.exec('DELETE FROM jobs WHERE id = ? AND "leaseOwner" = ?', [jobId, owner], m);
    return affected === 1;
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
      const mine = (await this.db.query<{ entryId: string; input: string }>('SELECT "entryId", input FROM jobs WHERE id = ? AND "leaseOwner" = ?', [jobId, owner], m))[0];
      if (!mine) return;
      // requests enqueue while holding the entry's row: take it too (SQLite transactions are serialized already)
      if (this.db.dialect === 'postgres') await this.db.query('SELECT id FROM entries WHERE id = ? FOR UPDATE', [mine.entryId], m);
      const newer = (await this.db.query<{ id: string; input: string }>('SELECT id, input FROM jobs WHERE "entryId" = ? AND status = ? AND id <> ?', [mine.entryId, 'queued', jobId], m))[0];
      if (newer) {
        const input = mergeJobInput(JSON.parse(mine.input) as JobInput, JSON.parse(newer.input) as JobInput);
        await this.db.exec('UPDATE jobs SET input = ?, "updatedAt" = ? WHERE id = ?', [JSON.stringify(input), Date.now(), newer.id], m);
        await this.db.exec('DELETE FROM jobs WHERE id = ? AND "leaseOwner" = ?', [jobId, owner], m);
        return;
      }
      await this.db.exec('UPDATE jobs SET status = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "runAfter" = ?, "lastError" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ?',
        ['queued', runAfter, error, Date.now(), jobId, owner], m);
    });
  }

  /** The job failed for good; kept with its error for inspection. */
  async fail(m: EntityManager, jobId: string, owner: string, error: string): Promise<void> {
    await this.db.exec('UPDATE jobs SET status = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "lastError" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ?',
      ['failed', error, Date.now(), jobId, owner], m);
  }

  /** The queued (not yet claimed) job of an entry, if any. */
  async queuedFor(entryId: string, m?: EntityManager): Promise<{ id: string; initialStatus: JobStatus } | null> {
    const rows = await this.db.query<{ id: string; initialStatus: string }>('SELECT id, "initialStatus" FROM jobs WHERE "entryId" = ? AND status = ?', [entryId, 'queued'], m);
    return rows[0] ? { id: rows[0].id, initialStatus: rows[0].initialStatus as JobStatus } : null;
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.db.query<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status');
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}
