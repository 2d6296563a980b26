/**
 * signing: signature requests for an entry's forms (docs/signing.md).
 *
 * A background plugin: `routes()` serves POST /title/{id}/sign (before core's
 * 501 answer), the operators' routes and the signers' page (/sign/<token>);
 * `start()` runs the reminder and expiry loop. The service is offered to
 * other plugins under COLLABORATORS.signing.
 */
import 'reflect-metadata';
import type { Context } from 'koa';
import type Router from '@koa/router';
import type { DependencyContainer } from 'tsyringe';
import { inject, injectable } from 'tsyringe';
import {
  COLLABORATORS,
  Database,
  Entries,
  EntryObjects,
  ObjectStore,
  Organizations,
  TitledError,
  TOKENS,
  type EnginePlugin,
  type Logger,
  type RouteHelpers,
  type TitledConfig,
} from '../../core/plugin-api.js';
import type { ConsoleAction, TitleEntry } from '../../core/plugin-api.js';
import type { OpenApiContribution } from '../../core/plugin-api.js';
import { signingOpenApi } from './openapi.js';
import { parseSigningOptions, SigningOptionsSchema, type SigningOptions } from './options.js';
import { pluginSchema } from './schema.js';
import { SigningEngine } from './service.js';
import { loadLinkKey, loadSealKey, type SealKey } from './seal.js';
import { Notifier, smsProvider } from './notify.js';
import { ronProvider } from './ron.js';
import { messagePage, paperPage, signingPage } from './page.js';
import { pagePng } from './preview.js';
import { readSigningForm } from './multipart.js';

export { SigningEngine } from './service.js';
export { SandboxSms, HttpSms } from './notify.js';
export { SandboxRon, HttpRon } from './ron.js';

const PROBLEMS: Record<string, string> = {
  signed: 'You have signed. Thank you: nothing more is needed from you.',
  declined: 'You declined to sign. The requester was told.',
  draft: 'This request has not been sent yet.',
  expired: 'This signing link has expired. Ask the requester for a new one.',
  canceled: 'This signature request was canceled.',
  completed: 'Everyone has signed. Thank you.',
};

@injectable()
export class SigningPlugin implements EnginePlugin {
  static readonly options = SigningOptionsSchema;
  static readonly schema = pluginSchema;
  readonly name = 'signing';
  readonly options: SigningOptions;
  readonly service: SigningEngine;
  readonly notifier: Notifier;
  private readonly log: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private sealKey?: SealKey;
  private readonly dataDir: string;

  constructor(
    db: Database,
    entries: Entries,
    private readonly objects: ObjectStore,
    orgs: Organizations,
    @inject(TOKENS.Config) private readonly config: Readonly<TitledConfig>,
    @inject(TOKENS.Logger) log: Logger,
    @inject(TOKENS.Container) container: DependencyContainer,
  ) {
    this.log = log.child({ plugin: 'signing' });
    this.options = parseSigningOptions(config.plugins.signing);
    this.notifier = new Notifier(this.options, smsProvider(this.options.sms));
    const dataDir = config.dataDir;
    this.dataDir = dataDir;
    this.service = new SigningEngine({
      db,
      entries,
      objects,
      log: this.log,
      options: this.options,
      container,
      linkKey: loadLinkKey(dataDir),
      sealKey: () => (this.sealKey ??= loadSealKey(dataDir, this.options.certificate)),
      notifier: this.notifier,
      orgName: async (id) => (await orgs.byId(id))?.name ?? '',
      presignTtlSeconds: config.presignTtlSeconds,
      publicUrl: config.publicUrl,
      ron: ronProvider(this.options.ron),
    });
    container.registerInstance(COLLABORATORS.signing, this.service);
  }

  /** Loads (or, at first start, generates) the sealing certificate and starts the reminder and expiry loop. */
  start(): void {
    this.sealKey ??= loadSealKey(this.dataDir, this.options.certificate);
    this.timer = setInterval(() => void this.tickOnce(), this.options.pollIntervalMs);
    this.timer.unref();
    this.log.info({ code: 'SIGNING_STARTED', pollIntervalMs: this.options.pollIntervalMs }, 'signing started');
  }

  /** One pass of the loop now (tests, CLI); passes never overlap. */
  async tickOnce(): Promise<{ reminded: number; expired: number } | undefined> {
    if (this.running) return undefined;
    const run = this.service.tick().catch((e: unknown) => {
      this.log.warn({ code: 'SIGNING_TICK_FAILED', err: (e as Error).message }, 'signing loop pass failed');
      return undefined;
    });
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.notifier.close();
  }

