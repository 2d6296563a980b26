import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import type cors from '@koa/cors';
import { createRequire } from 'node:module';
import { runInRequest } from '../async-context.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from 'pino';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import type { TitledConfig } from '../config.js';
import { TitledError, isTitledError } from '../errors.js';
import type { TitleService } from '../service/title-service.js';
import { contentTypeOf, SignedObjectStore, type ObjectStore } from '../storage/object-store.js';
import type { PiiCodec } from '../crypto/pii.js';
import type { Database } from '../db/database.js';
import { readJson } from './body.js';
import { idempotency, IdempotencyKeys } from './idempotency.js';
import { rateLimit, rateLimitStore, type CountRequest } from './rate-limit.js';
import { answerClientErrors } from './server.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

export interface HttpDeps {
  config: Readonly<TitledConfig>;
  log: Logger;
  service: TitleService;
  auth: Authenticator;
  objects: ObjectStore;
  /** Readiness: database reachable and workers running. */
  ready: () => Promise<{ ready: boolean; checks: Record<string, boolean> }>;
  /** The database and the PII codec: kept `Idempotency-Key` answers (core/http/idempotency.ts); absent: none. */
  db?: Database;
  pii?: PiiCodec;
  /** The engine's Prometheus registry (GET /metrics, HTTP latency). */
  metrics: Metrics;
  /** Routes mounted after the core ones (OpenAPI, docs, console): built by the engine. */
  lateRoutes?: ((router: Router) => void)[];
  /** Hooks plugins use to add routes before the app is built. */
  extraRoutes: ((
    router: Router,
    deps: { authenticate: (ctx: Context) => Promise<Principal>; readJson: (ctx: Context) => Promise<unknown> },
  ) => void)[];
}

type State = { principal: Principal };

/** The spec's error body. */
function errorBody(status: number, message: string, disallowedFields?: string[]) {
  return disallowedFields
    ? { error: message, statusCode: status, disallowedFields }
    : { error: message, statusCode: status };
}

type Body = (ctx: Context) => Promise<unknown>;
type Authenticate = (ctx: Context) => Promise<Principal>;

/**
 * The Koa app: thin routes that parse input, call the title service, and map
 * core errors to the spec's error body in one middleware.
 */
export function createApp(d: HttpDeps): Koa {
  const app = new Koa();
  app.proxy = d.config.trustProxy;
  const { jsonMaxDepth: maxDepth, jsonMaxMembers: maxMembers, jsonMaxStringLength: maxStringLength } = d.config.limits;
  const cookieName = d.config.auth.sessionCookieName;
  const body: Body = (ctx) => readJson(ctx, d.config.bodyLimitBytes, { maxDepth, maxMembers, maxStringLength });
  // Koa prints errors it catches itself (a failed response stream) as plain text on stderr: log them as JSON instead
  app.silent = true;
  app.on('error', (err: unknown, ctx?: Context) => {
    const e = err as { status?: number; code?: string };
    d.log[e.status && e.status < 500 ? 'debug' : 'warn'](
      { err, code: e.code ?? 'INTERNAL', method: ctx?.method, path: ctx?.path },
      'response failed',
    );
  });
  app.use(requestId());
  if (d.config.cors.origins.length) app.use(corsMiddleware(d.config.cors));
  app.use(errorMiddleware(d.log, d.metrics));

  // once per request: the idempotency check and the route share the principal; the request is counted against its
  // rate limits as its credentials are verified (a request refused for its rate does not use up its Idempotency-Key)
  const count = requestCounter(d);
  const authenticate: Authenticate = (ctx) => {
    const st = ctx.state as { auth?: Promise<Principal> };
    st.auth ??= count
      ? verify(d, ctx, cookieName).then((p) => {
          const counted = count(ctx, p);
          return counted ? counted.then(() => p) : p;
        })
      : verify(d, ctx, cookieName);
    return st.auth;
  };
  if (d.db) app.use(idempotencyGuard(d, d.db, authenticate));
  // one router (a router is two middlewares, and a request passes every router before the one that matches it)
  const router = new Router<State>(ROUTER_OPTIONS);
  baseRoutes(router, d, cookieName);
  // plugin routes: a viewer credential may only read there too (as on /title)
  const pluginAuth: Authenticate = async (ctx) => {
    const p = await authenticate(ctx);
    if (p.role === 'viewer' && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new TitledError('FORBIDDEN', 'this credential has the viewer role: it may only read');
    }
    return p;
  };
  for (const add of d.extraRoutes) add(router as unknown as Router, { authenticate: pluginAuth, readJson: body });
  // after the plugins': where both have a route (POST /title/:id/sign), the plugin's answers
  titleRoutes(router, d, authenticate, body);
  for (const add of d.lateRoutes ?? []) add(router as unknown as Router);
  app.use(router.routes()).use(router.allowedMethods({ throw: false }));
  // Koa's listen makes a plain node server, whose answers to requests it cannot parse are bodiless 400/431s:
  // the daemon's server answers those with the error body too (a server of your own: call answerClientErrors)
  const listen = app.listen.bind(app);
  app.listen = ((...args: Parameters<typeof listen>) =>
    answerClientErrors(listen(...args), d.log)) as typeof app.listen;
  return app;
}

