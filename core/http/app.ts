import Koa, { type Context, type Next } from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import type { TitledConfig } from '../config.js';
import { TitledError, isTitledError } from '../errors.js';
import type { TitleService } from '../service/title-service.js';
import { contentTypeOf, type LocalObjectStore, type ObjectStore } from '../storage/object-store.js';
import { readJson } from './body.js';

export interface HttpDeps {
  config: Readonly<TitledConfig>;
  log: Logger;
  service: TitleService;
  auth: Authenticator;
  objects: ObjectStore;
  /** Readiness: database reachable and workers running. */
  ready: () => Promise<{ ready: boolean; checks: Record<string, boolean> }>;
  /** Hooks plugins use to add routes before the app is built. */
  extraRoutes: ((router: Router, deps: { authenticate: (ctx: Context) => Promise<Principal>; readJson: (ctx: Context) => Promise<unknown> }) => void)[];
}

type State = { principal: Principal };

/** The spec's error body. */
function errorBody(status: number, message: string, disallowedFields?: string[]) {
  return disallowedFields ? { error: message, statusCode: status, disallowedFields } : { error: message, statusCode: status };
}

/**
 * The Koa app: thin routes that parse input, call the title service, and map
 * core errors to the spec's error body in one middleware.
 */
export function createApp(d: HttpDeps): Koa {
  const app = new Koa();
  app.proxy = d.config.trustProxy;
  const limit = d.config.bodyLimitBytes;
  const cookieName = d.config.auth.sessionCookieName;
  const body = (ctx: Context) => readJson(ctx, limit);

  app.use(async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new TitledError('NOT_FOUND', `no route ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405) throw new TitledError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path} (allowed: ${ctx.response.get('Allow')})`);
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
          d.log.error({ err: e, code: 'INTERNAL', method: ctx.method, path: ctx.path }, 'request failed');
        }
      }
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (d.log.isLevelEnabled('debug') || ctx.status >= 500) d.log[ctx.status >= 500 ? 'warn' : 'debug']({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  });

  // PostgreSQL text cannot hold NUL: refuse it in the URL here, so both databases answer 400 rather than one failing with 500.
  app.use(async (ctx: Context, next: Next) => {
    if (/%00/i.test(ctx.url)) throw new TitledError('INVALID_INPUT', 'the URL must not contain NUL characters (%00)');
    await next();
  });

  const authenticate = async (ctx: Context): Promise<Principal> => d.auth.authenticate(ctx.get('authorization') || undefined, ctx.cookies.get(cookieName) || undefined);
  const requireAuth = async (ctx: Koa.ParameterizedContext<State>, next: Next) => {
    ctx.state.principal = await authenticate(ctx);
    await next();
  };

  const router = new Router<State>();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const r = await d.ready();
    ctx.status = r.ready ? 200 : 503;
    ctx.body = { status: r.ready ? 'ready' : 'not ready', checks: r.checks };
  });

  router.post('/auth/login', async (ctx) => {
    const header = ctx.get('authorization');
    if (!header || /^session\s/i.test(header)) throw new TitledError('UNAUTHENTICATED', 'send an API key (Bearer or Basic) to log in');
    const principal = await d.auth.authenticate(header, undefined);
    const { token, expiresAt } = await d.auth.issueSession(principal);
    ctx.cookies.set(cookieName, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/', expires: new Date(expiresAt), overwrite: true });
    ctx.body = { organization: principal.org.name, expiresAt: new Date(expiresAt).toISOString() };
  });
  router.post('/auth/logout', (ctx) => {
    ctx.cookies.set(cookieName, '', { httpOnly: true, sameSite: 'lax', path: '/', expires: new Date(0), overwrite: true });
    ctx.body = { statusCode: 200, message: 'logged out' };
  });

  router.get('/files/*key', async (ctx) => {
    const raw = (ctx.params as Record<string, string | string[]>).key!;
    const key = Array.isArray(raw) ? raw.join('/') : raw;
    const store = d.objects as LocalObjectStore;
    if (typeof store.verify !== 'function' || !store.verify(key, ctx.query.expires as string | undefined, ctx.query.signature as string | undefined)) {
      throw new TitledError('FORBIDDEN', 'invalid or expired signature');
    }
    const data = await d.objects.get(key);
    if (!data) throw new TitledError('NOT_FOUND', 'no such object');
    ctx.type = contentTypeOf(key);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = data;
    d.objects.notifyRead(key);
  });

  const title = new Router<State>({ prefix: '/title' });
  title.use(requireAuth);
  title.post('/', async (ctx) => {
    ctx.body = await d.service.create(ctx.state.principal, await body(ctx));
  });
  title.get('/', async (ctx) => {
    ctx.body = await d.service.list(ctx.state.principal, ctx.query as Record<string, unknown>);
  });
  title.get('/:id', async (ctx) => {
    const json = await d.service.getJson(ctx.state.principal, ctx.params.id!);
    ctx.type = 'application/json';
    ctx.body = json;
  });
  title.patch('/:id', async (ctx) => {
    ctx.body = await d.service.patch(ctx.state.principal, ctx.params.id!, (await body(ctx)) ?? {});
  });
  title.delete('/:id', async (ctx) => {
    ctx.body = await d.service.delete(ctx.state.principal, ctx.params.id!);
  });
  title.post('/:id/data', async (ctx) => {
    ctx.body = await d.service.requestData(ctx.state.principal, ctx.params.id!, await body(ctx));
  });
  title.post('/:id/fees', async (ctx) => {
    ctx.body = await d.service.requestFees(ctx.state.principal, ctx.params.id!);
  });
  title.post('/:id/forms', async (ctx) => {
    ctx.body = await d.service.requestForms(ctx.state.principal, ctx.params.id!);
  });
  title.post('/:id/sign', async (ctx) => {
    ctx.body = await d.service.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'sign');
  });
  title.post('/:id/submit', async (ctx) => {
    ctx.body = await d.service.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'submit');
  });
  title.get('/:id/submit/:submissionId', async (ctx) => {
    ctx.body = await d.service.requestUnbuilt(ctx.state.principal, ctx.params.id!, 'submit');
  });

  for (const add of d.extraRoutes) add(router as unknown as Router, { authenticate, readJson: body });
  app.use(router.routes()).use(router.allowedMethods({ throw: false }));
  app.use(title.routes()).use(title.allowedMethods({ throw: false }));
  return app;
}