  openapi(): OpenApiContribution {
    return signingOpenApi();
  }

  /** The console's actions on an entry with an open signature request: remind, record wet ink, cancel. */
  consoleActions(): readonly ConsoleAction[] {
    const open = (e: Readonly<TitleEntry>) =>
      ((e.signature_requests as { status?: string }[] | undefined) ?? []).some(
        (r) => r.status === 'DRAFT' || r.status === 'SENT' || r.status === 'PARTIALLY_SIGNED',
      );
    const sent = (e: Readonly<TitleEntry>) =>
      ((e.signature_requests as { status?: string }[] | undefined) ?? []).some(
        (r) => r.status === 'SENT' || r.status === 'PARTIALLY_SIGNED',
      );
    const base = this.config.publicUrl;
    return [
      {
        name: 'remind',
        label: 'Remind the signers',
        appliesTo: sent,
        run: async (p, id) => {
          const r = await this.service.request(p, id, undefined, 'BUMP', base);
          return `signature request ${String(r.id)}: reminders sent to those who have not signed`;
        },
      },
      {
        name: 'mark-signed',
        label: 'Record the signed originals (wet ink)',
        appliesTo: open,
        run: async (p, id) => {
          const entry = await this.service.mustEntry(p, id);
          const r = await this.service.markSigned(p.org.id, entry.entryId, `console:${p.userId}`);
          return `signature request ${r.id} is ${r.status}`;
        },
      },
      {
        name: 'cancel',
        label: 'Cancel the signature request',
        appliesTo: open,
        fields: [{ name: 'reason', label: 'Reason' }],
        run: async (p, id, f) => {
          const entry = await this.service.mustEntry(p, id);
          const r = await this.service.cancel(p.org.id, entry.entryId, `console:${p.userId}`, f.reason ?? '');
          return `signature request ${r.id} canceled`;
        },
      },
    ];
  }

  routes(router: Router, h: RouteHelpers): void {
    router.post('/title/:id/sign', async (ctx) => {
      const p = await h.authenticate(ctx);
      const body = ctx.request.length || ctx.get('transfer-encoding') ? await h.readJson(ctx) : undefined;
      const action = typeof ctx.query.Action === 'string' ? ctx.query.Action : undefined;
      ctx.body = await this.service.request(p, ctx.params.id!, body, action, `${ctx.protocol}://${ctx.host}`);
    });
    router.get('/title/:id/sign', async (ctx) => {
      const p = await h.authenticate(ctx);
      const entry = await this.service.mustEntry(p, ctx.params.id!);
      ctx.body = { items: await this.service.list(p.org.id, entry.entryId) };
    });
    router.post('/title/:id/sign/mark-signed', async (ctx) => {
      const p = await h.authenticate(ctx);
      const entry = await this.service.mustEntry(p, ctx.params.id!);
      const r = await this.service.markSigned(p.org.id, entry.entryId, `operator:${p.userId}`);
      ctx.body = await this.service.view(r, { links: false });
    });
    router.post('/title/:id/sign/cancel', async (ctx) => {
      const p = await h.authenticate(ctx);
      const entry = await this.service.mustEntry(p, ctx.params.id!);
      const r = await this.service.cancel(p.org.id, entry.entryId, `operator:${p.userId}`);
      ctx.body = await this.service.view(r, { links: false });
    });
    this.pageRoutes(router);
  }

  private headers(ctx: Context): void {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
  }

  private pageRoutes(router: Router): void {
    router.get('/sign/request/:id', async (ctx) => {
      const r = await this.service.store.request(ctx.params.id!);
      this.headers(ctx);
      ctx.type = 'text/html; charset=utf-8';
      if (!r) {
        ctx.status = 404;
        ctx.body = messagePage('Not found', 'No such signature request.');
        return;
      }
      const signers = await this.service.store.signers(r.id);
      ctx.body = messagePage(
        'Signature request',
        `Status: ${r.status}. ${signers.filter((s) => s.status === 'signed').length} of ${signers.length} signed.`,
      );
    });
    router.get('/sign/:token', async (ctx) => this.showPage(ctx));
    router.post('/sign/:token', async (ctx) => this.submit(ctx));
    router.get('/sign/:token/packet.pdf', async (ctx) => {
      this.headers(ctx);
      const found = await this.service.byToken(ctx.params.token!);
      const key = found?.r.doc.wet_sign_packet;
      const entry = found && key ? await this.service.d.entries.load(found.r.orgId, found.r.entryId) : null;
      if (!found || !key || !entry) throw new TitledError('NOT_FOUND', 'no packet for this link');
      ctx.type = 'application/pdf';
      ctx.body = await new EntryObjects(this.objects, entry.entry.storeIndex).get(key);
    });
    router.get('/sign/:token/doc/:doc.pdf', async (ctx) => {
      const { doc, objects } = await this.docOf(ctx);
      ctx.type = 'application/pdf';
      ctx.body = await objects.get(doc.sourceKey);
    });
    router.get('/sign/:token/doc/:doc/page/:n.png', async (ctx) => {
      const { doc, objects } = await this.docOf(ctx);
      const png = await pagePng(doc.id, Number(ctx.params.n) || 1, this.options.previewDpi, () =>
        objects.get(doc.sourceKey),
      );
      if (!png) throw new TitledError('NOT_FOUND', 'no such page');
      ctx.type = 'image/png';
      ctx.body = png;
    });
  }

