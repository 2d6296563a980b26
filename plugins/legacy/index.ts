/**
 * The legacy interface (spec: POST /poa, POST /generate_forms), served under
 * `/legacy` on the daemon (`{legacy_base_url}` = `{base_url}/legacy`) and,
 * with the `port` option, at the root of a port of its own. Both map onto
 * the title service: one entry per VIN per organization, the same
 * credentials, the same pipeline. Errors answer the legacy body
 * `{statusCode: string, message: string}`. docs/legacy.md.
 */
import { createServer, type Server } from 'node:http';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  checkVin,
  definePluginOptions,
  inject,
  injectable,
  isTitledError,
  personName,
  TitledError,
  TitleService,
  TOKENS,
  type EnginePlugin,
  type Logger,
  type Person,
  type Principal,
  type RouteHelpers,
  type SigningService,
  type TitleEntry,
  type TitledConfig,
} from '../../core/plugin-api.js';
import { loadStatePlugins } from '../../states/registry.js';
import type { StatePlugin } from '../../states/types.js';
import { generateFormsAccountData, parseOneLineAddress, poaAccountData } from './map.js';
import { checkPoaFields, describeFieldCheck } from './rules.js';
import { GenerateFormsBodySchema, PoaBodySchema, type PoaBody } from './schemas.js';

export const LegacyOptions = definePluginOptions('legacy', {
  /** Also serve the legacy interface at the root of this port (`/poa`, `/generate_forms`); absent: only under /legacy. */
  port: z.number().int().min(0).max(65535).optional(),
  /** The address the legacy port listens on (default: the daemon's `host`). */
  host: z.string().min(1).optional(),
  /** How long POST /poa waits for the entry's job (pulls, forms) before answering 503 (retrying is safe). */
  waitMs: z.number().int().min(100).max(600_000).default(60_000),
});
type Options = ReturnType<typeof LegacyOptions.parse>;

type Handler = (ctx: Context) => Promise<void>;

@injectable()
export class LegacyPlugin implements EnginePlugin {
  static readonly options = LegacyOptions.schema;
  readonly name = 'legacy';
  readonly after = ['forms'];
  private readonly options: Options;
  private readonly states: ReadonlyMap<string, StatePlugin>;
  private readonly log: Logger;
  private server?: Server;

  constructor(
    @inject(TOKENS.Config) private readonly config: TitledConfig,
    @inject(TOKENS.Logger) log: Logger,
    @inject(TOKENS.Container) private readonly container: DependencyContainer,
    private readonly titles: TitleService,
  ) {
    this.options = LegacyOptions.parse(config.plugins.legacy);
    this.states = loadStatePlugins(config.states);
    this.log = log.child({ plugin: 'legacy' });
  }

