/**
 * Outbox -> deliveries. Each dispatch transaction locks the dispatcher row,
 * reads outbox events not yet dispatched (oldest first), groups the events
 * of one change, maps them to webhook events, writes one delivery per
 * subscribed profile, and marks the events dispatched, all in that one
 * transaction: a crash anywhere leaves either nothing or everything done.
 *
 * One change = one delivery:
 * - events a stage emitted during a job (payload `jobId`) wait for the end of
 *   that job and go out with its `title.job_status.*` event (so a pull's
 *   `title.data.found` travels with `title.job_status.complete`);
 * - other events of one entry written together (same `createdAt`, next to
 *   each other, different status fields) go out together.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { type Database, type Logger, toEvent, type OutboxEvent } from '../../core/plugin-api.js';
import { splitStatusEvent, subscribes, toWebhookEvent, type MapContext } from './events.js';
import type { WebhookOptions } from './options.js';
import type { WebhookProfiles } from './profiles.js';

const DISPATCHER = 'outbox';
const ACTIVE_JOB = new Set(['queued', 'running']);

const jobIdOf = (e: OutboxEvent): string | null => (typeof e.payload.jobId === 'string' ? e.payload.jobId : null);
const isJobStatus = (e: OutboxEvent) => e.name.startsWith('title.job_status.');
/** An event a stage emitted during a job (not the job's own status moves). */
const isStageEvent = (e: OutboxEvent) => !isJobStatus(e) && jobIdOf(e) !== null;
/** The event that ends a job: the runner's last job_status move, which carries the job id. */
const isJobEnd = (e: OutboxEvent) => isJobStatus(e) && jobIdOf(e) !== null;
const fieldOf = (e: OutboxEvent) => splitStatusEvent(e.name)?.field ?? e.name;

interface DeliveryDraft {
  profileId: string;
  orgId: string;
  entryId: string;
  events: string[];
  outboxIds: number[];
  seq: number;
}

export class OutboxDispatcher {
  private timer?: NodeJS.Timeout;
  private running = false;
  private busy: Promise<void> | null = null;
  private again = false;
  /** Quick re-checks left after a wake-up: on PostgreSQL the event may not be committed yet when it arrives. */
  private nudges = 0;
  private readonly onAppended = () => this.wake();
  private stopNotified?: () => void;

  constructor(
    private readonly db: Database,
    private readonly profiles: WebhookProfiles,
    private readonly options: WebhookOptions,
    private readonly log: Logger,
    private readonly owner: string,
    private readonly events: NodeJS.EventEmitter,
    /** Called after deliveries were written (the local sender claims them at once). */
    private readonly onDeliveries: () => void,
  ) {}

  async start(): Promise<void> {
    if (this.running) return;
    await this.db.exec(
      `INSERT INTO webhook_dispatcher (name, owner, "lastOutboxId", "updatedAt") VALUES (?, NULL, 0, ?) ON CONFLICT (name) DO NOTHING`,
      [DISPATCHER, Date.now()],
    );
    this.running = true;
    this.events.on('appended', this.onAppended);
    // an outbox event committed (PostgreSQL LISTEN/NOTIFY; polling stays): by another daemon, or by this one,
    // whose in-process wake-up may come before the commit
    this.stopNotified = this.db.notifications.on('outbox', this.onNotified, { own: true });
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.events.off('appended', this.onAppended);
    this.stopNotified?.();
    clearTimeout(this.timer);
    await this.busy;
  }

  /** A notification arrives after its transaction committed: one dispatch finds the event (no re-checks needed). */
  private readonly onNotified = () => {
    if (!this.running) return;
    if (this.busy) this.again = true;
    else this.schedule(0);
  };

