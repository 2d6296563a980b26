/**
 * The pull stage every record source shares (nmvtis, public-dmv,
 * private-portal): runs when the job's sync flag asks for it, moves each of
 * its sources' found status `pending -> found | not_found | error |
 * unavailable | skipped` with `ctx.setStatus` (each move an outbox event),
 * stores what was found as files (`*_pull` JSON, `*_report_pdf`,
 * `portal_screenshot`), emits `title.data.found` when a source whose last
 * settled status was `not_found` is found, and contributes what was found to
 * the entry's account data (a not-found pull withdraws what it gave).
 */
import type {
  TitledConfig,
  JobInput,
  TitleEntry,
  StageContext,
  StagePlugin,
  StatusField,
} from '../../../core/plugin-api.js';
import { clockOf, contributePull, fileStamp, pullSourceId, requestFor } from './apply.js';
import { hideMeta, readMeta, setNote, writeMeta, type EnrichmentMeta } from './meta.js';
import { parseProviderOptions, type ProviderOptions } from './options.js';
import { SOURCE_FIELDS, type EnrichmentOutcome, type EnrichmentProvider, type RecordSource } from './provider.js';
import { renderReportPdf } from './report-pdf.js';
import { renderPortalScreenshot } from './screenshot-png.js';

type Settled = EnrichmentOutcome | { outcome: 'skipped'; message: string };
type SyncFlag = 'sync_nmvtis' | 'sync_public' | 'sync_private';

/** Builds the provider of a source from its validated options; null = switched off (`provider: none`). */
type ProviderFactory = (
  source: RecordSource,
  options: ProviderOptions,
  config: Readonly<TitledConfig>,
) => EnrichmentProvider | null;

export abstract class RecordPullStage implements StagePlugin {
  abstract readonly name: string;
  readonly phase = 'enriching' as const;
  readonly handles = ['data'] as const;
  /** The sync flag that asks for this stage's pulls. */
  abstract readonly flag: SyncFlag;
  /** Whether a pull needs the title's issuing state (state records, portals and public sites are per state). */
  abstract readonly needsState: boolean;
  private readonly providers = new Map<RecordSource, EnrichmentProvider | null>();

  /** Validates `providers.<source>` of every source at start-up (a bad option fails the engine's start, naming it). */
  protected constructor(
    config: Readonly<TitledConfig>,
    readonly sources: readonly RecordSource[],
    factory: ProviderFactory,
  ) {
    for (const s of sources) this.providers.set(s, factory(s, parseProviderOptions(s, config.providers[s]), config));
  }

  appliesTo(_entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    return job[this.flag] === true;
  }

  requested(input: Readonly<JobInput>): readonly { field: StatusField; to: string }[] {
    return input[this.flag]
      ? this.sources.map((s) => ({ field: SOURCE_FIELDS[s].status as StatusField, to: 'pending' }))
      : [];
  }

  present(entry: TitleEntry): void {
    hideMeta(entry);
  }

  stop(): void {
    for (const p of this.providers.values()) p?.close?.();
  }

  /** The provider of a source (tests, bench). */
  provider(source: RecordSource): EnrichmentProvider | null {
    return this.providers.get(source) ?? null;
  }

