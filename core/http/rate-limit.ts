/**
 * Request rate limits per credential and per organization (README, Rate
 * limits): a fixed window of `rateLimit.windowSeconds`, `perCredential`
 * requests for each API key (or JWT/session user) and `perOrganization` for
 * all of an organization's credentials together. Every authenticated answer
 * carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (IETF
 * draft-ietf-httpapi-ratelimit-headers) and `RateLimit-Policy`; over a limit
 * is 429 RATE_LIMITED with `Retry-After`. Counters: in memory (one process)
 * or, on PostgreSQL, in a table every daemon shares (rate-limiter-flexible).
 */
import type { Context } from 'koa';
import type { DataSource } from 'typeorm';
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';
import type { Principal } from '../auth/authenticator.js';
import type { TitledConfig } from '../config.js';
import { TitledError } from '../errors.js';

type RateLimiterAbstract = Flexible.RateLimiterAbstract;
type RateLimiterRes = Flexible.RateLimiterRes;
// rate-limiter-flexible's index loads every store it supports (Redis, Mongo, Drizzle, Valkey, ...): about 10 MB of
// a daemon's resident memory. What is used always (the in-memory counters and the result class), and the PostgreSQL
// store when it is used, come from their own files (the package has no `exports` map; these are the files its
// index and RateLimiterMemory load).
const require = createRequire(import.meta.url);
const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof Flexible.RateLimiterRes;
/** The counters RateLimiterMemory keeps (fixed windows, one timer per key and window), used without its promises. */
const MemoryStorage = require('rate-limiter-flexible/lib/component/MemoryStorage/MemoryStorage.js') as new () => {
  incrby(key: string, value: number, durationSec: number): RateLimiterRes;
};
const postgresLimiter = () =>
  require('rate-limiter-flexible/lib/RateLimiterPostgres.js') as typeof Flexible.RateLimiterPostgres;

interface Limit {
  name: 'credential' | 'organization';
  points: number;
  /**
   * Counts one request of `key`: the counter's state (a RateLimiterRes), which rejects (or, counted in memory,
   * is returned with `over`) when the request is over the limit.
   */
  consume: (key: string) => Promise<RateLimiterRes> | { res: RateLimiterRes; over: boolean };
  keyOf: (p: Principal) => string;
}

/** The credential a principal acts with: its API key, else its user (JWT, or a session minted from one). */
export const credentialOf = (p: Principal) => (p.keyId ? `key:${p.keyId}` : `user:${p.org.id}:${p.userId}`);

export interface RateLimitDeps {
  config: TitledConfig['rateLimit'];
  /** The PostgreSQL data source (store `postgres`), and its schema. */
  postgres?: { dataSource: DataSource; schema?: string };
  log: (e: unknown) => void;
}

/**
 * Counts one authenticated request of `principal`: sets the headers, throws RATE_LIMITED (with `Retry-After`) when
 * it is over a limit. Synchronous in memory; a promise on PostgreSQL.
 */
export type CountRequest = (ctx: Context, principal: Principal) => void | Promise<void>;

/** Which store the counters use: PostgreSQL shares them between daemons. */
export function rateLimitStore(config: Pick<TitledConfig, 'rateLimit' | 'databaseUrl'>): 'memory' | 'postgres' {
  const s = config.rateLimit.store;
  if (s === 'auto') return config.databaseUrl ? 'postgres' : 'memory';
  return s;
}

/**
 * One limit's counter. In memory: rate-limiter-flexible's MemoryStorage counted synchronously, as RateLimiterMemory
 * counts (without blockDuration and execEvenly, which are not used), so a request pays no promise per limit (about
 * 3 us less daemon CPU per GET with two limits), each limit in a storage of its own (so its keys carry no
 * prefix). On PostgreSQL: RateLimiterPostgres, its rows named by `prefix`.
 */
function counter(d: RateLimitDeps, points: number, prefix: string): Limit['consume'] {
  const seconds = d.config.windowSeconds;
  if (!d.postgres) {
    const storage = new MemoryStorage();
    return (key) => {
      const res = storage.incrby(key, 1, seconds);
      (res as { remainingPoints: number }).remainingPoints = Math.max(points - res.consumedPoints, 0);
      return { res, over: res.consumedPoints > points };
    };
  }
  const RateLimiterPostgres = postgresLimiter();
  const limiter: RateLimiterAbstract = new RateLimiterPostgres({
    // the table is made by a migration (core/db/migrations/postgres/*-RateLimits.ts), not by the limiter at start
    points,
    duration: seconds,
    keyPrefix: prefix,
    storeClient: d.postgres.dataSource,
    storeType: 'typeorm',
    tableName: 'rate_limits',
    schemaName: d.postgres.schema,
    tableCreated: true,
  });
  return (key) => limiter.consume(key);
}

