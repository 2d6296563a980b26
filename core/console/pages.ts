/**
 * The operator console's pages (docs/console.md, docs/decisions.md): the
 * handlers of the routes core/console/routes.ts registers, loaded with the
 * first request to one of them. Signed in with the session cookie, no script
 * needed. Every action is a POST form with a CSRF token; roles (API key
 * `role`): viewer reads, operator acts, host acts in every organization.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Principal } from '../auth/authenticator.js';
import type { Organization } from '../auth/organizations.js';
import { TitledError, isTitledError } from '../errors.js';
import { mergeAccountData, type AccountSource } from '../model/account.js';
import type { TitleEntry } from '../model/entry.js';
import type { ConsoleAction, EnginePlugin } from '../pipeline/stage.js';
import { ACCOUNT_STATUSES, JOB_STATUSES } from '../status.js';
import { US_STATES as US_STATE_CODES } from '../model/schemas.js';
import type { EntryFilter } from '../store/entry-store.js';
import { checkVin } from '../vin.js';
import { packageRoot } from '../paths.js';
import { entryPage, type DeliveryView } from './entry-page.js';
import { field, html, isoTime, layout, raw, select, table, type Html } from './html.js';
import { consoleImportPage, fileFromMultipart, importUpload } from './import-page.js';
import { CONSOLE_ROUTES, type ConsoleDeps, type ConsoleHandler } from './routes.js';
import { clearSessionCookie, setSessionCookie } from '../http/session-cookie.js';

/** The webhook plugin's methods the console uses (found by name among the enabled plugins). */
interface WebhookOps {
  listProfiles(
    org: string,
  ): Promise<{ id: string; url: string; events: string[]; auth: { scheme: string }; createdAt: number }[]>;
  setProfile(
    org: string,
    input: {
      url: string;
      events: string[];
      auth:
        | { scheme: 'none' }
        | { scheme: 'basic'; username: string; password: string }
        | { scheme: 'bearer'; token?: string; partnerKey?: string };
    },
  ): Promise<{ profile: { id: string; signingSecret: string }; created: boolean }>;
  removeProfiles(org: string, which: { id?: string }): Promise<unknown[]>;
  deliveries(
    org: string,
    q: { entryId?: string; limit?: number; withAttempts?: boolean },
  ): Promise<(DeliveryView & { entryId: string })[]>;
  delivery(id: string): Promise<(DeliveryView & { orgId: string; entryId: string }) | null>;
  replay(id: string): Promise<{ id: string }>;
}

interface Viewer {
  /** The principal acting (for a host: in the organization chosen). */
  p: Principal;
  role: 'operator' | 'viewer' | 'host';
  canAct: boolean;
  csrf: string;
  /** Organizations a host may switch between. */
  orgs?: string[];
}

const ORG_COOKIE = 'titled_console_org';
const PAGE_SIZES = ['25', '50', '100'];
const FORM_LIMIT = '1mb';

const csrfOf = (cookie: string) => createHash('sha256').update(`csrf\n${cookie}`).digest('base64url').slice(0, 32);

/** Thrown to answer a redirect from inside a handler. */
class Redirect {
  constructor(readonly to: string) {}
}

/** Where the pages below register their handlers: routes.ts's CONSOLE_ROUTES, in order. */
interface PageRouter {
  get(path: string, handler: ConsoleHandler): void;
  post(path: string, handler: ConsoleHandler): void;
}

/** The console's handlers, one for each route of CONSOLE_ROUTES, in its order. */
export function consoleHandlers(d: ConsoleDeps): ConsoleHandler[] {
  const routes: [string, string][] = [];
  const handlers: ConsoleHandler[] = [];
  const add = (method: string) => (path: string, handler: ConsoleHandler) => {
    routes.push([method, path]);
    handlers.push(handler);
  };
  registerPages({ get: add('get'), post: add('post') }, d);
  if (JSON.stringify(routes) !== JSON.stringify(CONSOLE_ROUTES))
    throw new Error(
      `console: the pages' routes are not CONSOLE_ROUTES (core/console/routes.ts): ${JSON.stringify(routes)}`,
    );
  return handlers;
}

