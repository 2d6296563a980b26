/**
 * What every enrichment stage does with the entry: builds provider requests
 * from it and contributes what a pull found to the entry's account data
 * (core merges every source at the checkpoint: core/model/account.ts).
 */
import type { AccountData, StageContext, TitleEntry } from '../../../core/plugin-api.js';
import {
  CLOCK,
  systemClock,
  type Clock,
  type EnrichmentRequest,
  type EnrichmentSource,
  type PersonName,
  type RecordSource,
} from './provider.js';

/** The clock registered in the engine's container under CLOCK (tests), else the system clock. */
export function clockOf(ctx: Pick<StageContext, 'container'>): Clock {
  return ctx.container.isRegistered(CLOCK, true) ? ctx.container.resolve<Clock>(CLOCK) : systemClock;
}

const nameOnly = (p: PersonName & Record<string, unknown>): PersonName => {
  const out: PersonName = {};
  for (const k of ['name', 'name_first', 'name_middle', 'name_last', 'name_suffix'] as const)
    if (typeof p[k] === 'string' && p[k]) out[k] = p[k] as string;
  return out;
};

/** The names sent to providers: borrowers first, then the owners on the title (names only). */
function ownersOf(entry: TitleEntry): PersonName[] {
  const ad = entry.account_data;
  return [...(ad.loan?.borrower ?? []), ...(ad.vehicle?.title?.owners ?? [])]
    .map((p) => nameOnly(p as PersonName & Record<string, unknown>))
    .filter((p) => Object.keys(p).length > 0);
}

/** A provider request for `source` from the entry (dppa_exemption only to nmvtis, state and portal). */
export function requestFor(ctx: StageContext, source: EnrichmentSource, state?: string): EnrichmentRequest {
  const req: EnrichmentRequest = {
    source,
    vin: ctx.entry.VIN,
    owners: ownersOf(ctx.entry),
    organization: ctx.org.name,
    entry_id: ctx.entry.entryId,
  };
  if (state) req.state = state;
  if (ctx.job.dppa_exemption && (source === 'nmvtis' || source === 'state' || source === 'portal'))
    req.dppa_exemption = ctx.job.dppa_exemption;
  return req;
}

/** A file-name stamp for a pull's objects: time plus a random tail, so a pull never overwrites an earlier one. */
export function fileStamp(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The id of a record source's contribution to account data. */
export const pullSourceId = (source: RecordSource) => `pull:${source}`;

/** Contributes a pull's record (the latest found pull of `source` for the entry's VIN). */
export function contributePull(
  ctx: StageContext,
  source: RecordSource,
  record: AccountData,
  txnId: string,
  fetchedAt: string,
): void {
  ctx.account.contribute({
    id: pullSourceId(source),
    kind: 'pull',
    type: source,
    ref_id: `${source}:${txnId}`,
    at: fetchedAt,
    vin: ctx.entry.VIN,
    record,
  });
}
