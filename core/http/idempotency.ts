/**
 * `Idempotency-Key` on POST requests (docs/security.md, Idempotency): the
 * first request with a key runs and its response is kept, per organization,
 * for `idempotency.ttlSeconds`; the same key with the same request (method,
 * path, query and body) replays that response; with a different request it is
 * 409 IDEMPOTENCY_KEY_REUSED; while the first one still runs, 409
 * IDEMPOTENCY_IN_PROGRESS with `Retry-After`. A Koa middleware in front of
 * every route, so plugin routes get it too.
 */
import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Principal } from '../auth/authenticator.js';
import type { TitledConfig } from '../config.js';
import type { PiiCodec } from '../crypto/pii.js';
import { isUniqueViolation, type Database } from '../db/database.js';
import { TitledError } from '../errors.js';
import { readText } from './body.js';

const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** Response headers a replay repeats (besides the status and body). */
const REPLAYED_HEADERS = ['content-type', 'location', 'link', 'cache-control'];

interface Row {
  fingerprint: string;
  state: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  createdAt: number;
  expiresAt: number;
}
interface Kept {
  status: number;
  headers: Record<string, string>;
  body: { json?: unknown; text?: string };
}

export class IdempotencyKeys {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly pii: PiiCodec | undefined,
    private readonly cfg: TitledConfig['idempotency'],
  ) {}

  /** Claims `key` for a request; what is already kept for it otherwise. */
  async claim(
    orgId: string,
    key: string,
    fingerprint: string,
  ): Promise<{ claimed: true } | { claimed: false; row: Row }> {
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      try {
        await this.db.exec(
          'INSERT INTO idempotency_keys ("orgId", key, fingerprint, state, "createdAt", "expiresAt") ' +
            'VALUES (?, ?, ?, ?, ?, ?)',
          [orgId, key, fingerprint, 'running', now, now + this.cfg.ttlSeconds * 1000],
        );
        return { claimed: true };
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
      }
      const row = (
        await this.db.query<Row>('SELECT * FROM idempotency_keys WHERE "orgId" = ? AND key = ?', [orgId, key])
      )[0];
      if (!row) continue;
      const stale = row.state === 'running' && Number(row.createdAt) + this.cfg.lockSeconds * 1000 < now;
      if (Number(row.expiresAt) > now && !stale) return { claimed: false, row };
      // expired, or its request died without an answer: the key is free again
      await this.db.exec('DELETE FROM idempotency_keys WHERE "orgId" = ? AND key = ? AND "createdAt" = ?', [
        orgId,
        key,
        row.createdAt,
      ]);
    }
    throw new TitledError('IDEMPOTENCY_IN_PROGRESS', 'the Idempotency-Key is being claimed by another request; retry');
  }

  async keep(orgId: string, key: string, kept: Kept): Promise<void> {
    const body = this.pii ? await this.pii.stringify(orgId, kept.body) : JSON.stringify(kept.body);
    await this.db.exec(
      'UPDATE idempotency_keys SET state = ?, status = ?, headers = ?, body = ? WHERE "orgId" = ? AND key = ?',
      ['done', kept.status, JSON.stringify(kept.headers), body, orgId, key],
    );
  }

  async release(orgId: string, key: string): Promise<void> {
    await this.db.exec('DELETE FROM idempotency_keys WHERE "orgId" = ? AND key = ? AND state = ?', [
      orgId,
      key,
      'running',
    ]);
  }

  async kept(orgId: string, row: Row): Promise<Kept> {
    const body = this.pii
      ? await this.pii.parse<Kept['body']>(orgId, row.body!)
      : (JSON.parse(row.body!) as Kept['body']);
    return { status: Number(row.status), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body };
  }

  /** Deletes expired keys; returns how many. */
  async prune(now = Date.now()): Promise<number> {
    this.lastPrune = now;
    return (await this.db.exec('DELETE FROM idempotency_keys WHERE "expiresAt" < ?', [now])).affected;
  }

  /** Prunes at most once a minute, in the background of a request. */
  pruneSoon(log: (e: unknown) => void): void {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.prune().catch(log);
  }
}

