import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { EntityManager } from 'typeorm';
import type { Logger } from '../logger.js';

/** What a notification is about: a job was enqueued or unblocked; an outbox event was appended. */
export type NotifyTopic = 'jobs' | 'outbox';

interface Listener {
  fn: () => void;
  /** Also woken by this daemon's own notifications. */
  own: boolean;
}

/** How long a lost listening connection waits before it connects again (it then wakes every listener once). */
const RECONNECT_MS = 1000;

/**
 * PostgreSQL LISTEN/NOTIFY between the daemons on one database (docs/storage.md):
 * a writer calls `notify` inside its transaction, so the notification goes out
 * when (and only if) the transaction commits; every other daemon listening on
 * the topic is woken at once instead of at its next poll. Channels are per
 * schema. A daemon's own notifications reach only the listeners that ask for
 * them (`own`: the webhook dispatcher, for a wake-up after commit; the workers
 * were woken in process already). Polling stays: a daemon that missed a
 * notification (its listening connection dropped) finds the work at its next
 * poll; once LISTEN is in place (at start and after a reconnect) every
 * listener is woken once, for what was committed before. SQLite, or
 * `workers.notify` false: every call is a no-op.
 */
export class Notifications {
  /** Emits `notification` (topic) for each notification received from another daemon (tests, metrics). */
  readonly events = new EventEmitter();
  /** Identifies this process's notifications (their payload). */
  readonly instanceId = randomUUID();
  private readonly listeners = new Map<NotifyTopic, Set<Listener>>();
  /** Topics already notified in a transaction (its EntityManager). */
  private readonly sent = new WeakMap<EntityManager, Set<NotifyTopic>>();
  private client?: pg.Client;
  private connecting?: Promise<void>;
  private closed = false;
  private retryTimer?: NodeJS.Timeout;
  private log?: Logger;

  constructor(
    private readonly url: string | undefined,
    private readonly schema: string,
    readonly enabled: boolean,
  ) {}

  /** Where failures of the listening connection are logged (the engine sets it once it has a logger). */
  setLogger(log: Logger): void {
    this.log = log;
  }

  channel(topic: NotifyTopic): string {
    return `titled_${topic}_${this.schema}`.slice(0, 63);
  }

  /** Queues a notification in the transaction `m` (sent on commit; PostgreSQL folds duplicates of one transaction). */
  async notify(m: EntityManager, topic: NotifyTopic): Promise<void> {
    if (!this.enabled) return;
    // once per transaction and topic: a checkpoint appends several outbox events (a manager outside a
    // transaction is not a transaction's: it notifies every time)
    if (m.queryRunner?.isTransactionActive) {
      const sent = this.sent.get(m) ?? new Set<NotifyTopic>();
      if (sent.has(topic)) return;
      sent.add(topic);
      this.sent.set(m, sent);
    }
    await m.query('SELECT pg_notify($1, $2)', [this.channel(topic), this.instanceId]);
  }

  /** Forgets what transaction `m` notified (its savepoint was rolled back, and the notifications with it). */
  forget(m: EntityManager): void {
    this.sent.delete(m);
  }

  /**
   * The SQL of a statement that notifies `topic` once when some row of `from`
   * matches `where` (one round trip: `SELECT pg_notify(...) FROM ... LIMIT 1`),
   * or null when notifications are off.
   */
  notifyIfSql(topic: NotifyTopic, fromWhere: string): { sql: string; params: unknown[] } | null {
    if (!this.enabled) return null;
    return { sql: `SELECT pg_notify(?, ?) FROM ${fromWhere} LIMIT 1`, params: [this.channel(topic), this.instanceId] };
  }

  /**
   * Calls `fn` whenever another daemon (with `own`, this one too) notifies
   * `topic`, and once when LISTEN is in place; returns a function that stops it.
   */
  on(topic: NotifyTopic, fn: () => void, o: { own?: boolean } = {}): () => void {
    if (!this.enabled) return () => undefined;
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    const listener: Listener = { fn, own: !!o.own };
    set.add(listener);
    void this.connect(topic).then(() => {
      if (this.client && set.has(listener)) this.call(listener);
    });
    return () => void set.delete(listener);
  }

  /** Opens the listening connection once, and LISTENs on `topic` (again after a reconnect). */
  private async connect(topic?: NotifyTopic): Promise<void> {
    if (this.closed) return;
    if (!this.connecting) this.connecting = this.open();
    try {
      await this.connecting;
      if (topic && this.client) await this.client.query(`LISTEN "${this.channel(topic)}"`);
    } catch (e) {
      this.lost(e);
    }
  }

  private async open(): Promise<void> {
    // pg is loaded only when a PostgreSQL daemon listens (a SQLite daemon never needs it)
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: this.url });
    client.on('notification', (n) => {
      const topic = [...this.listeners.keys()].find((t) => this.channel(t) === n.channel);
      if (!topic) return;
      const own = n.payload === this.instanceId;
      if (!own) this.events.emit('notification', topic);
      this.fire(topic, own);
    });
    client.on('error', (e) => this.lost(e));
    await client.connect();
    this.client = client;
  }

  /** Wakes the listeners of `topic` (for this daemon's own notification, those that asked for them). */
  private fire(topic: NotifyTopic, own = false): void {
    for (const l of this.listeners.get(topic) ?? []) if (l.own || !own) this.call(l);
  }

  private call(l: Listener): void {
    try {
      l.fn();
    } catch (e) {
      this.log?.error({ err: e, code: 'NOTIFY_LISTENER_FAILED' }, 'a notification listener failed');
    }
  }

  /**
   * The listening connection failed: drop it, connect again later, then wake
   * every listener (work may have been missed meanwhile).
   */
  private lost(e: unknown): void {
    if (this.closed || this.retryTimer) return;
    this.log?.warn({ err: e, code: 'NOTIFY_CONNECTION_LOST' }, 'LISTEN connection lost; polling until it is back');
    const old = this.client;
    this.client = undefined;
    this.connecting = undefined;
    void old?.end().catch(() => undefined);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void (async () => {
        for (const t of this.listeners.keys()) await this.connect(t);
        if (this.client) for (const t of this.listeners.keys()) this.fire(t);
      })();
    }, RECONNECT_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.listeners.clear();
    await this.connecting?.catch(() => undefined);
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
