import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { TitledConfig } from '../../core/config.js';
import { EngineConfigError } from '../../core/errors.js';
import type { JobInput } from '../../core/jobs/job-queue.js';
import type { TitleEntry } from '../../core/model/entry.js';
import type { StageContext, StagePlugin } from '../../core/pipeline/stage.js';
import { TOKENS } from '../../core/tokens.js';
import { deriveEntryFields } from '../../core/model/entry.js';
import { clockOf, fillLowest, requestFor, writeMeta } from '../enrichment-common/apply.js';
import { hideMeta, readMeta, setNote } from '../enrichment-common/meta.js';
import { parseProviderOptions, type ProviderOptions } from '../enrichment-common/options.js';
import { deepEqual } from '../enrichment-common/pointer.js';
import type { InsuranceProvider } from './provider.js';
import { applyInsuranceHold } from './holds.js';
import { InsuranceHttpProvider } from './providers/http.js';
import { InsuranceSandboxProvider } from './providers/sandbox.js';

export function insuranceProvider(options: ProviderOptions, config: Readonly<TitledConfig>): InsuranceProvider | null {
  switch (options.provider) {
    case 'sandbox': return new InsuranceSandboxProvider(options);
    case 'http': return new InsuranceHttpProvider(options, { allowHosts: config.allowHosts });
    case 'none': return null;
  }
}

/** `plugins.insurance`: when the search runs. */
const OptionsSchema = z.object({
  /** `sync`: with every enrichment request (any sync flag; default); `always`: every job of an entry with a VIN; `never`. */
  when: z.enum(['sync', 'always', 'never']).default('sync'),
}).strict();

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
  readonly name = 'insurance';
  readonly phase = 'enriching' as const;
  readonly handles = ['data'] as const;
  private readonly when: 'sync' | 'always' | 'never';
  private readonly provider: InsuranceProvider | null;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    const o = OptionsSchema.safeParse(config.plugins.insurance ?? {});
    if (!o.success) throw new EngineConfigError(`invalid plugins.insurance: ${o.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.when = o.data.when;
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
    if (policy) req.policy = Object.fromEntries(Object.entries(policy).filter(([, v]) => typeof v === 'string' && v)) as NonNullable<typeof req.policy>;
    const out = await this.provider.fetch(req, { now, signal: ctx.signal });
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
    entry.insurance_search_result = out.outcome;
    entry.insurance_search_raw_data = out.outcome === 'found' || out.outcome === 'not_found' ? (out.raw ?? { outcome: out.outcome }) : { outcome: out.outcome, message: out.message };
    ctx.log.info({ code: 'ENRICHMENT_PULL', source: 'insurance', outcome: out.outcome, provider: this.provider.kind }, `insurance search: ${out.outcome}`);
    if (out.outcome !== 'found' || !out.coverage) {
      if (out.outcome === 'not_found') entry.insurance_last_fetch = now.toISOString();
      entry.insurance_update_result = 'not_applied';
      setNote(entry, 'insurance', out.outcome === 'found' ? 'no coverage in the answer' : 'message' in out ? out.message : undefined);
      return;
    }
    entry.insurance_last_fetch = now.toISOString();
    setNote(entry, 'insurance', undefined);
    const c = out.coverage;
    const meta = readMeta(entry);
    const before = structuredClone(ad.vehicle?.insurance ?? null);
    meta.insurance = Object.fromEntries(Object.entries({ provider_name: c.provider_name, provider_naic: c.provider_naic, policy_number: c.policy_number }).filter(([, v]) => v));
    const hold = applyInsuranceHold(entry.account_data, c, now.toISOString().slice(0, 10));
    // the pulls did not change: no whole reconciliation, one lowest-precedence fill
    fillLowest(entry, meta, '/vehicle/insurance', Object.keys(meta.insurance).length ? meta.insurance : undefined, 'insurance');
    deriveEntryFields(entry);
    writeMeta(entry, meta);
    const after = entry.account_data.vehicle?.insurance ?? null;
    entry.insurance_update_result = hold !== 'unchanged' ? hold : deepEqual(before, after) ? 'unchanged' : 'updated';
  }
}