  /** Runs a dispatch soon (an outbox event was appended; on PostgreSQL it may not be committed yet: the poll catches it then). */
  wake(): void {
    if (!this.running) return;
    this.nudges = 3;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.cycle(), ms);
  }

  private async cycle(): Promise<void> {
    if (!this.running || this.busy) return;
    let more = false;
    let found = false;
    this.busy = (async () => {
      try {
        const r = await this.dispatchAll();
        more = r.full;
        found = r.events > 0;
      } catch (e) {
        this.log.error(
          { err: e, code: 'WEBHOOK_DISPATCH_FAILED' },
          'turning outbox events into webhook deliveries failed; will retry',
        );
      }
    })();
    await this.busy;
    this.busy = null;
    if (!this.running) return;
    const rerun = this.again || more;
    this.again = false;
    if (found) this.nudges = 0;
    if (rerun) this.schedule(0);
    else if (this.nudges > 0) this.schedule(5 * 2 ** (3 - this.nudges--));
    else this.schedule(this.options.pollIntervalMs);
  }

  /**
   * Dispatches every outbox event that can go now, page by page (events held
   * for a running job are skipped and looked at again next time). `full`:
   * the last page was full, so there may be more.
   */
  async dispatchAll(maxPages = 20): Promise<{ events: number; deliveries: number; full: boolean }> {
    let after = 0;
    let events = 0;
    let deliveries = 0;
    for (let page = 0; page < maxPages; page++) {
      // a plain read first: an idle dispatcher writes nothing (no lock, no WAL growth)
      const waiting = await this.db.query<{ id: number }>(
        'SELECT id FROM outbox WHERE "dispatchedAt" IS NULL AND id > ? ORDER BY id LIMIT 1',
        [after],
      );
      if (waiting.length === 0) return { events, deliveries, full: false };
      const r = await this.db.tx((m) => this.dispatchPage(m, after));
      events += r.handled;
      deliveries += r.deliveries;
      if (r.deliveries) this.onDeliveries();
      if (r.seen < this.options.batchSize) return { events, deliveries, full: false };
      after = r.lastId;
    }
    return { events, deliveries, full: true };
  }

  private async dispatchPage(
    m: EntityManager,
    after: number,
  ): Promise<{ seen: number; handled: number; deliveries: number; lastId: number }> {
    const now = Date.now();
    // the lock: one dispatch transaction at a time across every process on this database
    await this.db.exec(
      'UPDATE webhook_dispatcher SET owner = ?, "updatedAt" = ? WHERE name = ?',
      [this.owner, now, DISPATCHER],
      m,
    );
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT id, "orgId", "entryId", name, payload, "createdAt", "dispatchedAt" FROM outbox WHERE "dispatchedAt" IS NULL AND id > ? ORDER BY id LIMIT ?',
      [after, this.options.batchSize],
      m,
    );
    const events = rows.map(toEvent);
    if (events.length === 0) return { seen: 0, handled: 0, deliveries: 0, lastId: after };

    const orgIds = [...new Set(events.map((e) => e.orgId))];
    const profiles = await this.profiles.forOrgs(orgIds, m);
    const physical = await this.physicalTitleOrgs(orgIds, m);
    const handled = new Set<number>();
    const drafts: DeliveryDraft[] = [];

    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (handled.has(e.id)) continue;
      let group: OutboxEvent[];
      if (isStageEvent(e)) {
        if (await this.held(m, e)) continue;
        group = [e];
      } else if (isJobEnd(e)) {
        group = [...(await this.jobMembers(m, e)), e];
      } else {
        group = [e];
        const fields = new Set([fieldOf(e)]);
        for (let j = i + 1; j < events.length; j++) {
          const f = events[j]!;
          if (f.entryId !== e.entryId) continue;
          if (
            handled.has(f.id) ||
            isStageEvent(f) ||
            isJobEnd(f) ||
            f.createdAt !== e.createdAt ||
            fields.has(fieldOf(f))
          )
            break;
          group.push(f);
          fields.add(fieldOf(f));
        }
      }
      for (const g of group) handled.add(g.id);
      const orgProfiles = profiles.get(e.orgId);
      if (!orgProfiles?.length) continue;
      const names = await this.webhookEvents(m, group, physical.has(e.orgId));
      if (names.length === 0) continue;
      for (const p of orgProfiles) {
        const matched = names.filter((n) => subscribes(p.events, n));
        if (matched.length)
          drafts.push({
            profileId: p.id,
            orgId: e.orgId,
            entryId: e.entryId,
            events: matched,
            outboxIds: group.map((g) => g.id),
            seq: Math.max(...group.map((g) => g.id)),
          });
      }
    }

    for (const d of drafts) await insertDelivery(this.db, m, d, now);
    const ids = [...handled];
    for (let k = 0; k < ids.length; k += 500) {
      const chunk = ids.slice(k, k + 500);
      await this.db.exec(
        `UPDATE outbox SET "dispatchedAt" = ? WHERE id IN (${chunk.map(() => '?').join(', ')})`,
        [now, ...chunk],
        m,
      );
    }
    if (ids.length)
      await this.db.exec(
        'UPDATE webhook_dispatcher SET "lastOutboxId" = ? WHERE name = ? AND "lastOutboxId" < ?',
        [Math.max(...ids), DISPATCHER, Math.max(...ids)],
        m,
      );
    if (drafts.length)
      this.log.debug(
        { code: 'WEBHOOK_DISPATCHED', events: ids.length, deliveries: drafts.length },
        'outbox events dispatched',
      );
    return {
      seen: events.length,
      handled: ids.length,
      deliveries: drafts.length,
      lastId: events[events.length - 1]!.id,
    };
  }

  /** Webhook event names of one change, in event order, each once. */
  private async webhookEvents(m: EntityManager, group: OutboxEvent[], physicalTitleEvents: boolean): Promise<string[]> {
    const ctx: MapContext = { physicalTitleEvents };
    const out: string[] = [];
    for (const e of group) {
      const name = await toWebhookEvent(e, ctx);
      if (name && !out.includes(name)) out.push(name);
    }
    return out;
  }

  /** Whether a stage event waits for its job's end: the job is still queued or running, or its end event is not dispatched yet. */
  private async held(m: EntityManager, e: OutboxEvent): Promise<boolean> {
    const jobId = jobIdOf(e)!;
    const job = await this.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = ?', [jobId], m);
    if (job[0] && ACTIVE_JOB.has(job[0].status)) return true;
    const end = await this.endOf(m, e.entryId, jobId, e.id);
    // no end will come (the job was removed with its entry): the event goes alone
    return end !== null && end.dispatchedAt === null;
  }

  private async endOf(m: EntityManager, entryId: string, jobId: string, afterId: number): Promise<OutboxEvent | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT id, "orgId", "entryId", name, payload, "createdAt", "dispatchedAt" FROM outbox WHERE "entryId" = ? AND id > ? AND name LIKE 'title.job_status.%' ORDER BY id`,
      [entryId, afterId],
      m,
    );
    return rows.map(toEvent).find((x) => jobIdOf(x) === jobId) ?? null;
  }

  /** The undispatched stage events of the job that `end` ends. */
  private async jobMembers(m: EntityManager, end: OutboxEvent): Promise<OutboxEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT id, "orgId", "entryId", name, payload, "createdAt", "dispatchedAt" FROM outbox WHERE "entryId" = ? AND "dispatchedAt" IS NULL AND id < ? ORDER BY id',
      [end.entryId, end.id],
      m,
    );
    const jobId = jobIdOf(end);
    return rows.map(toEvent).filter((x) => isStageEvent(x) && jobIdOf(x) === jobId);
  }

  /** Organizations (of `orgIds`) whose settings switch physical title events on. */
  private async physicalTitleOrgs(orgIds: readonly string[], m: EntityManager): Promise<Set<string>> {
    const rows = await this.db.query<{ id: string; settings: string }>(
      `SELECT id, settings FROM organizations WHERE id IN (${orgIds.map(() => '?').join(', ')})`,
      [...orgIds],
      m,
    );
    const on = new Set<string>();
    for (const r of rows) {
      try {
        if ((JSON.parse(r.settings) as Record<string, unknown>).physical_title_events === true) on.add(r.id);
      } catch {
        /* unreadable settings: off */
      }
    }
    return on;
  }
}

/** Writes one pending delivery, due now. */
export async function insertDelivery(
  db: Database,
  m: EntityManager,
  d: DeliveryDraft & { replayOf?: string },
  now = Date.now(),
): Promise<string> {
  const id = randomUUID();
  await db.exec(
    'INSERT INTO webhook_deliveries (id, "profileId", "orgId", "entryId", events, "outboxIds", seq, status, attempts, "nextAttemptAt", "replayOf", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)',
    [
      id,
      d.profileId,
      d.orgId,
      d.entryId,
      JSON.stringify(d.events),
      JSON.stringify(d.outboxIds),
      d.seq,
      'pending',
      now,
      d.replayOf ?? null,
      now,
      now,
    ],
    m,
  );
  return id;
}