/** The request's credentials, verified (Authorization header, else the session cookie). */
function verify(d: HttpDeps, ctx: Context, cookieName: string): Promise<Principal> {
  return d.auth.authenticate(ctx.get('authorization') || undefined, ctx.cookies.get(cookieName) || undefined);
}

/** The rate limits' counter (core/http/rate-limit.ts); null when they are off. */
function requestCounter(d: HttpDeps): CountRequest | null {
  const dataSource = d.db?.dialect === 'postgres' ? d.db.dataSource : undefined;
  return rateLimit({
    config: d.config.rateLimit,
    log: (err) => d.log.warn({ err, code: 'RATE_LIMIT_STORE_FAILED' }, 'rate limiter store failed'),
    postgres:
      dataSource && rateLimitStore(d.config) === 'postgres'
        ? { dataSource, schema: d.config.databaseSchema }
        : undefined,
  });
}

/** `Idempotency-Key` on POSTs (core/http/idempotency.ts). */
function idempotencyGuard(d: HttpDeps, db: Database, authenticate: Authenticate) {
  return idempotency({
    keys: new IdempotencyKeys(db, d.pii, d.config.idempotency),
    authenticate,
    bodyLimit: d.config.bodyLimitBytes,
    maxResponseBytes: d.config.idempotency.maxResponseBytes,
    log: (err) => d.log.warn({ err, code: 'IDEMPOTENCY_PRUNE_FAILED' }, 'pruning idempotency keys failed'),
  });
}

/** A request id an `X-Request-Id` header may carry (else one is generated). */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Accepts the caller's `X-Request-Id` (up to 128 characters of a safe set) or
 * makes one, answers it in `X-Request-Id`, and runs the request inside
 * its async context (core/async-context.ts), so every log line written for it carries `reqId`.
 */
function requestId() {
  return (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('x-request-id');
    const reqId = given && REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.reqId = reqId;
    ctx.res.setHeader('X-Request-Id', reqId);
    return runInRequest(reqId, next);
  };
}

/** CORS for the configured origins (config `cors`; off when `origins` is empty, and @koa/cors is then not loaded). */
function corsMiddleware(c: TitledConfig['cors']) {
  const any = c.origins.includes('*');
  const koaCors = createRequire(import.meta.url)('@koa/cors') as typeof cors;
  return koaCors({
    origin: (ctx: Context) => {
      const o = ctx.get('origin');
      return any ? (c.credentials ? o : '*') : c.origins.includes(o) ? o : '';
    },
    credentials: c.credentials,
    maxAge: c.maxAgeSeconds,
    exposeHeaders: [
      'X-Request-Id',
      'Allow',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
      'Idempotent-Replayed',
    ],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
  });
}

