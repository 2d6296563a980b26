import { outsideRequest } from '../async-context.js';
import { EventEmitter } from 'node:events';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/database.js';

export interface OutboxEvent {
  id: number;
  orgId: string;
  entryId: string;
  name: string;
  payload: Record<string, unknown>;
  createdAt: number;
  dispatchedAt: number | null;
}

/**
 * The outbox: every status change of an entry is appended here in the same
 * transaction as the change. The webhook stage reads and delivers it.
 */
export class Outbox {
  /** Emits 'appended' after each append (before the transaction commits): a wake-up for the webhook dispatcher. */
  readonly events = new EventEmitter();

  constructor(private readonly db: Database) {}

  async append(
    m: EntityManager,
    e: { orgId: string; entryId: string; name: string; payload?: Record<string, unknown> },
    now = Date.now(),
  ): Promise<void> {
    await this.db.exec(
      'INSERT INTO outbox ("orgId", "entryId", "name", "payload", "createdAt") VALUES (?, ?, ?, ?, ?)',
      [e.orgId, e.entryId, e.name, JSON.stringify(e.payload ?? {}), now],
      m,
    );
    // other daemons' webhook dispatchers (PostgreSQL; sent on commit, one per transaction)
    await this.db.notifications.notify(m, 'outbox');
    // outside the request's context: work it starts is not that request's (no reqId on the workers' log lines)
    outsideRequest(() => this.events.emit('appended'));
  }

  /** Events of one entry, oldest first (tests, CLI, the webhook dispatcher). */
  async forEntry(entryId: string): Promise<OutboxEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM outbox WHERE "entryId" = ? ORDER BY id', [
      entryId,
    ]);
    return rows.map(toEvent);
  }
}

export function toEvent(r: Record<string, unknown>): OutboxEvent {
  return {
    id: Number(r.id),
    orgId: String(r.orgId),
    entryId: String(r.entryId),
    name: String(r.name),
    payload: JSON.parse(String(r.payload)) as Record<string, unknown>,
    createdAt: Number(r.createdAt),
    dispatchedAt: r.dispatchedAt === null ? null : Number(r.dispatchedAt),
  };
}
