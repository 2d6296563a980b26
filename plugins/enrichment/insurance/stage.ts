import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import {
  type AccountData,
  type TitledConfig,
  definePluginOptions,
  type JobInput,
  type TitleEntry,
  type StageContext,
  type StagePlugin,
  TOKENS,
  deepEqual,
} from '../../../core/plugin-api.js';
import { clockOf, requestFor } from '../common/apply.js';
import { hideMeta, setNote } from '../common/meta.js';
import { parseProviderOptions, type ProviderOptions } from '../common/options.js';
import type { InsuranceProvider } from './provider.js';
import { applyInsuranceHold, HOLD_SOURCE } from './holds.js';
import { InsuranceHttpProvider } from './providers/http.js';
import { InsuranceSandboxProvider } from './providers/sandbox.js';

export function insuranceProvider(options: ProviderOptions, config: Readonly<TitledConfig>): InsuranceProvider | null {
  switch (options.provider) {
    case 'sandbox':
      return new InsuranceSandboxProvider(options);
    case 'http':
      return new InsuranceHttpProvider(options, { allowHosts: config.allowHosts });
    case 'none':
      return null;
  }
}

/** `plugins.insurance`: when the search runs. */
const Options = definePluginOptions('insurance', {
  /** `sync`: with every enrichment request (any sync flag; default); `always`: every job of an entry with a VIN; `never`. */
  when: z.enum(['sync', 'always', 'never']).default('sync'),
});

/**
 * insurance: verifies the vehicle's insurance. Sets `insurance_last_fetch`,
 * `insurance_search_raw_data`, `insurance_search_result` (found, not_found,
 * error, unavailable, skipped) and `insurance_update_result` (hold_added,
 * hold_cleared, updated, unchanged, not_applied); fills
 * `vehicle.insurance` when the client gave none, and keeps the INSURANCE
 * hold on `vehicle.reg_title_holds` in step with the coverage.
 */
@injectable()
export class InsuranceStage implements StagePlugin {
  static readonly options = Options.schema;
  readonly name = 'insurance';
  readonly phase = 'enriching' as const;
  readonly handles = ['data'] as const;
  private readonly when: 'sync' | 'always' | 'never';
  private readonly provider: InsuranceProvider | null;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    this.when = Options.parse(config.plugins.insurance).when;
    this.provider = insuranceProvider(parseProviderOptions('insurance', config.providers.insurance), config);
  }

  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    if (this.when === 'never' || !entry.VIN) return false;
    return this.when === 'always' || !!(job.sync_nmvtis || job.sync_public || job.sync_private);
  }

  present(entry: TitleEntry): void {
    hideMeta(entry);
  }

  stop(): void {
    this.provider?.close?.();
  }

  async run(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    const now = clockOf(ctx).now();
    if (!this.provider) {
      entry.insurance_search_result = 'skipped';
      entry.insurance_update_result = 'not_applied';
      setNote(entry, 'insurance', 'source switched off (providers.insurance.provider is none)');
      return;
    }
    const ad = entry.account_data;
    const policy = ad.loan?.borrower?.[0]?.insurance ?? ad.vehicle?.insurance ?? undefined;
    const req = requestFor(ctx, 'insurance', ad.vehicle?.title?.issuing_state ?? undefined);
    if (policy)
      req.policy = Object.fromEntries(
        Object.entries(policy).filter(([, v]) => typeof v === 'string' && v),
      ) as NonNullable<typeof req.policy>;
    const out = await this.provider.fetch(req, { now, signal: ctx.signal });
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
    entry.insurance_search_result = out.outcome;
    entry.insurance_search_raw_data =
      out.outcome === 'found' || out.outcome === 'not_found'
        ? (out.raw ?? { outcome: out.outcome })
        : { outcome: out.outcome, message: out.message };
    ctx.log.info(
      { code: 'ENRICHMENT_PULL', source: 'insurance', outcome: out.outcome, provider: this.provider.kind },
      `insurance search: ${out.outcome}`,
    );
    if (out.outcome !== 'found' || !out.coverage) {
      if (out.outcome === 'not_found') entry.insurance_last_fetch = now.toISOString();
      entry.insurance_update_result = 'not_applied';
      setNote(
        entry,
        'insurance',
        out.outcome === 'found' ? 'no coverage in the answer' : 'message' in out ? out.message : undefined,
      );
      return;
    }
    entry.insurance_last_fetch = now.toISOString();
    setNote(entry, 'insurance', undefined);
    const c = out.coverage;
    const found = Object.fromEntries(
      Object.entries({
        provider_name: c.provider_name,
        provider_naic: c.provider_naic,
        policy_number: c.policy_number,
      }).filter(([, v]) => v),
    );
    // the search's own holds (source "insurance"), kept in its contribution; the merge adds them to the others
    const previous = ctx.account.source('insurance')?.record ?? {
      vehicle: { reg_title_holds: (ad.vehicle?.reg_title_holds ?? []).filter((h) => h?.source === HOLD_SOURCE) },
    };
    const own: AccountData = { vehicle: { reg_title_holds: previous.vehicle?.reg_title_holds ?? [] } };
    const hold = applyInsuranceHold(own, c, now.toISOString().slice(0, 10));
    const before = structuredClone(ad.vehicle?.insurance ?? null);
    ctx.account.contribute({
      id: 'insurance',
      kind: 'insurance',
      vin: entry.VIN,
      at: now.toISOString(),
      record: {
        vehicle: {
          ...(Object.keys(found).length ? { insurance: found } : {}),
          reg_title_holds: own.vehicle!.reg_title_holds ?? [],
        },
      },
    });
    const after = ctx.account.preview().account_data.vehicle?.insurance ?? null;
    entry.insurance_update_result = hold !== 'unchanged' ? hold : deepEqual(before, after) ? 'unchanged' : 'updated';
  }
}
