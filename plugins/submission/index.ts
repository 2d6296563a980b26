/**
 * submission: files entries with the state (docs/submission.md). A
 * background plugin: `POST /title/{id}/submit` records a submission (MAIL: a
 * packet PDF; ONLINE_PORTAL: the portal worker files it in headless Chromium;
 * MANAGED: waits for an operator), `GET /title/{id}/submit/{submissionId}`
 * reads it, follow-up rounds and cancellation, the operator's /submissions
 * routes, and `titled submissions` on the CLI through the methods here.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  Database,
  EngineConfigError,
  Entries,
  ObjectStore,
  TitledError,
  TOKENS,
  UrlGuard,
  inject,
  injectable,
  type EnginePlugin,
  type Logger,
  type Principal,
  type RouteHelpers,
  type TitledConfig,
} from '../../core/plugin-api.js';
import type { ConsoleAction, TitleEntry } from '../../core/plugin-api.js';
import { submissionOpenApi } from './openapi.js';
import type { OpenApiContribution } from '../../core/plugin-api.js';
import { FakePortal } from './fake-portal/server.js';
import { Lifecycle } from './lifecycle.js';
import { parseSubmissionOptions, SubmissionOptionsSchema, type SubmissionOptions } from './options.js';
import { BrowserPool } from './portal/browser.js';
import type { PortalDriver } from './portal/driver.js';
import { DRIVERS } from './portal/fake-driver.js';
import { PortalWorker } from './portal/worker.js';
import { pluginSchema } from './schema.js';
import { Submissions, type RecordInput } from './service.js';
import { MailShipping, TRACKING_STATUSES, type TrackingStatus } from './shipping.js';

export { FakePortal } from './fake-portal/server.js';
export type { PortalDriver, FilingData, PortalReport } from './portal/driver.js';
export type { Submissions, RecordInput } from './service.js';
export type { MailShipping, TrackingStatus } from './shipping.js';

@injectable()
export class SubmissionPlugin implements EnginePlugin {
  static readonly options = SubmissionOptionsSchema;
  static readonly schema = pluginSchema;
  readonly name = 'submission';
  readonly options: SubmissionOptions;
  readonly service: Submissions;
  readonly browsers: BrowserPool;
  /** The fake state portal, when `fakePortal.start` runs it in this process. */
  fakePortal?: FakePortal;
  private readonly worker: PortalWorker;
  /** Outbound labels of MAIL packets and their tracking (`mailCarrier`); undefined when not configured. */
  readonly shipping?: MailShipping;
  private readonly owner: string;
  private shipTimer: NodeJS.Timeout | null = null;
  private shipPolling: Promise<unknown> | null = null;
  private readonly drivers = new Map<string, PortalDriver>();
  private readonly log: Logger;

  constructor(
    db: Database,
    private readonly entries: Entries,
    objects: ObjectStore,
    @inject(TOKENS.Container) container: DependencyContainer,
    @inject(TOKENS.Config) config: Readonly<TitledConfig>,
    @inject(TOKENS.Logger) log: Logger,
  ) {
    this.log = log.child({ plugin: 'submission' });
    this.options = parseSubmissionOptions(config.plugins.submission);
    for (const [state, p] of Object.entries(this.options.portals)) {
      if (!DRIVERS[p.driver])
        throw new EngineConfigError(
          `plugins.submission.portals.${state}.driver: no driver '${p.driver}' ` +
            `(known: ${Object.keys(DRIVERS).join(', ')})`,
        );
    }
    let guard: UrlGuard;
    try {
      guard = new UrlGuard(config.allowHosts);
    } catch (e) {
      throw new EngineConfigError((e as Error).message);
    }
    const life = new Lifecycle(db, entries, this.log);
    const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.owner = owner;
    const mc = this.options.mailCarrier;
    if (mc) {
      this.shipping = new MailShipping(db, objects, life, container, mc, this.options.leaseMs, this.log, owner);
      container.register(COLLABORATORS.carrierEvents, { useValue: this.shipping });
    }
    this.browsers = new BrowserPool(this.options.chromiumPath, this.options.actionTimeoutMs);
    this.service = new Submissions(
      db,
      entries,
      objects,
      container,
      life,
      guard,
      this.options,
      (st) => this.driver(st),
      config.presignTtlSeconds,
      this.log,
      this.shipping,
    );
    this.worker = new PortalWorker(db, life, this.options, this.browsers, this.service, this.log, owner);
    this.service.onWork(() => this.worker.wake());
    // a management command (titled submissions method ...) does not start the fake portal the daemon runs
    this.service.portalConfigured = (state) => !!this.driver(state) || this.options.fakePortal.start;
    container.registerInstance(COLLABORATORS.submission, this.service);
  }

  /** The portal driver for a filing state (its own, else `*`). */
  driver(state: string): PortalDriver | undefined {
    const key = this.options.portals[state.toUpperCase()] ? state.toUpperCase() : '*';
    let d = this.drivers.get(key);
    if (!d) {
      const c =
        this.options.portals[key] ??
        (key === '*' && this.fakePortal
          ? { driver: 'fake-portal', url: this.fakePortal.url, username: 'titled', password: 'titled' }
          : undefined);
      if (!c) return undefined;
      d = DRIVERS[c.driver]!(c);
      this.drivers.set(key, d);
    }
    return d;
  }

  async start(): Promise<void> {
    if (this.options.fakePortal.start && !this.fakePortal) {
      this.fakePortal = new FakePortal();
      const url = await this.fakePortal.start(this.options.fakePortal.port);
      this.log.info({ code: 'SUBMISSION_WORKER_STARTED', fakePortal: url }, 'fake state portal started');
    }
    this.startShipmentPoll();
    this.worker.start();
  }

  /** MAIL packet tracking: every `mailCarrier.pollIntervalMs`, due shipments are polled under a lease. */
  private startShipmentPoll(): void {
    const every = this.options.mailCarrier?.pollIntervalMs ?? 0;
    if (!this.shipping || every <= 0 || this.shipTimer) return;
    try {
      this.shipping.shipper(); // a mailCarrier without the title-collection plugin fails at start, not at a packet
    } catch (e) {
      throw new EngineConfigError((e as Error).message);
    }
    this.shipTimer = setInterval(() => {
      if (this.shipPolling) return;
      this.shipPolling = this.pollShipments()
        .catch((e: Error) => {
          this.log.warn(
            { code: 'SUBMISSION_SHIPMENT_POLL_FAILED', err: e.message },
            'MAIL packet tracking poll failed',
          );
        })
        .finally(() => {
          this.shipPolling = null;
        });
    }, every);
    this.shipTimer.unref();
  }

  /** One tracking round of MAIL packet shipments (tests, CLI `titled submissions poll-shipments`). */
  pollShipments(): Promise<{ polled: number; applied: number }> {
    if (!this.shipping)
      throw new TitledError('NOT_IMPLEMENTED', 'no carrier for MAIL packets: set plugins.submission.mailCarrier');
    return this.shipping.pollOnce(this.owner);
  }

  /** Plays a sandbox carrier event on a MAIL packet's shipment (`delivered` moves it to SUBMITTED). */
  async simulate(submissionId: string, event: string): Promise<Record<string, unknown>> {
    if (!this.shipping)
      throw new TitledError('NOT_IMPLEMENTED', 'no carrier for MAIL packets: set plugins.submission.mailCarrier');
    const r = await this.shipping.simulate(submissionId, event as TrackingStatus);
    return { ...r, submission: await this.service.view(await this.service.byId(submissionId)) };
  }

  async stop(): Promise<void> {
    if (this.shipTimer) clearInterval(this.shipTimer);
    this.shipTimer = null;
    await this.shipPolling;
    await this.worker.stop();
    await this.fakePortal?.stop();
    this.fakePortal = undefined;
  }

  /** Runs the worker once now (tests, CLI). */
  tick(): Promise<void> {
    return this.worker.tick();
  }

  /**
   * The portal driver's `review` as a dry run for an operator: fills the application in a browser context
   * of its own and reads the review page back, without submitting (an ONLINE_PORTAL submission not yet filed).
   */
  async review(submissionId: string): Promise<Record<string, unknown>> {
    const s = await this.service.byId(submissionId);
    if (s.method !== 'ONLINE_PORTAL')
      throw new TitledError('CONFLICT', `submission ${s.id} is not an ONLINE_PORTAL filing`);
    if (s.status !== 'AWAITING_READINESS' && s.status !== 'PENDING')
      throw new TitledError('CONFLICT', `submission ${s.id} is ${s.status}: already filed or final`);
    return { submissionId: s.id, status: s.status, review: await this.worker.dryRun(s) };
  }

  private operator(p: Principal): string {
    if (!this.options.operatorOrgs.includes(p.org.name))
      throw new TitledError('FORBIDDEN', "operator routes need an operator organization's credentials");
    return `${p.org.name}:${p.userId}`;
  }

  openapi(): OpenApiContribution {
    return submissionOpenApi();
  }

  /** The console's actions on an entry's submission: mark a managed one ready, record the state's answer, cancel. */
  consoleActions(): readonly ConsoleAction[] {
    const sid = (e: Readonly<TitleEntry>) => (typeof e.submission_id === 'string' ? e.submission_id : '');
    const mine = async (p: Principal, id: string) => {
      // the submission of an entry the operator may see
      const entry = await this.entries.load(p.org.id, id);
      if (!entry || !sid(entry.entry)) throw new TitledError('NOT_FOUND', `entry ${id} has no submission`);
      return sid(entry.entry);
    };
    const by = (p: Principal) => `console:${p.org.name}:${p.userId}`;
    return [
      {
        name: 'ready',
        label: 'Mark the managed submission ready',
        appliesTo: (e) => !!sid(e),
        fields: [{ name: 'method', label: 'Method', options: ['MAIL', 'ONLINE_PORTAL'] }],
        run: async (p, id, f) => {
          const r = await this.service.ready(await mine(p, id), by(p), f.method);
          return `submission ${String(r.submissionId)} is ${String(r.status)}`;
        },
      },
      {
        name: 'record',
        label: "Record the state's answer",
        appliesTo: (e) => !!sid(e),
        fields: [
          {
            name: 'status',
            label: 'Status',
            required: true,
            options: ['SUBMITTED', 'UNDER_REVIEW', 'ACTION_REQUIRED', 'ACCEPTED', 'REJECTED', 'LIEN_PERFECTED'],
          },
          { name: 'applicationNumber', label: 'Application number' },
          { name: 'feedbackMessage', label: "The state's message" },
        ],
        run: async (p, id, f) => {
          const r = await this.service.record(await mine(p, id), by(p), f as unknown as RecordInput);
          return `submission ${String(r.submissionId)} is ${String(r.status)}`;
        },
      },
      {
        name: 'cancel',
        label: 'Cancel the submission',
        appliesTo: (e) => !!sid(e),
        fields: [{ name: 'reason', label: 'Reason' }],
        run: async (p, id, f) => {
          const r = await this.service.cancelAsOperator(await mine(p, id), by(p), f.reason);
          return `submission ${String(r.submissionId)} is ${String(r.status)}`;
        },
      },
    ];
  }

  routes(router: Router, h: RouteHelpers): void {
    const s = this.service;
    const auth = (ctx: Context) => h.authenticate(ctx);
    router.post('/title/:id/submit', async (ctx) => {
      const p = await auth(ctx);
      ctx.body = await s.submit(p, ctx.params.id!, await h.readJson(ctx));
    });
    router.get('/title/:id/submit/:sid', async (ctx) => {
      ctx.body = await s.get(await auth(ctx), ctx.params.id!, ctx.params.sid!);
    });
    router.post('/title/:id/submit/:sid/documents', async (ctx) => {
      const p = await auth(ctx);
      ctx.body = await s.addDocuments(p, ctx.params.id!, ctx.params.sid!, await h.readJson(ctx));
    });
    router.post('/title/:id/submit/:sid/shipment/simulate', async (ctx) => {
      const p = await auth(ctx);
      const b = (await readOptionalJson(ctx, h)) as { event?: unknown };
      if (typeof b.event !== 'string' || !TRACKING_STATUSES.includes(b.event as TrackingStatus))
        throw new TitledError('INVALID_INPUT', `event must be one of ${TRACKING_STATUSES.join(', ')}`);
      await s.get(p, ctx.params.id!, ctx.params.sid!); // the caller's submission, else 404
      ctx.body = await this.simulate(ctx.params.sid!, b.event);
    });
    router.post('/title/:id/submit/:sid/cancel', async (ctx) => {
      const p = await auth(ctx);
      const b = (await readOptionalJson(ctx, h)) as { reason?: unknown };
      ctx.body = await s.cancel(
        p,
        ctx.params.id!,
        ctx.params.sid!,
        typeof b.reason === 'string' ? b.reason : undefined,
      );
    });
    this.operatorRoutes(router, h);
  }

  private operatorRoutes(router: Router, h: RouteHelpers): void {
    const s = this.service;
    const op = async (ctx: Context) => this.operator(await h.authenticate(ctx));
    const body = async (ctx: Context) => (await readOptionalJson(ctx, h)) as Record<string, unknown>;
    router.get('/submissions', async (ctx) => {
      await op(ctx);
      const q = ctx.query as Record<string, string | undefined>;
      if (q.attention !== undefined && q.attention !== 'true' && q.attention !== 'false')
        throw new TitledError('INVALID_INPUT', 'attention must be true or false');
      ctx.body = {
        submissions: await s.list({
          status: q.status,
          entryId: q.entryId,
          limit: q.limit ? Number(q.limit) : undefined,
          attention: q.attention === undefined ? undefined : q.attention === 'true',
        }),
      };
    });
    router.get('/submissions/:sid', async (ctx) => {
      await op(ctx);
      ctx.body = await s.view(await s.byId(ctx.params.sid!));
    });
    router.post('/submissions/:sid/method', async (ctx) => {
      const by = await op(ctx);
      ctx.body = await s.setMethod(ctx.params.sid!, String((await body(ctx)).method ?? ''), by);
    });
    router.post('/submissions/:sid/ready', async (ctx) => {
      const by = await op(ctx);
      const m = (await body(ctx)).method;
      ctx.body = await s.ready(ctx.params.sid!, by, typeof m === 'string' ? m : undefined);
    });
    router.post('/submissions/:sid/record', async (ctx) => {
      const by = await op(ctx);
      ctx.body = await s.record(ctx.params.sid!, by, (await body(ctx)) as unknown as RecordInput);
    });
    router.post('/submissions/:sid/follow-up', async (ctx) => {
      const by = await op(ctx);
      ctx.body = await s.requestFollowUp(ctx.params.sid!, by, String((await body(ctx)).feedbackMessage ?? ''));
    });
    router.post('/submissions/:sid/review', async (ctx) => {
      await op(ctx);
      ctx.body = await this.review(ctx.params.sid!);
    });
    router.post('/submissions/:sid/cancel', async (ctx) => {
      const by = await op(ctx);
      const r = (await body(ctx)).reason;
      ctx.body = await s.cancelAsOperator(ctx.params.sid!, by, typeof r === 'string' ? r : undefined);
    });
  }
}

/** A JSON body that may be absent. */
async function readOptionalJson(ctx: Context, h: RouteHelpers): Promise<unknown> {
  if (!ctx.request.length && !ctx.get('content-type')) return {};
  const b = await h.readJson(ctx);
  if (b === null || typeof b !== 'object' || Array.isArray(b))
    throw new TitledError('INVALID_INPUT', 'the body must be a JSON object');
  return b;
}
