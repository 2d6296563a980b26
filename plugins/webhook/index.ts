/**
 * webhook: delivers the spec's webhook events from the outbox (docs/webhooks.md).
 *
 * A background plugin (no pipeline stage): `start()` runs the dispatcher
 * (outbox events -> deliveries, one per subscribed profile and change) and
 * the sender (claims deliveries with a lease and POSTs them). Profiles,
 * delivery listings and replays are methods here, used by the CLI
 * (`titled webhooks ...`) and by library callers through
 * `engine.plugins.find((p) => p.name === 'webhook')`.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { inject, injectable } from 'tsyringe';
import {
  Metrics,
  Organizations,
  type TitledConfig,
  Database,
  EngineConfigError,
  TitledError,
  type Logger,
  UrlGuard,
  type EnginePlugin,
  Entries,
  Outbox,
  TOKENS,
  deleteInBatches,
  type Retention,
} from '../../core/plugin-api.js';
import { insertDelivery, OutboxDispatcher } from './dispatcher.js';
import { WebhookClient } from './http.js';
import { parseWebhookOptions, WebhookOptionsSchema, type WebhookOptions } from './options.js';
import {
  WebhookProfiles,
  summarize,
  type SetProfileInput,
  type WebhookProfile,
  type WebhookProfileSummary,
} from './profiles.js';
import { pluginSchema } from './schema.js';
import { DeliverySender, type AttemptResult, type DeliveryStatus } from './sender.js';

export { WEBHOOK_EVENTS, ACCOUNT_STATUS_WILDCARD } from './events.js';
export type { WebhookAuth, WebhookProfile, WebhookProfileSummary, SetProfileInput } from './profiles.js';
export type { AttemptResult, DeliveryStatus } from './sender.js';
export { verify as verifySignature, sign as signPayload } from './signature.js';

export interface WebhookAttempt {
  attempt: number;
  startedAt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: string;
  nextAttemptAt: number | null;
  /** The process that made it (host:pid:id). */
  worker: string | null;
}

export interface WebhookDelivery {
  id: string;
  profileId: string;
  orgId: string;
  entryId: string;
  events: string[];
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastError: string | null;
  replayOf: string | null;
  createdAt: number;
  deliveredAt: number | null;
  /** Every attempt, oldest first (with `withAttempts`). */
  attemptLog?: WebhookAttempt[];
}

export interface DeliveryQuery {
  entryId?: string;
  status?: DeliveryStatus;
  limit?: number;
  withAttempts?: boolean;
}

function toDelivery(r: Record<string, unknown>): WebhookDelivery {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(r.id),
    profileId: String(r.profileId),
    orgId: String(r.orgId),
    entryId: String(r.entryId),
    events: JSON.parse(String(r.events)) as string[],
    status: String(r.status) as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.nextAttemptAt),
    lastStatusCode: n(r.lastStatusCode),
    lastError: r.lastError === null ? null : String(r.lastError),
    replayOf: r.replayOf === null ? null : String(r.replayOf),
    createdAt: Number(r.createdAt),
    deliveredAt: n(r.deliveredAt),
  };
}

@injectable()
export class WebhookPlugin implements EnginePlugin {
  static readonly options = WebhookOptionsSchema;
  static readonly schema = pluginSchema;
  readonly name = 'webhook';
  readonly options: WebhookOptions;
  readonly guard: UrlGuard;
  readonly profiles: WebhookProfiles;
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly client: WebhookClient;
  private readonly sender: DeliverySender;
  private readonly dispatcher: OutboxDispatcher;
  private readonly log: Logger;