function registerPages(router: PageRouter, d: ConsoleDeps): void {
  const cookieName = d.config.auth.sessionCookieName;
  let css: string | undefined;

  const page = (fn: (ctx: Context) => Promise<void>) => async (ctx: Context) => {
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' http: https: data:; frame-src 'self' http: https:; " +
        "style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'self'",
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    try {
      await fn(ctx);
    } catch (e) {
      if (e instanceof Redirect) {
        ctx.status = 303;
        ctx.redirect(e.to);
        return;
      }
      if (!isTitledError(e)) throw e;
      ctx.status = e.status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = layout(
        { title: `${e.status} ${e.code}`, flash: { kind: 'error', text: e.message } },
        html`<p><a href="/console/entries">Back to the entries</a></p>`,
      );
    }
  };

  /** The signed-in viewer, or a redirect to the sign-in page. */
  const viewer = async (ctx: Context): Promise<Viewer> => {
    const cookie = ctx.cookies.get(cookieName);
    if (!cookie) throw new Redirect(`/console/login?next=${encodeURIComponent(ctx.originalUrl)}`);
    let p: Principal;
    try {
      p = await d.auth.authenticate(undefined, cookie);
    } catch {
      throw new Redirect(
        `/console/login?next=${encodeURIComponent(ctx.originalUrl)}&error=${encodeURIComponent('your session has ended; sign in again')}`,
      );
    }
    const role = p.role ?? 'operator';
    const v: Viewer = { p, role, canAct: role !== 'viewer', csrf: csrfOf(cookie) };
    if (role === 'host') {
      v.orgs = (await d.orgs.list()).map((o) => o.name);
      const chosen = ctx.cookies.get(ORG_COOKIE);
      const org = chosen && chosen !== p.org.name ? await d.orgs.byName(chosen) : null;
      if (org) v.p = { ...p, org, groups: null };
    }
    return v;
  };

  const send = (
    ctx: Context,
    v: Viewer | undefined,
    o: { title: string; nav?: 'entries' | 'webhooks' | 'settings' | 'import' },
    body: Html,
  ) => {
    const flash =
      typeof ctx.query.ok === 'string'
        ? { kind: 'ok' as const, text: ctx.query.ok }
        : typeof ctx.query.error === 'string'
          ? { kind: 'error' as const, text: ctx.query.error }
          : undefined;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = layout({ ...o, flash, who: v && { org: v.p.org.name, role: v.role, orgs: v.orgs, csrf: v.csrf } }, body);
  };

  /** A POST form's fields, after the CSRF check; viewers are refused unless `read` is set. */
  const form = async (ctx: Context, v: Viewer | null, o: { read?: boolean } = {}): Promise<URLSearchParams> => {
    const text = await getRawBody(ctx.req, { limit: FORM_LIMIT, encoding: 'utf8' });
    const fields = new URLSearchParams(text);
    if (v) {
      if (fields.get('_csrf') !== v.csrf)
        throw new TitledError('FORBIDDEN', 'the form is stale or came from another site; reload the page');
      if (!o.read && !v.canAct) throw new TitledError('FORBIDDEN', 'your role (viewer) may only read');
    }
    return fields;
  };
  const back = (path: string, kind: 'ok' | 'error', text: string) =>
    new Redirect(`${path}${path.includes('?') ? '&' : '?'}${kind}=${encodeURIComponent(text)}`);

  router.get('/console', (ctx) => ctx.redirect('/console/entries'));
  router.get('/console/assets/console.css', (ctx) => {
    css ??= readFileSync(join(packageRoot, 'core', 'console', 'console.css'), 'utf8');
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = css;
  });

  router.get(
    '/console/login',
    page(async (ctx) => {
      const next =
        typeof ctx.query.next === 'string' && ctx.query.next.startsWith('/console')
          ? ctx.query.next
          : '/console/entries';
      send(
        ctx,
        undefined,
        { title: 'Sign in' },
        html`<form method="post" action="/console/login" class="card narrow">
          <input type="hidden" name="next" value="${next}" />
          ${field('key', 'API key', '', { type: 'password', placeholder: 'tk_…' })}
          <p class="hint">
            An API key of your organization (<code>titled keys create --org NAME [--role viewer|operator|host]</code>).
            The console keeps a session cookie; the key is not stored.
          </p>
          <button type="submit">Sign in</button>
        </form>`,
      );
    }),
  );

  router.post(
    '/console/login',
    page(async (ctx) => {
      const fields = await form(ctx, null);
      const key = (fields.get('key') ?? '').trim();
      const next = (fields.get('next') ?? '').startsWith('/console') ? fields.get('next')! : '/console/entries';
      let p: Principal;
      try {
        p = await d.auth.authenticate(`Bearer ${key}`, undefined);
      } catch {
        throw new Redirect(
          `/console/login?error=${encodeURIComponent('that API key is not valid')}&next=${encodeURIComponent(next)}`,
        );
      }
      const { token, expiresAt } = await d.auth.issueSession(p);
      setSessionCookie(ctx, cookieName, token, expiresAt);
      ctx.cookies.set(ORG_COOKIE, '', { path: '/console', expires: new Date(0), overwrite: true });
      throw new Redirect(next);
    }),
  );

  router.post(
    '/console/logout',
    page(async (ctx) => {
      const v = await viewer(ctx);
      await form(ctx, v, { read: true });
      await d.auth.endSession(ctx.cookies.get(cookieName)!);
      clearSessionCookie(ctx, cookieName);
      throw back('/console/login', 'ok', 'signed out');
    }),
  );

  router.post(
    '/console/org',
    page(async (ctx) => {
      const v = await viewer(ctx);
      const fields = await form(ctx, v, { read: true });
      if (v.role !== 'host') throw new TitledError('FORBIDDEN', 'only a host operator may switch organizations');
      const org = await d.orgs.byName(fields.get('org') ?? '');
      if (!org) throw new TitledError('NOT_FOUND', `no organization '${fields.get('org') ?? ''}'`);
      ctx.cookies.set(ORG_COOKIE, org.name, {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.secure,
        path: '/console',
        overwrite: true,
      });
      throw back('/console/entries', 'ok', `now working in ${org.name}`);
    }),
  );

  router.get(
    '/console/entries',
    page(async (ctx) => {
      const v = await viewer(ctx);
      send(ctx, v, { title: 'Entries', nav: 'entries' }, await entriesList(d, v, ctx.query as Record<string, unknown>));
    }),
  );

  router.get(
    '/console/entries/:id',
    page(async (ctx) => {
      const v = await viewer(ctx);
      const entry = await d.service.get(v.p, ctx.params.id!);
      const stored = await d.store.load(v.p.org.id, entry.entryId);
      const sources = (stored?.entry.account_sources ?? []) as AccountSource[];
      const provenance = sources.length ? mergeAccountData(sources).provenance : {};
      const events = await d.db.query<{ name: string; payload: string; createdAt: unknown }>(
        'SELECT name, payload, "createdAt" FROM outbox WHERE "orgId" = ? AND "entryId" = ? ORDER BY id LIMIT 500',
        [v.p.org.id, entry.entryId],
      );
      const wh = webhookOps(d);
      const deliveries = wh
        ? await wh.deliveries(v.p.org.name, { entryId: entry.entryId, limit: 100, withAttempts: true })
        : null;
      send(
        ctx,
        v,
        { title: `Entry ${entry.VIN || entry.entryId}`, nav: 'entries' },
        entryPage({
          entry,
          sources,
          provenance,
          deliveries,
          canAct: v.canAct,
          pluginActions: pluginActions(d.plugins(), entry),
          csrf: v.csrf,
          timeline: events.map((r) => ({
            name: r.name,
            payload: JSON.parse(r.payload) as Record<string, unknown>,
            createdAt: Number(r.createdAt),
          })),
        }),
      );
    }),
  );

  /** An operator's action on an entry: runs `act`, then back to the entry page with its message (a 404 stays a 404 page). */
  const entryAction = (
    route: string,
    act: (v: Viewer, id: string, f: URLSearchParams, ctx: Context) => Promise<string>,
  ) =>
    router.post(
      `/console/entries/:id/${route}`,
      page(async (ctx) => {
        const v = await viewer(ctx);
        const fields = await form(ctx, v);
        const path = `/console/entries/${encodeURIComponent(ctx.params.id!)}`;
        let message: string;
        try {
          message = await act(v, ctx.params.id!, fields, ctx);
        } catch (e) {
          if (isTitledError(e) && e.status !== 404) throw back(path, 'error', e.message);
          throw e;
        }
        throw back(path, 'ok', message);
      }),
    );
  entryAction('account-status', async (v, id, f) => {
    const e = await d.service.setAccountStatus(v.p, id, f.get('status') ?? '', f.get('note') || undefined);
    return `account_status is now ${e.account_status}`;
  });
  entryAction('physical-status', async (v, id, f) => {
    const e = await d.service.setPhysicalTitleStatus(v.p, id, f.get('status') ?? '');
    return `physical_title_status is now ${String(e.physical_title_status)}`;
  });
  entryAction('forms', async (v, id) => {
    await d.service.requestForms(v.p, id);
    return 'forms regenerated';
  });
  // the plugins' own actions (signing, title collection, submissions): EnginePlugin.consoleActions
  router.post('/console/entries/:id/plugin/:plugin/:action', async (ctx, next) => {
    const plugin = ctx.params.plugin!;
    const action = d
      .plugins()
      .find((p) => p.name === plugin)
      ?.consoleActions?.()
      .find((a) => a.name === ctx.params.action);
    if (!action) throw new TitledError('NOT_FOUND', `no console action '${plugin}/${ctx.params.action}'`);
    ctx.state.consoleAction = action;
    await next();
  });
  entryAction('plugin/:plugin/:action', async (v, id, f, ctx) => {
    const action = (ctx.state as { consoleAction: ConsoleAction }).consoleAction;
    const fields: Record<string, string> = {};
    for (const def of action.fields ?? []) {
      const value = (f.get(def.name) ?? '').trim();
      if (def.required && !value) throw new TitledError('INVALID_INPUT', `${def.label} is required`);
      if (value && def.options && !def.options.includes(value))
        throw new TitledError('INVALID_INPUT', `${def.label}: not one of ${def.options.join(', ')}`);
      if (value) fields[def.name] = value;
    }
    return action.run(v.p, id, fields);
  });

  router.post(
    '/console/deliveries/:id/replay',
    page(async (ctx) => {
      const v = await viewer(ctx);
      const fields = await form(ctx, v);
      const wh = requireWebhooks(d);
      const original = await wh.delivery(ctx.params.id!);
      if (!original || original.orgId !== v.p.org.id)
        throw new TitledError('NOT_FOUND', `no webhook delivery '${ctx.params.id}'`);
      const path = `/console/entries/${encodeURIComponent(fields.get('entry') || original.entryId)}#deliveries`;
      try {
        const r = await wh.replay(original.id);
        throw back(path.replace('#deliveries', ''), 'ok', `replay queued as delivery ${r.id}`);
      } catch (e) {
        if (isTitledError(e)) throw back(path.replace('#deliveries', ''), 'error', e.message);
        throw e;
      }
    }),
  );

  webhookPages(router, d, { page, viewer, send, form, back });
  settingsPages(router, d, { page, viewer, send, form, back });
  router.get(
    '/console/import',
    page(async (ctx) => {
      const v = await viewer(ctx);
      send(ctx, v, { title: 'Import accounts', nav: 'import' }, consoleImportPage(v.canAct, v.csrf));
    }),
  );
  router.post(
    '/console/import',
    page(async (ctx) => {
      const v = await viewer(ctx);
      if (ctx.query._csrf !== v.csrf)
        throw new TitledError('FORBIDDEN', 'the form is stale or came from another site; reload the page');
      if (!v.canAct) throw new TitledError('FORBIDDEN', 'your role (viewer) may only read');
      const body = await getRawBody(ctx.req, { limit: d.config.bodyLimitBytes });
      const result = await importUpload(d.importer, v.p, fileFromMultipart(body, ctx.get('content-type')));
      send(ctx, v, { title: 'Import accounts', nav: 'import' }, consoleImportPage(v.canAct, v.csrf, result));
    }),
  );
}