/** Every error becomes the spec's error body; an unexpected one is logged (INTERNAL) and shown as "internal error". */
function errorMiddleware(log: Logger, metrics: Metrics) {
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      // PostgreSQL text cannot hold NUL: refused in the URL here, so both databases answer 400 (not one of them 500)
      if (ctx.url.includes('%00'))
        throw new TitledError('INVALID_INPUT', 'the URL must not contain NUL characters (%00)');
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new TitledError('NOT_FOUND', `no route ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405) {
          throw new TitledError(
            'METHOD_NOT_ALLOWED',
            `${ctx.method} is not allowed on ${ctx.path} (allowed: ${ctx.response.get('Allow')})`,
          );
        }
        if (ctx.status === 501) throw new TitledError('NOT_IMPLEMENTED', `method ${ctx.method} is not implemented`);
        // any other empty error (no handler set a body) would go out as Koa's plain-text status line
        if (ctx.status >= 400) ctx.body = errorBody(ctx.status, STATUS_CODES[ctx.status] ?? 'error');
      }
    } catch (e) {
      if (isTitledError(e)) {
        ctx.status = e.status;
        ctx.body = errorBody(e.status, e.expose ? e.message : 'internal error', e.disallowedFields);
      } else {
        const status = (e as { status?: number; expose?: boolean }).status;
        if (status && status >= 400 && status < 500) {
          ctx.status = status;
          ctx.body = errorBody(status, (e as Error).message);
        } else {
          ctx.status = 500;
          ctx.body = errorBody(500, 'internal error');
          log.error({ err: e, code: 'INTERNAL', method: ctx.method, path: ctx.path }, 'request failed');
        }
      }
    } finally {
      const ms = performance.now() - started;
      // by the router's pattern (/title/:id), never the raw path: one series per route, not per entry
      const route =
        (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? (ctx.status === 404 ? 'unmatched' : 'other');
      metrics.httpDuration.observe({ method: ctx.method, route: String(route), status: String(ctx.status) }, ms / 1000);
      if (log.isLevelEnabled('debug') || ctx.status >= 500) {
        log[ctx.status >= 500 ? 'warn' : 'debug'](
          { method: ctx.method, path: ctx.path, status: ctx.status, ms },
          'request',
        );
      }
    }
  };
}

// Paths are matched as the spec writes them (`/TITLE` is no route), so no request reaches a handler by a path the
// authentication below does not cover; and authentication is part of every /title route itself, not a router-level
// `use`, so a handler never runs without a principal however the path was matched.
const ROUTER_OPTIONS = { sensitive: true } as const;

/** Health, sessions and presigned files (the routes outside /title). */
function baseRoutes(router: Router<State>, d: HttpDeps, cookieName: string): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const r = await d.ready();
    ctx.status = r.ready ? 200 : 503;
    ctx.body = { status: r.ready ? 'ready' : 'not ready', checks: r.checks };
  });
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await d.metrics.scrape();
    ctx.type = contentType;
    ctx.body = body;
  });
  router.post('/auth/login', async (ctx) => {
    const header = ctx.get('authorization');
    if (!header || /^session\s/i.test(header))
      throw new TitledError('UNAUTHENTICATED', 'send an API key (Bearer or Basic) to log in');
    const principal = await d.auth.authenticate(header, undefined);
    const { token, expiresAt } = await d.auth.issueSession(principal);
    setSessionCookie(ctx, cookieName, token, expiresAt);
    ctx.body = { organization: principal.org.name, expiresAt: new Date(expiresAt).toISOString() };
  });
  router.post('/auth/logout', async (ctx) => {
    // the session ends on the server too: its cookie is refused from now on, even if a copy of it was kept
    const token = ctx.cookies.get(cookieName);
    if (token) await d.auth.endSession(token);
    clearSessionCookie(ctx, cookieName);
    ctx.body = { statusCode: 200, message: 'logged out' };
  });
  router.get('/files/*key', async (ctx) => {
    const raw = (ctx.params as Record<string, string | string[]>).key!;
    const key = Array.isArray(raw) ? raw.join('/') : raw;
    const store = d.objects;
    const expires = ctx.query.expires as string | undefined;
    const signature = ctx.query.signature as string | undefined;
    if (!(store instanceof SignedObjectStore) || !store.verify(key, expires, signature)) {
      throw new TitledError('FORBIDDEN', 'invalid or expired signature');
    }
    // a bucket's presigned GET, valid no longer than the daemon's link it replaces
    const target = await store.redirectUrl(key, Number(expires) - Math.floor(Date.now() / 1000));
    if (target) {
      ctx.set('Cache-Control', 'private, no-store');
      ctx.redirect(target);
      ctx.body = { statusCode: 302, location: target };
      d.objects.notifyRead(key);
      return;
    }
    // streamed in bounded chunks: a buffer per download of a large document kept the daemon's RSS up long after
    const file = await d.objects.openRead(key);
    if (!file) throw new TitledError('NOT_FOUND', 'no such object');
    ctx.type = contentTypeOf(key);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = file.size === 0 ? Buffer.alloc(0) : file.stream;
    ctx.length = file.size;
    if (file.size === 0) file.stream.destroy();
    d.objects.notifyRead(key);
  });
}

/** The title API: each route authenticates, parses and calls the title service. */
function titleRoutes(title: Router<State>, d: HttpDeps, authenticate: Authenticate, body: Body): void {
  const requireAuth = async (ctx: Koa.ParameterizedContext<State>, next: Next) => {
    ctx.state.principal = await authenticate(ctx);
    if (ctx.state.principal.role === 'viewer' && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new TitledError('FORBIDDEN', 'this credential has the viewer role: it may only read');
    }
    await next();
  };
  const s = d.service;
  title.post('/title', requireAuth, async (ctx) => {
    ctx.body = await s.create(ctx.state.principal, await body(ctx));
  });
  title.get('/title', requireAuth, async (ctx) => {
    ctx.body = await s.list(ctx.state.principal, ctx.query as Record<string, unknown>);
  });
  title.get('/title/:id', requireAuth, async (ctx) => {
    const json = await s.getJson(ctx.state.principal, ctx.params.id!);
    ctx.type = 'application/json';
    ctx.body = json;
  });
  title.patch('/title/:id', requireAuth, async (ctx) => {
    ctx.body = await s.patch(ctx.state.principal, ctx.params.id!, (await body(ctx)) ?? {});
  });
  title.delete('/title/:id', requireAuth, async (ctx) => {
    ctx.body = await s.delete(ctx.state.principal, ctx.params.id!);
  });
  title.post('/title/:id/data', requireAuth, async (ctx) => {
    ctx.body = await s.requestData(ctx.state.principal, ctx.params.id!, await body(ctx));
  });
  title.post('/title/:id/fees', requireAuth, async (ctx) => {
    ctx.body = await s.requestFees(ctx.state.principal, ctx.params.id!);
  });
  title.post('/title/:id/forms', requireAuth, async (ctx) => {
    ctx.body = await s.requestForms(ctx.state.principal, ctx.params.id!);
  });
  title.post('/title/:id/sign', requireAuth, async (ctx) => {
    ctx.body = await s.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'sign');
  });
  title.post('/title/:id/submit', requireAuth, async (ctx) => {
    ctx.body = await s.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'submit');
  });
  title.get('/title/:id/submit/:submissionId', requireAuth, async (ctx) => {
    ctx.body = await s.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'submit');
  });
}
