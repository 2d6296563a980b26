/**
 * The operator console at /console (docs/console.md, docs/decisions.md): its
 * routes, and their place in the OpenAPI document. The pages themselves
 * (core/console/pages.ts, with the HTML of entry-page.ts, html.ts and
 * import-page.ts) are loaded with the first request to one of these routes:
 * a daemon whose console nobody opens does not keep them (docs/operations.md,
 * "Memory"). The routes are registered here all the same, so the router
 * answers 404 and 405 on /console as it does everywhere, and
 * test/openapi/openapi.test.ts sees them.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Authenticator } from '../auth/authenticator.js';
import type { Organizations } from '../auth/organizations.js';
import type { ApiKeys } from '../auth/api-keys.js';
import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { EnginePlugin } from '../pipeline/stage.js';
import type { OpenApiContribution } from '../http/openapi.js';
import type { TitleService } from '../service/title-service.js';
import type { EntryStore } from '../store/entry-store.js';
import type { ImportRunner } from './import-page.js';

export interface ConsoleDeps {
  config: Readonly<TitledConfig>;
  auth: Authenticator;
  orgs: Organizations;
  keys: ApiKeys;
  service: TitleService;
  store: EntryStore;
  db: Database;
  log: Logger;
  plugins: () => readonly EnginePlugin[];
  importer: ImportRunner;
}

export type ConsoleHandler = (ctx: Context, next: Next) => unknown;

/**
 * Every console route, in the order pages.ts registers its handlers (which checks it). A path twice: two
 * middlewares in turn (the plugin action is looked up, then run as the other entry actions are).
 */
export const CONSOLE_ROUTES: readonly (readonly ['get' | 'post', string])[] = [
  ['get', '/console'],
  ['get', '/console/assets/console.css'],
  ['get', '/console/login'],
  ['post', '/console/login'],
  ['post', '/console/logout'],
  ['post', '/console/org'],
  ['get', '/console/entries'],
  ['get', '/console/entries/:id'],
  ['post', '/console/entries/:id/account-status'],
  ['post', '/console/entries/:id/physical-status'],
  ['post', '/console/entries/:id/forms'],
  ['post', '/console/entries/:id/plugin/:plugin/:action'],
  ['post', '/console/entries/:id/plugin/:plugin/:action'],
  ['post', '/console/deliveries/:id/replay'],
  ['get', '/console/webhooks'],
  ['post', '/console/webhooks'],
  ['post', '/console/webhooks/remove'],
  ['get', '/console/settings'],
  ['post', '/console/settings'],
  ['get', '/console/import'],
  ['post', '/console/import'],
];

/** Registers the console's routes; the first request to one of them loads the pages (once). */
export function consoleRoutes(router: Router, d: ConsoleDeps): void {
  let handlers: Promise<ConsoleHandler[]> | undefined;
  CONSOLE_ROUTES.forEach(([method, path], i) => {
    router[method](path, async (ctx, next) => {
      handlers ??= import('./pages.js').then((m) => m.consoleHandlers(d));
      return (await handlers)[i]!(ctx, next);
    });
  });
}

/** The console's routes in the OpenAPI document (HTML pages and form posts, signed in with the session cookie). */
export function consoleOpenApi(): OpenApiContribution {
  const tags = ['console'];
  const security = [{ cookieAuth: [] }];
  const page = (summary: string) => ({
    get: { summary, tags, security, responses: { '200': { description: 'HTML page', content: { 'text/html': {} } } } },
  });
  const post = (summary: string, contentType = 'application/x-www-form-urlencoded') => ({
    post: {
      summary,
      tags,
      security,
      requestBody: { content: { [contentType]: { schema: { type: 'object' } } } },
      responses: {
        '303': { description: 'redirect to the page, with a message' },
        '403': { $ref: '#/components/responses/Error403' },
      },
    },
  });
  const id = (name: string) => ({ parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }] });
  return {
    paths: {
      '/console': {
        get: {
          summary: 'Redirect to the entries list',
          tags,
          security: [],
          responses: { '302': { description: 'redirect' } },
        },
      },
      '/console/assets/console.css': {
        get: { summary: 'Console stylesheet', tags, security: [], responses: { '200': { description: 'CSS' } } },
      },
      '/console/login': { ...page('Sign-in page'), ...post('Sign in with an API key (sets the session cookie)') },
      '/console/logout': post('Sign out (ends the session)'),
      '/console/org': post('Host operators: switch organization'),
      '/console/entries': page('Entries list with filters, search and paging'),
      '/console/entries/{id}': { ...id('id'), ...page('Entry detail') },
      '/console/entries/{id}/account-status': {
        ...id('id'),
        ...post('Change account_status through its state machine'),
      },
      '/console/entries/{id}/forms': { ...id('id'), ...post('Regenerate forms') },
      '/console/entries/{id}/plugin/{plugin}/{action}': {
        parameters: [...id('id').parameters, ...id('plugin').parameters, ...id('action').parameters],
        ...post(
          "A plugin's operator action on the entry (EnginePlugin.consoleActions: remind signers, log a received title, ...)",
        ),
      },
      '/console/entries/{id}/physical-status': {
        ...id('id'),
        ...post('Change physical_title_status (log a received title)'),
      },
      '/console/deliveries/{id}/replay': { ...id('id'), ...post('Replay a webhook delivery') },
      '/console/webhooks': {
        ...page('Webhook profiles and recent deliveries'),
        ...post('Create or update a webhook profile'),
      },
      '/console/webhooks/remove': post('Remove a webhook profile'),
      '/console/settings': { ...page('Organization settings and keys'), ...post('Save organization settings') },
      '/console/import': { ...page('CSV import page'), ...post('Import a CSV of accounts', 'multipart/form-data') },
    },
  };
}