  async run(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    const meta = readMeta(entry);
    const now = clockOf(ctx).now();
    const state = entry.account_data.vehicle?.title?.issuing_state ?? undefined;
    for (const s of this.sources) ctx.setStatus(SOURCE_FIELDS[s].status as StatusField, 'pending', { source: s });
    const results = await Promise.all(
      this.sources.map(async (source): Promise<[RecordSource, Settled, string]> => {
        const provider = this.providers.get(source) ?? null;
        if (!provider)
          return [
            source,
            { outcome: 'skipped', message: `source switched off (providers.${source}.provider is none)` },
            'none',
          ];
        if (!entry.VIN) return [source, { outcome: 'skipped', message: 'the entry has no VIN' }, provider.kind];
        if (this.needsState && !state)
          return [
            source,
            { outcome: 'skipped', message: 'no issuing state: the client gave none and no NMVTIS record supplied one' },
            provider.kind,
          ];
        if (state && provider.covers && !provider.covers(state))
          return [
            source,
            { outcome: 'skipped', message: `the ${provider.kind} provider does not serve ${state}` },
            provider.kind,
          ];
        const outcome = await provider.fetch(requestFor(ctx, source, state), { now, signal: ctx.signal });
        return [source, outcome, provider.kind];
      }),
    );
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
    for (const [source, outcome, kind] of results) {
      await this.settle(ctx, meta, source, outcome, kind, now, state);
      ctx.log.info(
        { code: 'ENRICHMENT_PULL', source, outcome: outcome.outcome, provider: kind },
        `${source} pull: ${outcome.outcome}`,
      );
    }
    writeMeta(entry, meta);
    if (this.flag === 'sync_private') entry.private_enrichment_pending = false;
  }

  private async settle(
    ctx: StageContext,
    meta: EnrichmentMeta,
    source: RecordSource,
    o: Settled,
    kind: string,
    now: Date,
    state?: string,
  ): Promise<void> {
    const entry = ctx.entry;
    const f = SOURCE_FIELDS[source];
    const previous = meta.settled[source];
    if (o.outcome === 'found') {
      const stamp = fileStamp(now);
      const dir = `enrichment/${source}/${stamp}`;
      const report = {
        source,
        providerKind: kind,
        vin: entry.VIN,
        txnId: o.txn_id,
        state,
        fetchedAt: now,
        record: o.record,
      };
      const [pullKey, reportKey, shotKey] = await Promise.all([
        ctx.objects.put(`${dir}-pull.json`, JSON.stringify(o.record)),
        f.report
          ? ctx.objects.put(`${dir}-report.pdf`, Buffer.from(o.report_pdf ?? (await renderReportPdf(report))))
          : undefined,
        f.screenshot
          ? ctx.objects.put(`${dir}-screenshot.png`, Buffer.from(o.screenshot_png ?? renderPortalScreenshot(report)))
          : undefined,
      ]);
      contributePull(ctx, source, o.record, o.txn_id, now.toISOString());
      entry[f.pull] = pullKey;
      if (f.txn) entry[f.txn] = o.txn_id;
      if (f.report) entry[f.report] = reportKey;
      if (f.screenshot) entry[f.screenshot] = shotKey;
      entry[f.lastFetch] = now.toISOString();
      meta.pulls[source] = {
        key: pullKey,
        txn_id: o.txn_id,
        fetched_at: now.toISOString(),
        provider: kind,
        vin: entry.VIN,
      };
      setNote(entry, source, undefined);
    } else if (o.outcome === 'not_found') {
      for (const k of [f.pull, f.report, f.screenshot]) if (k) delete entry[k];
      if (f.txn) {
        if (o.txn_id) entry[f.txn] = o.txn_id;
        else delete entry[f.txn];
      }
      entry[f.lastFetch] = now.toISOString();
      delete meta.pulls[source];
      ctx.account.withdraw(pullSourceId(source));
      setNote(entry, source, o.message ?? `${source}: no record for this VIN`);
    } else {
      // error, unavailable, skipped: what an earlier pull found stays
      setNote(entry, source, o.message);
    }
    ctx.setStatus(f.status as StatusField, o.outcome, {
      source,
      ...('txn_id' in o && o.txn_id ? { txn_id: o.txn_id } : {}),
    });
    if (o.outcome === 'found' && previous === 'not_found')
      ctx.emit('title.data.found', { source, field: f.status, from: 'not_found', to: 'found', txn_id: o.txn_id });
    if (o.outcome === 'found' || o.outcome === 'not_found') meta.settled[source] = o.outcome;
  }
}