/** The request's fingerprint: method, path with query, and body bytes. */
function fingerprintOf(ctx: Context, body: string): string {
  return createHash('sha256').update(`${ctx.method}\n${ctx.url}\n`).update(body).digest('hex');
}

/** What a response is, when it can be kept (a JSON object or text, within `max` bytes). */
function keepable(ctx: Context, max: number): Kept | null {
  const b: unknown = ctx.body;
  let body: Kept['body'];
  if (typeof b === 'string') body = { text: b };
  else if (b === null || b === undefined) body = {};
  else if (Buffer.isBuffer(b) || typeof (b as { pipe?: unknown }).pipe === 'function') return null;
  else body = { json: b };
  if ((body.text?.length ?? 0) > max || (body.json !== undefined && JSON.stringify(body.json).length > max))
    return null;
  const headers: Record<string, string> = {};
  for (const h of REPLAYED_HEADERS) {
    const v = ctx.response.get(h);
    if (v) headers[h] = v;
  }
  return { status: ctx.status, headers, body };
}

export interface IdempotencyDeps {
  keys: IdempotencyKeys;
  authenticate: (ctx: Context) => Promise<Principal>;
  bodyLimit: number;
  maxResponseBytes: number;
  log: (e: unknown) => void;
}

/**
 * The middleware. A POST without the header passes through untouched. With
 * it: the key is checked, the caller authenticated (the key belongs to its
 * organization), the body read once (`ctx.state.rawBody`, which readJson
 * uses), and the key claimed, replayed or refused. A response that is an
 * error (thrown) or a 5xx releases the key, so the retry runs again.
 */
export function idempotency(d: IdempotencyDeps) {
  // a plain function first: most requests carry no key and pass straight on (no promise of their own)
  return (ctx: Context, next: Next): Promise<void> => {
    const key = ctx.get('idempotency-key');
    if (ctx.method !== 'POST' || !key || ctx.path.startsWith('/auth/')) return next();
    return withKey(d, ctx, next, key);
  };
}

/** A POST with an Idempotency-Key: answered once, replayed after (docs/decisions.md). */
async function withKey(d: IdempotencyDeps, ctx: Context, next: Next, key: string): Promise<void> {
  if (!KEY_RE.test(key))
    throw new TitledError('INVALID_INPUT', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  const principal = await d.authenticate(ctx);
  const orgId = principal.org.id;
  const body = await readText(ctx, d.bodyLimit);
  ctx.state.rawBody = body;
  const fp = fingerprintOf(ctx, body);
  d.keys.pruneSoon(d.log);
  const c = await d.keys.claim(orgId, key, fp);
  if (!c.claimed) return answerKept(ctx, d.keys, orgId, c.row, fp);
  try {
    await next();
  } catch (e) {
    await d.keys.release(orgId, key);
    throw e;
  }
  const kept = ctx.status < 500 && ctx.status !== 429 ? keepable(ctx, d.maxResponseBytes) : null;
  if (kept) await d.keys.keep(orgId, key, kept);
  else await d.keys.release(orgId, key);
}

async function answerKept(ctx: Context, keys: IdempotencyKeys, orgId: string, row: Row, fp: string): Promise<void> {
  if (row.fingerprint !== fp) {
    throw new TitledError(
      'IDEMPOTENCY_KEY_REUSED',
      'this Idempotency-Key was used with a different request (method, path or body)',
    );
  }
  if (row.state !== 'done') {
    ctx.set('Retry-After', '1');
    throw new TitledError('IDEMPOTENCY_IN_PROGRESS', 'a request with this Idempotency-Key is still running; retry');
  }
  const kept = await keys.kept(orgId, row);
  ctx.status = kept.status;
  for (const [h, v] of Object.entries(kept.headers)) ctx.set(h, v);
  ctx.set('Idempotent-Replayed', 'true');
  if (kept.body.json !== undefined) ctx.body = kept.body.json;
  else if (kept.body.text !== undefined) ctx.body = kept.body.text;
  if (kept.headers['content-type']) ctx.type = kept.headers['content-type'];
}
