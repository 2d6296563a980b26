/**
 * title-collection: physical title return (issue 15, docs/title-collection.md).
 *
 * A background plugin (no pipeline stage). It registers the
 * TitleCollectionService under COLLABORATORS.titleCollection (the signing
 * plugin calls `ensure` on POST /title/{id}/sign), serves the collection
 * routes (./routes.ts), presents `title_collection` on entries, receives the
 * carrier's signed tracking webhook and polls the carrier as a fallback.
 */
import 'reflect-metadata';
import type Router from '@koa/router';
import { inject, injectable } from 'tsyringe';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  Database,
  Entries,
  ObjectStore,
  Organizations,
  TOKENS,
  TitleService,
  TitledError,
  type CarrierEventSink,
  type EnginePlugin,
  type Logger,
  type Principal,
  type RouteHelpers,
  type TitleCollectionView,
  type TitleEntry,
  type TitledConfig,
} from '../../core/plugin-api.js';
import type { ConsoleAction } from '../../core/plugin-api.js';
import { titleCollectionOpenApi } from './openapi.js';
import type { OpenApiContribution } from '../../core/plugin-api.js';
import { titleReturnNeed } from '../../states/title-return.js';
import type { CarrierProvider, TrackingEvent, TrackingStatus } from './carrier.js';
import { HttpCarrier } from './http-carrier.js';
import { TitleCollectionOptionsSchema, parseOptions, type TitleCollectionOptions } from './options.js';
import { collectionRoutes } from './routes.js';
import { SandboxCarrier } from './sandbox.js';
import { pluginSchema } from './schema.js';
import { CollectionService } from './service.js';
import { isEnrolled, parseOrgSettings, settingsView } from './settings.js';
import { presentCollection, type CollectionAssets, type StoredCollection } from './view.js';

export { CollectionService } from './service.js';
export { SandboxCarrier, sandboxTrackingNumber } from './sandbox.js';
export { HttpCarrier } from './http-carrier.js';
export { drawLabel, code128Png } from './label.js';
export { decodeImage } from './decode.js';
export { signCarrierBody, verifyCarrierSignature, CARRIER_SIGNATURE_HEADER } from './signature.js';
export { parseAddressArg, parseOrgSettings } from './settings.js';
export type { CarrierProvider, TrackingEvent, TrackingStatus, VoidResult } from './carrier.js';

function makeCarrier(o: TitleCollectionOptions): CarrierProvider {
  return o.provider === 'http'
    ? new HttpCarrier({ endpoint: o.http!.endpoint, apiKey: o.http!.apiKey, timeoutMs: o.http!.timeoutMs })
    : new SandboxCarrier();
}

@injectable()
export class TitleCollectionPlugin implements EnginePlugin {
  static readonly options = TitleCollectionOptionsSchema;
  static readonly schema = pluginSchema;
  readonly name = 'title-collection';
  readonly options: TitleCollectionOptions;
  readonly service: CollectionService;
  readonly log: Logger;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<unknown> | null = null;

  constructor(
    db: Database,
    entries: Entries,
    private readonly orgs: Organizations,
    private readonly objects: ObjectStore,
    private readonly titles: TitleService,
    @inject(TOKENS.Config) config: Readonly<TitledConfig>,
    @inject(TOKENS.Logger) log: Logger,
    @inject(TOKENS.Container) private readonly container: DependencyContainer,
  ) {
    this.log = log.child({ plugin: 'title-collection' });
    this.options = parseOptions(config.plugins['title-collection']);
    this.service = new CollectionService(db, entries, orgs, objects, makeCarrier(this.options), this.options, this.log);
    container.registerInstance(COLLABORATORS.titleCollection, this.service);
  }

  openapi(): OpenApiContribution {
    return titleCollectionOpenApi();
  }

  /** The console's actions on an entry with a title collection: log the received title, mark it lost. */
  consoleActions(): readonly ConsoleAction[] {
    const has = (e: Readonly<TitleEntry>) => !!e.title_collection;
    return [
      {
        name: 'receive',
        label: 'Log the received paper title',
        appliesTo: has,
        fields: [
          { name: 'title_number', label: 'Title number on the paper' },
          { name: 'vin', label: 'VIN on the paper' },
        ],
        run: async (p, id, f) => {
          await this.receive(p, id, { vin: f.vin, title_number: f.title_number });
          return 'the title was matched and logged: physical_title_status received';
        },
      },
      {
        name: 'lost',
        label: 'The original is lost (duplicate title)',
        appliesTo: has,
        run: async (p, id) => {
          await this.lost(p, id);
          return 'physical_title_status unavailable; the duplicate-title forms are generated';
        },
      },
    ];
  }

  routes(router: Router, helpers: RouteHelpers): void {
    collectionRoutes(this, router, helpers);
  }

