/**
 * What every enrichment stage does with the entry: builds provider requests
 * from it, stores what a pull found, and runs the reconciliation over every
 * current pull, writing `account_data`, `account_discrepancies` and
 * `account_matches`.
 */
import { deriveEntryFields, type TitleEntry } from '../../core/model/entry.js';
import type { AccountData } from '../../core/model/schemas.js';
import type { StageContext } from '../../core/pipeline/stage.js';
import { readMeta, writeMeta, type EnrichmentMeta } from './meta.js';
import { CLOCK, RECORD_SOURCES, systemClock, type Clock, type EnrichmentRequest, type EnrichmentSource, type PersonName, type RecordSource } from './provider.js';
import { deleteAt, fingerprint, getAt, present, setAt } from './pointer.js';
import { reconcile, type DocumentRecord, type MergeSource, type PullRecord } from './reconcile.js';
import { keepSubmittedComparisons } from '../ocr/merge.js';

/** The clock registered in the engine's container under CLOCK (tests), else the system clock. */
export function clockOf(ctx: Pick<StageContext, 'container'>): Clock {
  return ctx.container.isRegistered(CLOCK, true) ? ctx.container.resolve<Clock>(CLOCK) : systemClock;
}

const nameOnly = (p: PersonName & Record<string, unknown>): PersonName => {
  const out: PersonName = {};
  for (const k of ['name', 'name_first', 'name_middle', 'name_last', 'name_suffix'] as const) if (typeof p[k] === 'string' && p[k]) out[k] = p[k] as string;
  return out;
};

/** The names sent to providers: borrowers first, then the owners on the title (names only). */
export function ownersOf(entry: TitleEntry): PersonName[] {
  const ad = entry.account_data;
  return [...(ad.loan?.borrower ?? []), ...(ad.vehicle?.title?.owners ?? [])]
    .map((p) => nameOnly(p as PersonName & Record<string, unknown>))
    .filter((p) => Object.keys(p).length > 0);
}

/** A provider request for `source` from the entry (dppa_exemption only to nmvtis, state and portal). */
export function requestFor(ctx: StageContext, source: EnrichmentSource, state?: string): EnrichmentRequest {
  const req: EnrichmentRequest = {
    source, vin: ctx.entry.VIN, owners: ownersOf(ctx.entry), organization: ctx.org.name, entry_id: ctx.entry.entryId,
  };
  if (state) req.state = state;
  if (ctx.job.dppa_exemption && (source === 'nmvtis' || source === 'state' || source === 'portal')) req.dppa_exemption = ctx.job.dppa_exemption;
  return req;
}

/** A file-name stamp for a pull's objects: time plus a random tail, so a pull never overwrites an earlier one. */
export function fileStamp(now: Date): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Extracted account data behind the entry's documents (attachments with a `json_path`), for the comparison. */
async function documentRecords(ctx: StageContext): Promise<DocumentRecord[]> {
  const out: DocumentRecord[] = [];
  for (const doc of ctx.entry.attachment ?? []) {
    if (!doc.json_path) continue;
    try {
      const bytes = await ctx.objects.get(doc.json_path);
      if (!bytes) continue;
      const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      const record = (json.account_data ?? json) as AccountData;
      if (record && typeof record === 'object' && (record.vehicle || record.loan)) out.push({ ref_id: doc.store_key, doc_type: doc.document_type, record });
    } catch {
      // a document whose extraction cannot be read takes no part in the comparison
    }
  }
  return out;
}

/**
 * Pull records by object key: the files never change once written, so a
 * record read back (or just written) is kept for the next reconciliation of
 * the entry instead of being read and parsed again. Bounded; oldest first out.
 */
const RECORDS = new Map<string, AccountData>();
const RECORDS_MAX = 2_000;
export function rememberRecord(key: string, record: AccountData): void {
  if (RECORDS.size >= RECORDS_MAX) RECORDS.delete(RECORDS.keys().next().value!);
  RECORDS.set(key, record);
}

/**
 * Reconciles the entry with every current pull (`fresh` holds records this
 * stage has in hand; others are read back from their `.json` files) and
 * writes account_data (with the members derived from it), the provenance,
 * account_discrepancies and account_matches.
 */
export async function reconcileEntry(ctx: StageContext, meta: EnrichmentMeta, fresh: Map<RecordSource, AccountData> = new Map()): Promise<void> {
  const entry = ctx.entry;
  const pulls: PullRecord[] = [];
  for (const source of RECORD_SOURCES) {
    const ref = meta.pulls[source];
    if (!ref || ref.vin !== entry.VIN) continue;
    let record = fresh.get(source) ?? RECORDS.get(ref.key);
    if (!record) {
      const bytes = await ctx.objects.get(ref.key);
      if (!bytes) continue;
      record = JSON.parse(bytes.toString('utf8')) as AccountData;
      rememberRecord(ref.key, record);
    }
    pulls.push({ source, ref_id: `${source}:${ref.txn_id}`, record });
  }
  const decoded = meta.vin_decode && meta.vin_decode.vin === entry.VIN ? meta.vin_decode.vehicle : undefined;
  const r = reconcile({ account_data: entry.account_data, provenance: meta.provenance, pulls, documents: await documentRecords(ctx), decoded, insurance: meta.insurance });
  entry.account_data = r.account_data;
  deriveEntryFields(entry);
  meta.provenance = r.provenance;
  if (pulls.length || entry.account_discrepancies || entry.account_matches) {
    // the ocr stage's comparisons with the client's own data stay (reconciliation compares documents and pulls)
    const kept = keepSubmittedComparisons({ discrepancies: entry.account_discrepancies, matches: entry.account_matches }, { discrepancies: r.discrepancies, matches: r.matches });
    entry.account_discrepancies = { items: kept.discrepancies };
    entry.account_matches = { items: kept.matches };
  }
  writeMeta(entry, meta);
}

/**
 * Writes one lowest-precedence value (`source` ranks below every pull) at
 * `ptr` of account_data without a whole reconciliation: only when nobody
 * else gave the member, or `source` itself wrote it and nobody changed it
 * since; an absent `value` withdraws what `source` wrote. Records the
 * provenance. Returns whether account_data changed.
 */
export function fillLowest(entry: TitleEntry, meta: EnrichmentMeta, ptr: string, value: unknown, source: MergeSource): boolean {
  const ad = entry.account_data as Record<string, unknown>;
  const current = getAt(ad, ptr);
  const prov = meta.provenance[ptr];
  const own = !!prov && prov.source === source && prov.fp === fingerprint(current);
  if (present(current) && !own) return false;
  if (!present(value)) {
    if (!own) return false;
    deleteAt(ad, ptr);
    delete meta.provenance[ptr];
    return true;
  }
  if (own && fingerprint(value) === prov.fp) return false;
  setAt(ad, ptr, structuredClone(value));
  meta.provenance[ptr] = { source, fp: fingerprint(value) };
  return true;
}

export { readMeta, writeMeta };