  routes(router: Router, helpers: RouteHelpers): void {
    const handlers: Record<string, Handler> = {
      '/poa': (ctx) => this.poa(ctx, helpers),
      '/generate_forms': (ctx) => this.generateForms(ctx, helpers),
    };
    for (const [path, h] of Object.entries(handlers)) router.post(`/legacy${path}`, legacyErrors(this.log, h));
    if (this.options.port !== undefined) this.listen(handlers);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The legacy port: the same handlers at the root, and the legacy error body for every other answer. */
  private listen(handlers: Record<string, Handler>): void {
    const app = new Koa();
    app.proxy = this.config.trustProxy;
    app.silent = true;
    const router = new Router({ sensitive: true });
    for (const [path, h] of Object.entries(handlers)) router.post(path, legacyErrors(this.log, h));
    app.use(router.routes()).use(router.allowedMethods({ throw: false }));
    app.use(async (ctx) => {
      if (ctx.status === 405) ctx.body = legacyBody(405, `${ctx.method} is not allowed on ${ctx.path}`);
      else {
        ctx.status = 404;
        ctx.body = legacyBody(404, `no route ${ctx.method} ${ctx.path}`);
      }
    });
    const host = this.options.host ?? this.config.host;
    this.server = createServer(app.callback());
    this.server.listen(this.options.port, host, () => {
      const addr = this.server?.address();
      this.log.info(
        { code: 'LEGACY_LISTENING', port: typeof addr === 'object' ? addr?.port : addr, host },
        'legacy interface listening',
      );
    });
  }

  // --- POST /generate_forms ---------------------------------------------------------------------------------

  private async generateForms(ctx: Context, helpers: RouteHelpers): Promise<void> {
    const p = await helpers.authenticate(ctx);
    const body = parseBody(GenerateFormsBodySchema, await helpers.readJson(ctx));
    const vin = mustVin(body.vehicle.vin, 'vehicle.vin');
    const account_data = generateFormsAccountData(body);
    account_data.vehicle = { ...account_data.vehicle, vin };
    const t = body.transaction;
    const created = await this.titles.create(p, {
      account_data,
      ...(t.pull_nmvtis ? { sync_nmvtis: true } : {}),
      ...(t.pull_state_data ? { sync_private: true } : {}),
    });
    const entry = await this.titles.get(p, created.entryId);
    ctx.status = 201;
    ctx.body = { entryId: entry.entryId, statusCode: 'pending' };
  }

  // --- POST /poa ---------------------------------------------------------------------------------------------

  private async poa(ctx: Context, helpers: RouteHelpers): Promise<void> {
    const p = await helpers.authenticate(ctx);
    const body = parseBody(PoaBodySchema, await helpers.readJson(ctx));
    const vin = mustVin(body.vin, 'vin');
    refuseFields(checkPoaFields(body, body.state ? this.states.get(body.state) : undefined), body.state);
    for (const k of ['owner_address', 'coowner_address'] as const) {
      if (body[k] && !parseOneLineAddress(body[k]!)) {
        throw new TitledError('INVALID_INPUT', `${k}: write the address as "street, city, ST 12345"`);
      }
    }
    const live = body.pull_live === true;
    const created = await this.titles.create(p, {
      account_data: poaAccountData(body, p.org.name, vin),
      ...(live ? { sync_nmvtis: true, sync_private: true } : {}),
    });
    const entry = await this.waitForJob(p, created.entryId);
    if (live) this.checkPulled(entry, body);
    const poas = Array.isArray(entry.forms_poa) ? entry.forms_poa.length : 0;
    if (!poas)
      throw new TitledError(
        'UNAVAILABLE',
        `no power of attorney was generated for entry ${entry.entryId} (forms_status ${String(entry.forms_status)})`,
      );
    const signature = await this.requestSignature(p, entry, body);
    this.log.info(
      { code: 'LEGACY_POA', entryId: entry.entryId, powersOfAttorney: poas, signatureRequest: signature?.id ?? null },
      'legacy power of attorney',
    );
    ctx.status = 201;
    ctx.set('Location', `/title/${entry.entryId}`);
    const sent = signature
      ? `; signature request ${String(signature.id)} sent to ${body.owner_email}${body.has_coowner ? ' and the co-owner' : ''}`
      : '; signing is not enabled on this daemon: the forms are on the entry';
    ctx.body = {
      statusCode: '201',
      message: `power of attorney created for VIN ${vin} (entry ${entry.entryId})${sent}`,
    };
  }

  /** Waits until the entry's job ends (pulls, forms): the entry when complete; 503 when it failed or takes too long. */
  private async waitForJob(p: Principal, id: string): Promise<TitleEntry> {
    const deadline = Date.now() + this.options.waitMs;
    for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
      const entry = await this.titles.get(p, id);
      if (entry.job_status === 'complete') return entry;
      if (entry.job_status === 'error') {
        throw new TitledError(
          'UNAVAILABLE',
          `the entry's job failed (${String(entry.job_error ?? entry.error ?? 'see GET /title/' + entry.entryId)}); retrying is safe`,
        );
      }
      if (Date.now() >= deadline) {
        throw new TitledError(
          'UNAVAILABLE',
          `entry ${entry.entryId} is still being processed (${entry.job_status}); retrying is safe: the entry is updated, not duplicated`,
        );
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /** With pull_live: the pulls must have found an owner; the state's rules apply to the state they found. */
  private checkPulled(entry: TitleEntry, body: PoaBody): void {
    const owners = entry.account_data.vehicle?.title?.owners ?? [];
    if (!owners.some((o) => personName(o))) {
      throw new TitledError(
        'PULL_FOUND_NOTHING',
        `pull_live: NMVTIS and the state's DMV records name no owner of VIN ${entry.VIN}; ` +
          'send state, owner_full_name and owner_address with pull_live false',
      );
    }
    const plate = !!entry.account_data.vehicle?.license_plate;
    refuseFields(checkPoaFields(body, this.states.get(entry.state), { done: true, plate }), entry.state);
  }

  /** Starts the signature request through the signing plugin, when it is enabled. */
  private async requestSignature(
    p: Principal,
    entry: TitleEntry,
    body: PoaBody,
  ): Promise<Record<string, unknown> | null> {
    if (!this.container.isRegistered(COLLABORATORS.signing, true)) return null;
    const signing = this.container.resolve<SigningService>(COLLABORATORS.signing);
    const owners = entry.account_data.vehicle?.title?.owners ?? [];
    const signers = owners.slice(0, body.has_coowner ? 2 : 1).map((o: Person, i) => ({
      name: personName(o),
      contact_email: i === 0 ? body.owner_email : (o.contact_email ?? body.owner_email),
      ...(i === 0 && body.owner_phone ? { contact_phone: body.owner_phone } : {}),
      ...(i === 1 && body.coowner_phone ? { contact_phone: body.coowner_phone } : {}),
    }));
    return signing.request(p, entry.entryId, { signers, ...(p.email ? { requester_email: p.email } : {}) }, 'ACTIVATE');
  }
}

/** The legacy error body. */
export function legacyBody(status: number, message: string) {
  return { statusCode: String(status), message };
}

/** Runs a legacy handler: every error answers the legacy body; an unexpected one is logged and shown as "internal error". */
function legacyErrors(log: Logger, h: Handler): Handler {
  return async (ctx) => {
    try {
      await h(ctx);
    } catch (e) {
      if (isTitledError(e)) {
        ctx.status = e.status;
        ctx.body = legacyBody(e.status, e.expose ? e.message : 'internal error');
        return;
      }
      log.error({ err: e, code: 'INTERNAL', path: ctx.path }, 'legacy request failed');
      ctx.status = 500;
      ctx.body = legacyBody(500, 'internal error');
    }
  };
}

function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new TitledError('INVALID_INPUT', 'the body must be a JSON object');
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const notAllowed: string[] = [];
  const problems: string[] = [];
  for (const i of r.error.issues) {
    const at = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') notAllowed.push(...i.keys.map((k) => (at ? `${at}.${k}` : k)));
    else if (i.code === 'invalid_type' && i.input === undefined) problems.push(`${at}: required`);
    else problems.push(`${at || 'body'}: ${i.message}`);
  }
  if (notAllowed.length) problems.push(`fields not allowed: ${notAllowed.join(', ')}`);
  throw new TitledError('INVALID_INPUT', problems.join('; '));
}

function mustVin(raw: string, field: string): string {
  const check = checkVin(raw);
  if (!check.valid) throw new TitledError('INVALID_VIN', `${field}: ${check.reason}`);
  return check.vin;
}

function refuseFields(c: ReturnType<typeof checkPoaFields>, state: string | undefined): void {
  const message = describeFieldCheck(c, state);
  if (message) throw new TitledError('INVALID_INPUT', message);
}