  private async docOf(ctx: Context) {
    this.headers(ctx);
    const found = await this.service.byToken(ctx.params.token!);
    if (!found) throw new TitledError('NOT_FOUND', 'unknown signing link');
    const doc = (await this.service.docs(found.r)).find(
      (d) => d.id === ctx.params.doc && d.signerIds.includes(found.s.signerId),
    );
    if (!doc) throw new TitledError('NOT_FOUND', 'no such document');
    const entry = await this.service.d.entries.load(found.r.orgId, found.r.entryId);
    if (!entry) throw new TitledError('NOT_FOUND', 'no such document');
    return { doc, objects: new EntryObjects(this.objects, entry.entry.storeIndex) };
  }

  private async showPage(ctx: Context, error?: string): Promise<void> {
    this.headers(ctx);
    ctx.type = 'text/html; charset=utf-8';
    const found = await this.service.byToken(ctx.params.token!);
    if (!found) {
      ctx.status = 404;
      ctx.body = messagePage('Link not found', 'This signing link is not valid. Check that you copied all of it.');
      return;
    }
    const { r, s } = found;
    const problem = this.service.linkProblem(r, s);
    if (problem) {
      ctx.status = error ? 409 : problem === 'signed' || problem === 'completed' ? 200 : 410;
      const msg =
        problem === 'signed' && r.doc.redirect_url?.message
          ? r.doc.redirect_url.message
          : (PROBLEMS[problem] ?? 'This link cannot be used.');
      ctx.body = messagePage(problem === 'signed' ? 'Signed' : 'Link not usable', msg);
      return;
    }
    await this.service.markViewed(r, s, ctx.ip, ctx.get('user-agent'));
    if (error && r.type !== 'E_SIGN') ctx.status = 409;
    if (r.type === 'WET_SIGN') {
      ctx.body = paperPage(
        `/sign/${ctx.params.token}`,
        this.options.returnAddress,
        r.doc.wet_sign_packet !== undefined,
      );
      return;
    }
    if (r.type === 'RON') {
      ctx.body = messagePage(
        'Online notarization',
        'These documents are signed before a notary by video. The notary service sends you the session link.',
      );
      return;
    }
    const docs = (await this.service.docs(r)).filter((d) => d.signerIds.includes(s.signerId));
    const pages = docs.map((doc) => ({ doc, pages: doc.pages }));
    if (error) ctx.status = 400;
    ctx.body = signingPage(`/sign/${ctx.params.token}`, r, s, pages, error);
  }

  private async submit(ctx: Context): Promise<void> {
    const input = await readSigningForm(ctx);
    const form = input.fields;
    const drawn = form.get('drawn') ?? '';
    const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(drawn);
    try {
      const { r } = await this.service.sign(ctx.params.token!, {
        consent: form.get('consent') === 'yes' || form.get('consent') === 'on',
        typed: form.get('typed_name') ?? '',
        drawnPng: m ? m[1] : undefined,
        decline: form.get('action') === 'decline',
        ip: ctx.ip,
        userAgent: ctx.get('user-agent'),
        ...(input.file ? { dlPhoto: { data: input.file.data, type: input.file.type } } : {}),
      });
      this.headers(ctx);
      const redirect = r.doc.redirect_url;
      let to = `/sign/${ctx.params.token}`;
      if (redirect?.url) {
        const u = new URL(redirect.url);
        if (redirect.message) u.searchParams.set('message', redirect.message);
        u.searchParams.set('status', form.get('action') === 'decline' ? 'declined' : 'signed');
        to = u.toString();
      }
      ctx.status = 303;
      ctx.redirect(to);
    } catch (e) {
      if (e instanceof TitledError && (e.code === 'INVALID_INPUT' || e.code === 'CONFLICT'))
        return this.showPage(ctx, e.message);
      throw e;
    }
  }
}
