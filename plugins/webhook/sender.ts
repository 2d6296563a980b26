/**
 * Sends deliveries. Workers claim due deliveries with a lease (PostgreSQL:
 * FOR UPDATE SKIP LOCKED, so daemons sharing a database never send one
 * delivery at the same time); a delivery whose worker died is claimed again
 * when its lease runs out, so every delivery is sent at least once. A
 * delivery waits while an earlier one of the same (profile, entry) is not
 * finished: one entry's deliveries reach an endpoint in event order.
 *
 * Each attempt: the entry as GET /title/{id} shows it now (presigned URLs
 * valid 1 hour) plus `webhook_events`, signed, with the profile's auth
 * headers. 2xx delivered; 4xx (and 3xx, and a URL the guard refuses) failed
 * without retry; 5xx, timeouts and connection errors retried up to
 * `maxRetries` times with exponential backoff and jitter, then failed.
 */
import type { Organization, Organizations, Database, Logger, Entries } from '../../core/plugin-api.js';
import type { WebhookClient, PostOutcome } from './http.js';
import { retryDelayMs, type WebhookOptions } from './options.js';
import { authHeaders, type WebhookProfiles } from './profiles.js';
import { signatureHeaders } from './signature.js';

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed' | 'canceled';

interface ClaimedDelivery {
  id: string;
  profileId: string;
  orgId: string;
  entryId: string;
  events: string[];
  attempts: number;
}

export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  outcome: 'delivered' | 'retry' | 'failed' | 'canceled';
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  nextAttemptAt: number | null;
}

export class DeliverySender {
  /** Called after each attempt is recorded (metrics). */
  onAttempt?: (a: { outcome: string }) => void;
  private running = false;
  private inFlight = 0;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private again = false;
  private readonly inFlightDone = new Set<Promise<void>>();
  /** Organizations by id, kept a second (settings such as preview features shape the body). */
  private readonly orgCache = new Map<string, { org: Organization | null; at: number }>();