  /** The polling fallback: every `pollIntervalMs`, open collections are asked for new tracking events. */
  start(): void {
    if (this.options.pollIntervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = this.service.tracking
        .pollOnce()
        .catch((e: Error) => {
          this.log.warn({ code: 'TITLE_COLLECTION_POLL_FAILED', err: e.message }, 'carrier poll failed');
        })
        .finally(() => {
          this.polling = null;
        });
    }, this.options.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  /**
   * `title_collection` as clients see it: URLs presigned to `assets_expires_at`. Only entries of enrolled
   * organizations have one (ensure makes none otherwise); a collection made stays shown if the
   * organization leaves the program later (docs/title-collection.md).
   */
  present(entry: TitleEntry): void {
    const stored = entry.title_collection as StoredCollection | undefined;
    const assets = entry.title_collection_assets as CollectionAssets | undefined;
    delete entry.title_collection_assets;
    if (!stored || typeof stored !== 'object') return;
    const view = presentCollection(stored, assets, entry.storeIndex, this.objects);
    entry.title_collection = view;
    // a signature request carries the same object (spec), with the same fresh URLs
    const requests = Array.isArray(entry.signature_requests) ? (entry.signature_requests as unknown[]) : [];
    for (const sr of requests) {
      const r = sr as { title_collection?: { collection_id?: unknown } } | null;
      if (r?.title_collection?.collection_id === view.collection_id) r.title_collection = { ...view };
    }
  }

  /** The entry as the caller may see it (404 otherwise); its canonical id. */
  private async visible(p: Principal, id: string): Promise<TitleEntry> {
    return this.titles.get(p, id);
  }

  async ensureFor(p: Principal, id: string): Promise<TitleCollectionView | undefined> {
    const entry = await this.visible(p, id);
    return this.service.ensure(p.org.id, entry.entryId);
  }

  /** Why an entry has no collection (the answer of POST /title/{id}/collection when none applies). */
  async whyNone(p: Principal, id: string): Promise<string> {
    const org = await this.orgs.byId(p.org.id);
    if (!org || !isEnrolled(org)) return `organization ${p.org.name} is not enrolled in physical title collection`;
    const need = titleReturnNeed(await this.visible(p, id));
    if (need.need === 'electronic')
      return `the title is electronic in ${need.state}: nothing on paper (physical_title_status skipped)`;
    return need.need === 'none' ? need.reason : 'no collection';
  }

  async describe(p: Principal, id: string): Promise<Record<string, unknown>> {
    const entry = await this.visible(p, id);
    const { row } = await this.service.mustRow(p.org.id, entry.entryId);
    return {
      title_collection: this.service.view(row, entry.storeIndex),
      carrier_status: row.carrierStatus,
      shipment_id: row.shipmentId,
      tracking_url: row.trackingUrl,
      physical_title_status: entry.physical_title_status ?? null,
      events: (await this.service.records.events(row.id)).map((e) => ({
        id: e.eventId,
        status: e.status,
        source: e.source,
        occurred_at: new Date(e.occurredAt).toISOString(),
        description: e.description,
      })),
    };
  }

  async receive(p: Principal, id: string, got: { vin?: string; title_number?: string }): Promise<TitleCollectionView> {
    const entry = await this.visible(p, id);
    return this.service.tracking.receive(p.org.id, entry.entryId, got, p.userId);
  }

  /** The original is lost: `unavailable`, then the forms again (the duplicate-title form joins them). */
  async lost(p: Principal, id: string): Promise<Record<string, unknown>> {
    const entry = await this.visible(p, id);
    await this.service.tracking.lost(p.org.id, entry.entryId, p.userId);
    let forms = 'not generated (the forms stage is not enabled)';
    try {
      await this.titles.requestForms(p, entry.entryId);
      forms = 'generated';
    } catch (e) {
      if (!(e instanceof TitledError && e.code === 'NOT_IMPLEMENTED')) throw e;
    }
    const after = await this.titles.get(p, entry.entryId);
    return {
      entryId: after.entryId,
      physical_title_status: after.physical_title_status,
      forms,
      form_duplicate_title: after.form_duplicate_title ?? null,
    };
  }

  async simulate(p: Principal, id: string, status: TrackingStatus): Promise<Record<string, unknown>> {
    const entry = await this.visible(p, id);
    const r = await this.service.tracking.simulate(p.org.id, entry.entryId, status);
    const after = await this.titles.get(p, entry.entryId);
    return { applied: r.applied, event: r.event, physical_title_status: after.physical_title_status ?? null };
  }

  /**
   * A carrier tracking event (webhook): applied once. A tracking number of no collection goes to the other
   * plugins' shipments (COLLABORATORS.carrierEvents, e.g. MAIL filing packets); 404 when no one has it.
   */
  async carrierEvent(e: TrackingEvent): Promise<Record<string, unknown>> {
    const row = await this.service.records.byTracking(e.tracking_number);
    if (row) return { applied: await this.service.tracking.applyEvent(row, e, 'webhook') };
    const token = COLLABORATORS.carrierEvents;
    const sinks = this.container.isRegistered(token, true) ? this.container.resolveAll<CarrierEventSink>(token) : [];
    for (const sink of sinks) {
      const r = await sink.carrierEvent(e, 'webhook');
      if (r) return r;
    }
    throw new TitledError('NOT_FOUND', `no shipment has tracking number ${e.tracking_number}`);
  }

  pollNow(): Promise<{ polled: number; applied: number }> {
    return this.service.tracking.pollOnce();
  }

  async settings(orgName: string): Promise<Record<string, unknown>> {
    const org = await this.orgs.byName(orgName);
    if (!org) throw new TitledError('NOT_FOUND', `no organization '${orgName}'`);
    return settingsView(org);
  }

  async setSettings(orgName: string, body: unknown): Promise<Record<string, unknown>> {
    return settingsView(await this.orgs.updateSettings(orgName, parseOrgSettings(body ?? {})));
  }
}