  constructor(
    private readonly db: Database,
    entries: Entries,
    outbox: Outbox,
    private readonly orgs: Organizations,
    @inject(TOKENS.Config) config: Readonly<TitledConfig>,
    @inject(TOKENS.Logger) log: Logger,
    metrics: Metrics,
  ) {
    this.log = log.child({ plugin: 'webhook' });
    this.options = parseWebhookOptions(config.plugins.webhook);
    try {
      this.guard = new UrlGuard(config.allowHosts);
    } catch (e) {
      throw new EngineConfigError((e as Error).message);
    }
    this.profiles = new WebhookProfiles(db, this.guard);
    this.client = new WebhookClient(this.guard, this.options.timeoutMs, this.options.concurrency, 'titled-webhooks/1');
    this.sender = new DeliverySender(db, entries, this.profiles, orgs, this.client, this.options, this.log, this.owner);
    this.sender.onAttempt = (r) => metrics.webhookAttempts.inc({ outcome: r.outcome });
    this.dispatcher = new OutboxDispatcher(db, this.profiles, this.options, this.log, this.owner, outbox.events, () =>
      this.sender.wake(),
    );
  }

  async start(): Promise<void> {
    await this.dispatcher.start();
    this.sender.start();
    this.log.info(
      {
        code: 'WEBHOOKS_STARTED',
        timeoutMs: this.options.timeoutMs,
        retryBaseMs: this.options.retryBaseMs,
        maxRetries: this.options.maxRetries,
      },
      'webhook delivery started',
    );
  }

  async stop(): Promise<void> {
    await this.dispatcher.stop();
    await this.sender.stop();
    this.client.close();
  }

  /** Pruning (config `retention.deliveriesMs`): deliveries that ended long ago, and their attempts. */
  async prune(retention: Retention, now: number): Promise<Record<string, number>> {
    const ended = `d.status IN ('delivered', 'failed', 'canceled') AND d."updatedAt" < ?`;
    const cutoff = now - retention.deliveriesMs;
    const batch = retention.batchSize;
    const attempts = `SELECT a.id FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a."deliveryId"
      WHERE ${ended}`;
    const webhook_attempts = await deleteInBatches(this.db, 'webhook_attempts', attempts, [cutoff], batch);
    const webhook_deliveries = await deleteInBatches(
      this.db,
      'webhook_deliveries',
      `SELECT d.id FROM webhook_deliveries d WHERE ${ended}`,
      [cutoff],
      batch,
    );
    return { webhook_deliveries, webhook_attempts };
  }

  private async orgId(orgName: string): Promise<string> {
    const org = await this.orgs.byName(orgName);
    if (!org) throw new TitledError('NOT_FOUND', `no organization '${orgName}'`);
    return org.id;
  }

  /** Creates or updates the organization's profile for a URL; the result holds the signing secret. */
  async setProfile(orgName: string, input: SetProfileInput): Promise<{ profile: WebhookProfile; created: boolean }> {
    const r = await this.profiles.set(await this.orgId(orgName), input);
    this.log.info(
      {
        code: 'WEBHOOK_PROFILE_SET',
        profileId: r.profile.id,
        created: r.created,
        events: r.profile.events,
        auth: r.profile.auth.scheme,
      },
      'webhook profile set',
    );
    return r;
  }

  /** The organization's profiles, without credentials or signing secrets. */
  async listProfiles(orgName: string): Promise<WebhookProfileSummary[]> {
    return (await this.profiles.list(await this.orgId(orgName))).map(summarize);
  }

  async removeProfiles(orgName: string, which: { id?: string; url?: string } = {}): Promise<WebhookProfileSummary[]> {
    const gone = await this.profiles.remove(await this.orgId(orgName), which);
    if (gone.length)
      this.log.info({ code: 'WEBHOOK_PROFILE_REMOVED', profileIds: gone.map((p) => p.id) }, 'webhook profiles removed');
    return gone.map(summarize);
  }