interface PageKit {
  page: (fn: (ctx: Context) => Promise<void>) => (ctx: Context) => Promise<void>;
  viewer: (ctx: Context) => Promise<Viewer>;
  send: (
    ctx: Context,
    v: Viewer,
    o: { title: string; nav?: 'entries' | 'webhooks' | 'settings' | 'import' },
    body: Html,
  ) => void;
  form: (ctx: Context, v: Viewer, o?: { read?: boolean }) => Promise<URLSearchParams>;
  back: (path: string, kind: 'ok' | 'error', text: string) => Redirect;
}

function webhookOps(d: ConsoleDeps): WebhookOps | null {
  return (d.plugins().find((p) => p.name === 'webhook') as unknown as WebhookOps | undefined) ?? null;
}
function requireWebhooks(d: ConsoleDeps): WebhookOps {
  const wh = webhookOps(d);
  if (!wh) throw new TitledError('NOT_IMPLEMENTED', 'the webhook plugin is not enabled');
  return wh;
}

/** The entries list: filters, search, a page of rows and the link to the next page. */
async function entriesList(d: ConsoleDeps, v: Viewer, q: Record<string, unknown>): Promise<Html> {
  const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string).trim() : '');
  const search = str('q');
  const limit = PAGE_SIZES.includes(str('limit')) ? Number(str('limit')) : 50;
  const filter: EntryFilter = { visibleGroups: v.p.groups };
  const state = str('state').toUpperCase();
  if (state) filter.state = state;
  if ((JOB_STATUSES as readonly string[]).includes(str('job_status'))) filter.job_status = str('job_status');
  if ((ACCOUNT_STATUSES as readonly string[]).includes(str('account_status')))
    filter.account_status = str('account_status');
  if (str('groupId')) filter.groupId = str('groupId');
  const vin = search && checkVin(search).valid ? checkVin(search).vin : undefined;
  if (vin) filter.vin = vin;
  else if (search) filter.text = search;
  const after = decodeCursor(str('after'));
  const page = await d.store.list(v.p.org.id, filter, limit, after);
  // the text search matched the stored document: keep the entries it matched in a searched field
  const rows = filter.text ? page.entries.filter((e) => searchedText(e).includes(search.toLowerCase())) : page.entries;
  const keep = new URLSearchParams(
    Object.entries({
      q: search,
      state,
      job_status: str('job_status'),
      account_status: str('account_status'),
      groupId: str('groupId'),
      limit: String(limit),
    }).filter(([, x]) => x),
  );
  const nextHref = page.next
    ? `/console/entries?${new URLSearchParams([...keep, ['after', encodeCursor(page.next)]])}`
    : '';
  return html`<form method="get" action="/console/entries" class="filters" role="search" aria-label="Filter entries">
      ${field('q', 'Search (VIN, borrower, loan id)', search)} ${select('state', 'State', US_STATE_CODES, state, 'any')}
      ${select('job_status', 'Job status', JOB_STATUSES, str('job_status'), 'any')}
      ${select('account_status', 'Account status', ACCOUNT_STATUSES, str('account_status'), 'any')}
      ${field('groupId', 'Group', str('groupId'))} ${select('limit', 'Per page', PAGE_SIZES, String(limit))}
      <button type="submit">Apply</button> <a href="/console/entries">Clear</a>
    </form>
    ${table(
      ['VIN', 'Borrower', 'State', 'Job status', 'Account status', 'Group', 'Created'],
      rows.map((e) => [
        html`<a href="/console/entries/${e.entryId}">${e.VIN || e.entryId}</a>`,
        e.Borrower,
        e.state,
        html`<span class="badge">${e.job_status}</span>`,
        e.account_status,
        e.groupId ?? '',
        isoTime(e.createdAt),
      ]),
      {
        indent: 4,
        className: 'grid entries',
        caption: `${rows.length} entries on this page${after ? '' : ' (newest first)'}`,
      },
    )}
    <nav class="pager" aria-label="Pages">
      ${after ? html`<a href="/console/entries?${keep.toString()}">First page</a>` : ''}
      ${nextHref ? html`<a href="${nextHref}" rel="next">Next page</a>` : html`<span class="muted">Last page</span>`}
    </nav>`;
}