  constructor(
    private readonly db: Database,
    private readonly entries: Entries,
    private readonly profiles: WebhookProfiles,
    private readonly orgs: Organizations,
    private readonly client: WebhookClient,
    private readonly options: WebhookOptions,
    private readonly log: Logger,
    readonly owner: string,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops claiming and waits for the attempts in flight (each ends within the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlightDone]);
  }

  wake(): void {
    if (!this.running) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  private async poll(): Promise<void> {
    if (!this.running || this.polling) return;
    this.polling = true;
    let claimed = 0;
    try {
      const free = this.options.concurrency - this.inFlight;
      if (free > 0) {
        const batch = await this.claim(free);
        claimed = batch.length;
        for (const d of batch) this.launch(d);
      }
    } catch (e) {
      this.log.error({ err: e, code: 'WEBHOOK_CLAIM_FAILED' }, 'claiming webhook deliveries failed; will retry');
    } finally {
      this.polling = false;
    }
    if (!this.running) return;
    const full = claimed > 0 && this.inFlight >= this.options.concurrency;
    if (this.again && !full) {
      this.again = false;
      this.schedule(0);
    } else if (!full) {
      this.schedule(this.options.pollIntervalMs);
    }
    // when full, the next finished attempt polls again
  }

  private launch(d: ClaimedDelivery): void {
    this.inFlight++;
    const p = this.attempt(d)
      .catch((e: unknown) =>
        this.log.error(
          { err: e, code: 'WEBHOOK_ATTEMPT_CRASHED', deliveryId: d.id },
          'webhook attempt failed unexpectedly; the lease will expire and it is sent again',
        ),
      )
      .then(() => undefined)
      .finally(() => {
        this.inFlight--;
        this.inFlightDone.delete(p);
        // this delivery's end may let the next one of the same entry go
        this.wake();
      });
    this.inFlightDone.add(p);
  }

  /** Claims up to `n` due deliveries (or ones whose lease ran out), each the oldest unfinished of its (profile, entry). */
  async claim(n: number, onlyId?: string): Promise<ClaimedDelivery[]> {
    if (n <= 0) return [];
    const now = Date.now();
    // a plain read first: an idle sender writes nothing
    const due = await this.db.query(
      `SELECT id FROM webhook_deliveries WHERE ((status = 'pending' AND "nextAttemptAt" <= ?) OR (status = 'delivering' AND "leaseExpiresAt" < ?))${onlyId ? ' AND id = ?' : ''} LIMIT 1`,
      [now, now, ...(onlyId ? [onlyId] : [])],
    );
    if (due.length === 0) return [];
    const pg = this.db.dialect === 'postgres';
    const pick = `SELECT d.id FROM webhook_deliveries d
      WHERE ((d.status = 'pending' AND d."nextAttemptAt" <= ?) OR (d.status = 'delivering' AND d."leaseExpiresAt" < ?))
        ${onlyId ? 'AND d.id = ?' : ''}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e."profileId" = d."profileId" AND e."entryId" = d."entryId"
                        AND e.seq < d.seq AND e.status IN ('pending', 'delivering'))
      ORDER BY d."nextAttemptAt", d.seq LIMIT ?${pg ? ' FOR UPDATE SKIP LOCKED' : ''}`;
    const sql = `UPDATE webhook_deliveries SET status = 'delivering', "leaseOwner" = ?, "leaseExpiresAt" = ?, "updatedAt" = ?
      WHERE id IN (${pick}) RETURNING id, "profileId", "orgId", "entryId", events, attempts`;
    const params: unknown[] = [this.owner, now + this.options.leaseMs, now, now, now, ...(onlyId ? [onlyId] : []), n];
    const rows = await this.db.tx((m) => this.db.query<Record<string, unknown>>(sql, params, m));
    return rows.map((r) => ({
      id: String(r.id),
      profileId: String(r.profileId),
      orgId: String(r.orgId),
      entryId: String(r.entryId),
      events: JSON.parse(String(r.events)) as string[],
      attempts: Number(r.attempts),
    }));
  }

  /** One attempt of a claimed delivery, recorded with its outcome. */
  async attempt(d: ClaimedDelivery): Promise<AttemptResult> {
    const attempt = d.attempts + 1;
    const startedAt = Date.now();
    const profile = await this.profiles.get(d.profileId);
    // a profile belongs to one organization; a delivery never crosses to another
    if (!profile || profile.orgId !== d.orgId)
      return this.record(d, {
        attempt,
        startedAt,
        outcome: 'canceled',
        statusCode: null,
        error: 'profile removed',
        latencyMs: 0,
      });
    const stored = await this.entries.load(d.orgId, d.entryId);
    if (!stored)
      return this.record(d, {
        attempt,
        startedAt,
        outcome: 'canceled',
        statusCode: null,
        error: 'entry deleted',
        latencyMs: 0,
      });
    const org = await this.org(d.orgId);
    // the entry as GET /title/{id} shows it to its organization now (presign, then the plugins' present hooks)
    const body = JSON.stringify({
      ...this.entries.present(stored.entry, { ttlSeconds: this.options.presignTtlSeconds, org: org ?? undefined }),
      webhook_events: d.events,
    });
    const headers = {
      'content-type': 'application/json',
      ...authHeaders(profile.auth),
      ...signatureHeaders(profile.signingSecret, d.id, body),
    };
    const t0 = performance.now();
    const res = await this.client.post(profile.url, body, headers);
    const latencyMs = Math.round(performance.now() - t0);
    const { outcome, statusCode, error } = judge(res);
    const retry = outcome === 'retry' && attempt <= this.options.maxRetries;
    const log = {
      code: '',
      deliveryId: d.id,
      profileId: d.profileId,
      entryId: d.entryId,
      attempt,
      statusCode,
      latencyMs,
      host: new URL(profile.url).host,
    };
    if (outcome === 'delivered') this.log.debug({ ...log, code: 'WEBHOOK_DELIVERED' }, 'webhook delivered');
    else if (outcome === 'failed')
      this.log.warn(
        { ...log, code: res.kind === 'blocked' ? 'WEBHOOK_URL_BLOCKED' : 'WEBHOOK_REJECTED', error },
        'webhook refused; not retried',
      );
    else if (retry) this.log.info({ ...log, code: 'WEBHOOK_RETRY', error }, 'webhook attempt failed; will retry');
    else this.log.warn({ ...log, code: 'WEBHOOK_FAILED', error }, 'webhook attempts exhausted; delivery failed');
    return this.record(d, {
      attempt,
      startedAt,
      outcome: outcome === 'retry' && !retry ? 'failed' : outcome,
      statusCode,
      error,
      latencyMs,
    });
  }

  private async org(id: string): Promise<Organization | null> {
    const hit = this.orgCache.get(id);
    if (hit && Date.now() - hit.at < 1000) return hit.org;
    const org = await this.orgs.byId(id);
    this.orgCache.set(id, { org, at: Date.now() });
    return org;
  }

  private async record(
    d: ClaimedDelivery,
    a: Omit<AttemptResult, 'deliveryId' | 'nextAttemptAt'> & { startedAt: number },
  ): Promise<AttemptResult> {
    const now = Date.now();
    const nextAttemptAt = a.outcome === 'retry' ? now + retryDelayMs(this.options.retryBaseMs, a.attempt) : null;
    const status: DeliveryStatus = a.outcome === 'retry' ? 'pending' : a.outcome;
    await this.db.tx(async (m) => {
      // a canceled delivery made no request: nothing to record as an attempt
      if (a.outcome !== 'canceled') {
        await this.db.exec(
          'INSERT INTO webhook_attempts ("deliveryId", attempt, "startedAt", "statusCode", "latencyMs", error, outcome, "nextAttemptAt", worker) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [d.id, a.attempt, a.startedAt, a.statusCode, a.latencyMs, a.error, a.outcome, nextAttemptAt, this.owner],
          m,
        );
      }
      const attempts = a.outcome === 'canceled' ? d.attempts : a.attempt;
      await this.db.exec(
        `UPDATE webhook_deliveries SET status = ?, attempts = ?, "nextAttemptAt" = ?, "lastStatusCode" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "deliveredAt" = ?, "updatedAt" = ? WHERE id = ? AND "leaseOwner" = ? AND status = 'delivering'`,
        [
          status,
          attempts,
          nextAttemptAt ?? now,
          a.statusCode,
          a.error,
          a.outcome === 'delivered' ? now : null,
          now,
          d.id,
          this.owner,
        ],
        m,
      );
    });
    this.onAttempt?.({ outcome: a.outcome });
    if (nextAttemptAt !== null && this.running) setTimeout(() => this.wake(), nextAttemptAt - now + 5).unref();
    return {
      deliveryId: d.id,
      attempt: a.attempt,
      outcome: a.outcome,
      statusCode: a.statusCode,
      error: a.error,
      latencyMs: a.latencyMs,
      nextAttemptAt,
    };
  }
}

function judge(res: PostOutcome): {
  outcome: 'delivered' | 'retry' | 'failed';
  statusCode: number | null;
  error: string | null;
} {
  if (res.kind === 'blocked')
    return { outcome: 'failed', statusCode: null, error: `URL refused by the outbound guard: ${res.error}` };
  if (res.kind !== 'response') return { outcome: 'retry', statusCode: null, error: res.error };
  const c = res.statusCode;
  const snippet = res.body ? `: ${res.body.slice(0, 500)}` : '';
  if (c >= 200 && c < 300) return { outcome: 'delivered', statusCode: c, error: null };
  if (c >= 500) return { outcome: 'retry', statusCode: c, error: `HTTP ${c}${snippet}` };
  if (c >= 300 && c < 400) return { outcome: 'failed', statusCode: c, error: `HTTP ${c}: redirects are not followed` };
  return { outcome: 'failed', statusCode: c, error: `HTTP ${c}${snippet}` };
}