  /** Deliveries of an organization, newest first. */
  async deliveries(orgName: string, q: DeliveryQuery = {}): Promise<WebhookDelivery[]> {
    const orgId = await this.orgId(orgName);
    let sql = 'SELECT * FROM webhook_deliveries WHERE "orgId" = ?';
    const params: unknown[] = [orgId];
    if (q.entryId) {
      sql += ' AND "entryId" = ?';
      params.push(q.entryId);
    }
    if (q.status) {
      sql += ' AND status = ?';
      params.push(q.status);
    }
    sql += ' ORDER BY "createdAt" DESC, seq DESC LIMIT ?';
    params.push(q.limit ?? 100);
    const list = (await this.db.query<Record<string, unknown>>(sql, params)).map(toDelivery);
    if (q.withAttempts) for (const d of list) d.attemptLog = await this.attempts(d.id);
    return list;
  }

  async delivery(id: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM webhook_deliveries WHERE id = ?', [id]);
    if (!rows[0]) return null;
    const d = toDelivery(rows[0]);
    d.attemptLog = await this.attempts(id);
    return d;
  }

  async attempts(deliveryId: string): Promise<WebhookAttempt[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM webhook_attempts WHERE "deliveryId" = ? ORDER BY attempt, id',
      [deliveryId],
    );
    return rows.map((r) => ({
      attempt: Number(r.attempt),
      startedAt: Number(r.startedAt),
      statusCode: r.statusCode === null ? null : Number(r.statusCode),
      latencyMs: Number(r.latencyMs),
      error: r.error === null ? null : String(r.error),
      outcome: String(r.outcome),
      nextAttemptAt: r.nextAttemptAt === null ? null : Number(r.nextAttemptAt),
      worker: r.worker === null ? null : String(r.worker),
    }));
  }

  /**
   * Sends a finished delivery again: a new delivery (new `webhook-id`, same
   * events, `replayOf` set), due now, with the entry as it is now. A running
   * daemon sends it; `sendNow` sends it from this process.
   */
  async replay(deliveryId: string): Promise<WebhookDelivery> {
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM webhook_deliveries WHERE id = ?', [
      deliveryId,
    ]);
    if (!rows[0]) throw new TitledError('NOT_FOUND', `no webhook delivery '${deliveryId}'`);
    const d = toDelivery(rows[0]);
    if (d.status === 'pending' || d.status === 'delivering')
      throw new TitledError(
        'CONFLICT',
        `delivery ${deliveryId} is still ${d.status}; it will be sent without a replay`,
      );
    if (!(await this.profiles.get(d.profileId)))
      throw new TitledError('CONFLICT', `the profile of delivery ${deliveryId} was removed`);
    // one write, no read-then-write transaction (SQLite shared with a running daemon)
    const id = await this.db.tx((m) =>
      insertDelivery(this.db, m, {
        profileId: d.profileId,
        orgId: d.orgId,
        entryId: d.entryId,
        events: d.events,
        outboxIds: JSON.parse(String(rows[0]!.outboxIds)) as number[],
        seq: Number(rows[0]!.seq),
        replayOf: d.id,
      }),
    );
    this.log.info({ code: 'WEBHOOK_REPLAY', deliveryId: id, replayOf: deliveryId }, 'webhook delivery replayed');
    this.sender.wake();
    return (await this.delivery(id))!;
  }

  /** Makes one attempt of a due delivery from this process now; null when it is not due or another worker has it. */
  async sendNow(deliveryId: string): Promise<AttemptResult | null> {
    const [d] = await this.sender.claim(1, deliveryId);
    return d ? this.sender.attempt(d) : null;
  }

  /** Turns the outbox's waiting events into deliveries now (tests, CLI); the dispatcher does it on its own when started. */
  async dispatchNow(): Promise<{ events: number; deliveries: number }> {
    const r = await this.dispatcher.dispatchAll();
    if (r.deliveries) this.sender.wake();
    return r;
  }

  /** Counts of outbox events waiting and deliveries by status. */
  async counts(): Promise<{ undispatched: number } & Partial<Record<DeliveryStatus, number>>> {
    const [u] = await this.db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM outbox WHERE "dispatchedAt" IS NULL');
    const rows = await this.db.query<{ status: string; n: unknown }>(
      'SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status',
    );
    return { undispatched: Number(u?.n ?? 0), ...Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) };
  }
}