/** The fields the console's text search looks in. */
function searchedText(e: TitleEntry): string {
  const borrowers = (e.account_data?.loan?.borrower ?? []).map((b) =>
    [b?.name, b?.name_first, b?.name_last].filter(Boolean).join(' '),
  );
  return [e.VIN, e.Borrower, e.lenderLoanId, e.account_data?.loan?.loan_id, ...borrowers]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

const encodeCursor = (c: { createdAt: number; id: string }) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(s: string): { createdAt: number; id: string } | undefined {
  if (!s) return undefined;
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { createdAt: unknown; id: unknown };
    if (typeof c.createdAt === 'number' && typeof c.id === 'string') return { createdAt: c.createdAt, id: c.id };
  } catch {
    /* a bad cursor is the first page */
  }
  return undefined;
}

/** Webhook profiles: list, create or update, remove; recent deliveries. */
function webhookPages(router: PageRouter, d: ConsoleDeps, k: PageKit): void {
  router.get(
    '/console/webhooks',
    k.page(async (ctx) => {
      const v = await k.viewer(ctx);
      const wh = requireWebhooks(d);
      const profiles = await wh.listProfiles(v.p.org.name);
      const recent = await wh.deliveries(v.p.org.name, { limit: 25 });
      const secret = typeof ctx.query.secret === 'string' ? ctx.query.secret : '';
      k.send(
        ctx,
        v,
        { title: 'Webhooks', nav: 'webhooks' },
        html` ${secret ? html`<p class="flash ok" role="status">Signing secret (shown once; verify <code>webhook-signature</code> with it): <code>${secret}</code></p>` : ''}
          <h2>Profiles</h2>
          ${
            profiles.length
              ? html`<table class="grid">
                  <thead>
                    <tr>
                      <th scope="col">URL</th>
                      <th scope="col">Events</th>
                      <th scope="col">Auth</th>
                      <th scope="col">Created</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${profiles.map(
                      (p) =>
                        html`<tr>
                          <td>${p.url}</td>
                          <td>${p.events.join(', ')}</td>
                          <td>${p.auth.scheme}</td>
                          <td>${isoTime(p.createdAt)}</td>
                          <td>
                            ${
                              v.canAct
                                ? html`<form method="post" action="/console/webhooks/remove">
                                    <input type="hidden" name="_csrf" value="${v.csrf}" /><input
                                      type="hidden"
                                      name="id"
                                      value="${p.id}"
                                    />
                                    <button type="submit" aria-label="Remove profile ${p.url}">Remove</button>
                                  </form>`
                                : ''
                            }
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
              : html`<p class="muted">No webhook profiles.</p>`
          }
          ${
            v.canAct
              ? html`<h2>Add or update a profile</h2>
                  <form method="post" action="/console/webhooks" class="card">
                    <input type="hidden" name="_csrf" value="${v.csrf}" />
                    ${field('url', 'Endpoint URL', '', { type: 'url', placeholder: 'https://example.com/hooks/titled' })}
                    ${field('events', 'Events (comma-separated)', 'title.job_status.complete,title.account_status.*')}
                    ${select('auth', 'Authentication', ['none', 'basic', 'bearer'], 'none')}
                    ${field('username', 'Basic user name', '')}${field('password', 'Basic password', '', { type: 'password' })}
                    ${field('token', 'Bearer token', '', { type: 'password' })}
                    <button type="submit">Save profile</button>
                  </form>`
              : ''
          }
          <h2>Recent deliveries</h2>
          ${
            recent.length
              ? table(
                  ['Delivery', 'Entry', 'Events', 'Status', 'Attempts', 'Created'],
                  recent.map((x) => [
                    html`<code>${x.id}</code>`,
                    html`<a href="/console/entries/${x.entryId}#deliveries">${x.entryId}</a>`,
                    x.events.join(', '),
                    x.status,
                    x.attempts,
                    isoTime(x.createdAt),
                  ]),
                  { indent: 16 },
                )
              : html`<p class="muted">No deliveries yet.</p>`
          }`,
      );
    }),
  );

  router.post(
    '/console/webhooks',
    k.page(async (ctx) => {
      const v = await k.viewer(ctx);
      const f = await k.form(ctx, v);
      const scheme = f.get('auth') ?? 'none';
      const auth =
        scheme === 'basic'
          ? ({ scheme, username: f.get('username') ?? '', password: f.get('password') ?? '' } as const)
          : scheme === 'bearer'
            ? ({ scheme, token: f.get('token') || undefined } as const)
            : ({ scheme: 'none' } as const);
      try {
        const events = (f.get('events') ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const r = await requireWebhooks(d).setProfile(v.p.org.name, { url: (f.get('url') ?? '').trim(), events, auth });
        throw new Redirect(
          `/console/webhooks?ok=${encodeURIComponent(r.created ? 'profile created' : 'profile updated')}` +
            `&secret=${encodeURIComponent(r.profile.signingSecret)}`,
        );
      } catch (e) {
        if (isTitledError(e)) throw k.back('/console/webhooks', 'error', e.message);
        throw e;
      }
    }),
  );

  router.post(
    '/console/webhooks/remove',
    k.page(async (ctx) => {
      const v = await k.viewer(ctx);
      const f = await k.form(ctx, v);
      const gone = await requireWebhooks(d).removeProfiles(v.p.org.name, { id: f.get('id') ?? '' });
      throw k.back(
        '/console/webhooks',
        gone.length ? 'ok' : 'error',
        gone.length ? 'profile removed' : 'no such profile',
      );
    }),
  );
}

/** Organization settings (JSON) and the organization's keys with their roles. */
function settingsPages(router: PageRouter, d: ConsoleDeps, k: PageKit): void {
  router.get(
    '/console/settings',
    k.page(async (ctx) => {
      const v = await k.viewer(ctx);
      const org = (await d.orgs.byId(v.p.org.id)) as Organization;
      const keys = await d.keys.list(org.id);
      k.send(
        ctx,
        v,
        { title: `Organization ${org.name}`, nav: 'settings' },
        html` <form method="post" action="/console/settings" class="card">
            <input type="hidden" name="_csrf" value="${v.csrf}" />
            <div class="field">
              <label for="settings">Settings (JSON object; members are merged, <code>null</code> removes one)</label>
              <textarea id="settings" name="settings" rows="10" ${v.canAct ? '' : raw('readonly')}>
${JSON.stringify(org.settings, null, 2)}</textarea>
            </div>
            ${v.canAct ? html`<button type="submit">Save settings</button>` : html`<p class="muted">Your role may only read.</p>`}
          </form>
          <h2>API keys and roles</h2>
          ${table(
            ['Key id', 'Role', 'Groups', 'Label', 'Status'],
            keys.map((x) => [
              html`<code>${x.id}</code>`,
              x.role,
              x.groups?.join(', ') ?? 'all',
              x.label ?? '',
              x.revokedAt ? 'revoked' : 'active',
            ]),
            { indent: 10 },
          )}
          <p class="hint">
            Keys are made with <code>titled keys create --org ${org.name} --role viewer|operator|host</code>.
          </p>`,
      );
    }),
  );

  router.post(
    '/console/settings',
    k.page(async (ctx) => {
      const v = await k.viewer(ctx);
      const f = await k.form(ctx, v);
      let patch: unknown;
      try {
        patch = JSON.parse(f.get('settings') ?? '');
      } catch {
        throw k.back('/console/settings', 'error', 'settings must be valid JSON');
      }
      if (!patch || typeof patch !== 'object' || Array.isArray(patch))
        throw k.back('/console/settings', 'error', 'settings must be a JSON object');
      await d.orgs.updateSettings(v.p.org.name, patch as Record<string, unknown>);
      throw k.back('/console/settings', 'ok', 'settings saved');
    }),
  );
}

/** The actions the enabled plugins offer for this entry now. */
function pluginActions(
  plugins: readonly EnginePlugin[],
  entry: TitleEntry,
): { plugin: string; action: ConsoleAction }[] {
  const out: { plugin: string; action: ConsoleAction }[] = [];
  for (const p of plugins)
    for (const action of p.consoleActions?.() ?? []) if (action.appliesTo(entry)) out.push({ plugin: p.name, action });
  return out;
}
