/**
 * Enrichment's bookkeeping on an entry (`enrichment_meta`, beyond the spec,
 * hidden from clients by the enrichment stages' `present` hook): the last
 * settled status of each source, the latest found pull of each source and
 * the cached VIN decode. What the pulls found is contributed to the entry's
 * account data (`ctx.account`); core keeps the records and their provenance.
 */
import type { TitleEntry } from '../../../core/plugin-api.js';
import type { RecordSource } from './provider.js';

interface PullRef {
  /** Object key of the `.json` file holding the AccountData that was found. */
  key: string;
  txn_id: string;
  fetched_at: string;
  provider: string;
  /** The VIN the pull was for (a pull of an earlier VIN is ignored). */
  vin: string;
}

export interface EnrichmentMeta {
  /** Each source's last outcome about the data: found or not_found (error, unavailable and skipped say nothing about it). */
  settled: Partial<Record<RecordSource, 'found' | 'not_found'>>;
  pulls: Partial<Record<RecordSource, PullRef>>;
  /** The VIN decode's vehicle facts (offline, and vPIC when enabled), for the VIN it was made for. */
  vin_decode?: { vin: string; vehicle: Record<string, unknown>; vpic?: boolean };
}

export function readMeta(entry: TitleEntry): EnrichmentMeta {
  const m = (entry.enrichment_meta ?? {}) as Partial<EnrichmentMeta>;
  return { settled: { ...m.settled }, pulls: { ...m.pulls }, ...(m.vin_decode ? { vin_decode: m.vin_decode } : {}) };
}

export function writeMeta(entry: TitleEntry, meta: EnrichmentMeta): void {
  entry.enrichment_meta = meta;
}

/** Removes the bookkeeping from an entry as clients see it. */
export function hideMeta(entry: TitleEntry): void {
  delete entry.enrichment_meta;
}

/** `enrichment_notes` (beyond the spec): why a source's last pull was not found, failed, was unavailable or skipped. */
export function setNote(entry: TitleEntry, source: string, note: string | undefined): void {
  const notes = { ...(entry.enrichment_notes as Record<string, string> | undefined) };
  if (note) notes[source] = note;
  else delete notes[source];
  if (Object.keys(notes).length) entry.enrichment_notes = notes;
  else delete entry.enrichment_notes;
}