function limits(d: RateLimitDeps): Limit[] {
  const out: Limit[] = [];
  if (d.config.perCredential > 0) {
    out.push({
      name: 'credential',
      points: d.config.perCredential,
      consume: counter(d, d.config.perCredential, 'cred'),
      keyOf: credentialOf,
    });
  }
  if (d.config.perOrganization > 0) {
    out.push({
      name: 'organization',
      points: d.config.perOrganization,
      consume: counter(d, d.config.perOrganization, 'org'),
      keyOf: (p) => p.org.id,
    });
  }
  return out;
}

/**
 * The counter of authenticated requests; null when rate limits are off. The app calls it once per request, when the
 * request's credentials are verified (core/http/app.ts), so a request without valid credentials is not counted (its
 * route refuses it) and nothing but the verification runs before a request over its limit is refused.
 */
export function rateLimit(d: RateLimitDeps): CountRequest | null {
  const all = limits(d);
  if (!d.config.enabled || !all.length) return null;
  const policy = all.map((l) => `${l.points};w=${d.config.windowSeconds};comment="${l.name}"`).join(', ');
  if (d.postgres === undefined) {
    // in memory: no promise (this runs on every authenticated request). A principal is the authenticator's cached
    // object for as long as its credential is cached, so its counters' keys are made once, not on every request
    // (a key built anew is a new string to flatten and hash at each look-up).
    const keysOf = new WeakMap<Principal, string[]>();
    return (ctx, principal) => {
      let keys = keysOf.get(principal);
      if (!keys) keysOf.set(principal, (keys = all.map((l) => l.keyOf(principal))));
      const results: Counted[] = [];
      for (let i = 0; i < all.length; i++) results.push(all[i]!.consume(keys[i]!) as Counted);
      answer(ctx, all, results, policy, d.log);
    };
  }
  return async (ctx, principal) => {
    // every counter at once; the tightest limit is the one the headers describe
    const results = await Promise.all(
      all.map((l) =>
        (l.consume(l.keyOf(principal)) as Promise<RateLimiterRes>).then(
          (res): Counted => ({ res, over: false }),
          (e: unknown): Counted => (e instanceof RateLimiterRes ? { res: e, over: true } : { e }),
        ),
      ),
    );
    answer(ctx, all, results, policy, d.log);
  };
}

type Counted = { res: RateLimiterRes; over: boolean } | { e: unknown };

/** The headers of the tightest limit; RATE_LIMITED when a limit is over. */
function answer(ctx: Context, all: Limit[], results: Counted[], policy: string, log: (e: unknown) => void): void {
  let shown: { points: number; res: RateLimiterRes } | undefined;
  let over: { name: string; res: RateLimiterRes } | undefined;
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    const l = all[i]!;
    if (!('res' in r)) {
      log(r.e); // a store that fails lets requests through rather than refusing every one
      continue;
    }
    if (r.over) over ??= { name: l.name, res: r.res };
    if (!shown || r.res.remainingPoints < shown.res.remainingPoints) shown = { points: l.points, res: r.res };
  }
  if (shown) setHeaders(ctx, shown.points, shown.res, policy);
  if (over) {
    const seconds = Math.max(1, Math.ceil(over.res.msBeforeNext / 1000));
    ctx.set('Retry-After', String(seconds));
    throw new TitledError('RATE_LIMITED', `too many requests for this ${over.name}; retry in ${seconds} s`);
  }
}

/** On node's response directly: the values are ours and valid, Koa's `set` would only add an array per header. */
function setHeaders(ctx: Context, points: number, res: RateLimiterRes, policy: string): void {
  const out = ctx.res;
  out.setHeader('RateLimit-Limit', String(points));
  out.setHeader('RateLimit-Remaining', String(Math.max(0, res.remainingPoints)));
  out.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))));
  out.setHeader('RateLimit-Policy', policy);
}
