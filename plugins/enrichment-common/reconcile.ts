/**
 * Reconciliation: merges pulled records into `account_data` under the
 * documented precedence (docs/enrichment.md) and records where sources
 * agree and disagree (`account_matches`, `account_discrepancies`).
 *
 * - Data the client submitted or documents gave (the "base": account_data
 *   minus what enrichment wrote earlier and nobody changed since) always wins
 *   for owner, lien, vehicle and registration facts; then the private pulls
 *   (state record, then portal), then public, then NMVTIS, then the VIN decode.
 * - Owner facts, lien facts and registration facts move as groups: the first
 *   source with any member of a group supplies the whole group.
 * - The title chain follows the newest title: the title with the latest
 *   issuance date wins (ties by precedence), its fields come from the
 *   sources that describe that same title (same state and number), and
 *   older titles go to `previous_title`, newest first.
 * - Every value written is recorded in the provenance (pointer -> source and
 *   value), so a later reconciliation can tell enrichment's values from the
 *   client's: a value the client changed since is the client's.
 */
import type { AccountData } from '../../core/model/schemas.js';
import { namesMatch, personName } from './names.js';
import { deepEqual, deleteAt, fingerprint, getAt, present, setAt } from './pointer.js';
import type { RecordSource } from './provider.js';

export type MergeSource = RecordSource | 'vin_decode' | 'insurance';
/** What reconciliation wrote: pointer -> source and a fingerprint of the value (so an unchanged value is recognized without keeping a copy). */
export type Provenance = Record<string, { source: MergeSource; fp: string }>;

/** Record sources, highest precedence first. */
export const PRECEDENCE: readonly RecordSource[] = ['state', 'portal', 'public', 'nmvtis'];

const T = '/vehicle/title';
export const OWNER_FIELDS = ['owners', 'owner_names_one_line', 'number_of_owners', 'conjunction', 'is_and', 'is_or', 'is_tod', 'is_jtwros'].map((f) => `${T}/${f}`);
export const LIEN_FIELDS = ['has_liens', 'active_liens'].map((f) => `${T}/${f}`);
export const TITLE_FIELDS = [
  'number', 'issuing_state', 'issuing_county', 'issuance_date', 'brand', 'brand_code', 'brands', 'odometer_reading', 'odometer_reading_unit',
  'odometer_code', 'odometer_code_translation', 'status', 'status_raw_text', 'prev_action', 'prev_action_raw_text', 'prev_action_date', 'is_electronic',
].map((f) => `${T}/${f}`);
export const VEHICLE_FIELDS = ['year', 'make', 'model', 'body', 'type', 'color', 'fuel_type', 'weight_rating', 'number_of_cylinders'].map((f) => `/vehicle/${f}`);
export const REGISTRATION_FIELDS = ['license_plate', 'license_plate_type', 'registration_status', 'registration_issuance_date', 'registration_expiration_date'].map((f) => `/vehicle/${f}`);

export interface PullRecord { source: RecordSource; ref_id: string; record: AccountData }
export interface DocumentRecord { ref_id: string; doc_type: string; record: AccountData }
export interface SourceRef { kind: 'document_upload' | 'state_portal_pull' | 'nmvtis_pull'; ref_id: string; doc_type: string }
export interface Discrepancy { field_path: string; observations: { from: SourceRef; value: unknown }[] }
export interface Match { field_path: string; agreed_value: unknown; sources: SourceRef[] }

export interface ReconcileInput {
  account_data: AccountData;
  provenance: Provenance;
  pulls: PullRecord[];
  documents?: DocumentRecord[];
  /** Vehicle facts of the VIN decode (lowest precedence). */
  decoded?: Record<string, unknown>;
  /** The policy an insurance search found (fills `vehicle.insurance` when the base has none). */
  insurance?: Record<string, unknown>;
}
export interface ReconcileResult {
  account_data: AccountData;
  provenance: Provenance;
  discrepancies: Discrepancy[];
  matches: Match[];
}

const DOC_TYPES: Record<RecordSource, string> = { nmvtis: 'NMVTIS', state: 'STATE_RECORD', portal: 'DMV_PORTAL', public: 'PUBLIC_DMV' };
const refOf = (p: PullRecord): SourceRef => ({ kind: p.source === 'nmvtis' ? 'nmvtis_pull' : 'state_portal_pull', ref_id: p.ref_id, doc_type: DOC_TYPES[p.source] });
const compactUpper = (v: unknown) => String(v).toUpperCase().replace(/[^A-Z0-9]/g, '');
const title = (d: AccountData) => (d.vehicle?.title ?? undefined) as Record<string, unknown> | undefined;

/**
 * Whether two titles are the same title: same issuing state (when both name
 * one) and the same number, or, when either lacks a number, the same
 * issuance date.
 */
function sameTitle(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const sa = present(a.issuing_state) ? String(a.issuing_state).toUpperCase() : '';
  const sb = present(b.issuing_state) ? String(b.issuing_state).toUpperCase() : '';
  if (sa && sb && sa !== sb) return false;
  if (present(a.number) && present(b.number)) return compactUpper(a.number) === compactUpper(b.number);
  if (present(a.issuance_date) && present(b.issuance_date)) return String(a.issuance_date).slice(0, 10) === String(b.issuance_date).slice(0, 10);
  return false;
}
const TITLE_KEYS = new Set(TITLE_FIELDS.map((p) => p.slice(T.length + 1)));
const titleOnly = (t: Record<string, unknown>) => Object.fromEntries(Object.entries(t).filter(([k, v]) => TITLE_KEYS.has(k) && present(v)));

/** Removes the objects on `ptr`'s path that became empty (deepest first). */
function pruneEmpty(obj: Record<string, unknown>, ptr: string): void {
  const parts = ptr.split('/').slice(1, -1);
  for (let i = parts.length; i > 0; i--) {
    const at = '/' + parts.slice(0, i).join('/');
    const v = getAt(obj, at);
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) deleteAt(obj, at);
    else break;
  }
}

export function reconcile(input: ReconcileInput): ReconcileResult {
  // the base: what the client and documents gave (enrichment's unchanged values removed);
  // every decision reads the base, and the writes are applied to it at the end
  const base = structuredClone(input.account_data ?? {}) as Record<string, unknown>;
  const provenance: Provenance = {};
  for (const [ptr, p] of Object.entries(input.provenance ?? {})) {
    if (p.fp === fingerprint(getAt(base, ptr))) {
      deleteAt(base, ptr);
      pruneEmpty(base, ptr);
    }
  }
  const pulls = [...input.pulls].sort((a, b) => PRECEDENCE.indexOf(a.source) - PRECEDENCE.indexOf(b.source));
  const writes: [string, unknown][] = [];
  const write = (ptr: string, value: unknown, source: MergeSource) => {
    writes.push([ptr, value]);
    provenance[ptr] = { source, fp: fingerprint(value) };
  };
  const has = (d: unknown, ptrs: string[]) => ptrs.some((p) => present(getAt(d, p)));

  // owner, lien and registration facts: by group
  for (const group of [OWNER_FIELDS, LIEN_FIELDS, REGISTRATION_FIELDS]) {
    if (has(base, group)) continue;
    const from = pulls.find((p) => has(p.record, group));
    if (!from) continue;
    for (const ptr of group) {
      const v = getAt(from.record, ptr);
      if (present(v)) write(ptr, v, from.source);
    }
  }

  // vehicle facts: field by field, then the VIN decode
  for (const ptr of VEHICLE_FIELDS) {
    if (present(getAt(base, ptr))) continue;
    const from = pulls.find((p) => present(getAt(p.record, ptr)));
    if (from) write(ptr, getAt(from.record, ptr), from.source);
    else if (input.decoded && present(input.decoded[ptr.slice('/vehicle/'.length)])) write(ptr, input.decoded[ptr.slice('/vehicle/'.length)], 'vin_decode');
  }
  if (input.insurance && !present(getAt(base, '/vehicle/insurance'))) write('/vehicle/insurance', input.insurance, 'insurance');

  // the title chain: the newest title wins
  reconcileTitleChain(base, pulls, write);

  const { discrepancies, matches } = compare(pulls, input.documents ?? []);
  for (const [ptr, value] of writes) setAt(base, ptr, structuredClone(value));
  return { account_data: base as AccountData, provenance, discrepancies, matches };
}

function reconcileTitleChain(base: Record<string, unknown>, pulls: PullRecord[], write: (ptr: string, v: unknown, s: MergeSource) => void): void {
  interface Candidate { source: RecordSource | 'base'; rank: number; t: Record<string, unknown>; date?: string }
  const candidates: Candidate[] = [];
  const bt = title(base as AccountData);
  if (bt && TITLE_FIELDS.some((p) => present(getAt(base, p)))) candidates.push({ source: 'base', rank: -1, t: bt });
  for (const p of pulls) {
    const t = title(p.record);
    if (t && TITLE_FIELDS.some((ptr) => present(getAt(p.record, ptr)))) candidates.push({ source: p.source, rank: PRECEDENCE.indexOf(p.source), t });
  }
  if (!candidates.some((c) => c.source !== 'base')) return;
  // a title without an issuance date takes the date of a dated source describing the same title
  for (const c of candidates) {
    c.date = present(c.t.issuance_date) ? String(c.t.issuance_date).slice(0, 10)
      : (candidates.find((o) => o !== c && present(o.t.issuance_date) && sameTitle(o.t, c.t))?.t.issuance_date as string | undefined)?.slice(0, 10);
  }
  const sorted = [...candidates].sort((a, b) => (a.date && b.date ? b.date.localeCompare(a.date) : a.date ? -1 : b.date ? 1 : 0) || a.rank - b.rank);
  const winner = sorted[0]!;
  // the sources describing the winning title (closed under "same title")
  const group = [winner];
  for (let grew = true; grew;) {
    grew = false;
    for (const c of candidates) {
      if (!group.includes(c) && group.some((g) => sameTitle(c.t, g.t))) {
        group.push(c);
        grew = true;
      }
    }
  }
  group.sort((a, b) => a.rank - b.rank);
  for (const ptr of TITLE_FIELDS) {
    const key = ptr.slice(T.length + 1);
    const from = group.find((c) => present(c.t[key]));
    if (!from || from.source === 'base') continue;
    if (!deepEqual(getAt(base, ptr), from.t[key])) write(ptr, from.t[key], from.source);
  }
  // previous titles: every other title the sources know, newest first, each title once
  const current = { ...titleOnly(winner.t), ...Object.fromEntries(group.flatMap((c) => Object.entries(titleOnly(c.t))).reverse()) };
  const previous: Record<string, unknown>[] = [];
  const addPrev = (t: Record<string, unknown>) => {
    const only = titleOnly(t);
    if (!Object.keys(only).length || sameTitle(only, current)) return;
    const known = previous.find((p) => sameTitle(p, only));
    if (known) for (const [k, v] of Object.entries(only)) known[k] ??= v;
    else previous.push(only);
  };
  for (const c of group) if (Array.isArray(c.t.previous_title)) (c.t.previous_title as Record<string, unknown>[]).forEach(addPrev);
  for (const c of candidates) if (!group.includes(c)) addPrev(c.t);
  for (const c of candidates) if (!group.includes(c) && Array.isArray(c.t.previous_title)) (c.t.previous_title as Record<string, unknown>[]).forEach(addPrev);
  const chain = previous.sort((a, b) => String(b.issuance_date ?? '').localeCompare(String(a.issuance_date ?? '')));
  const basePrev = getAt(base, `${T}/previous_title`);
  if (chain.length && !deepEqual(basePrev, chain) && !(group[0]?.source === 'base' && present(basePrev))) {
    write(`${T}/previous_title`, chain, (group.find((c) => c.source !== 'base') ?? candidates.find((c) => c.source !== 'base'))!.source as RecordSource);
  }
}

/** Fields compared across sources, with how two values are judged equal. */
const COMPARED: [string, (v: unknown) => unknown][] = [
  ['/vehicle/year', (v) => Number(v)],
  ['/vehicle/make', compactUpper],
  ['/vehicle/model', compactUpper],
  ['/vehicle/license_plate', compactUpper],
  [`${T}/number`, compactUpper],
  [`${T}/issuing_state`, compactUpper],
  [`${T}/issuance_date`, (v) => String(v).slice(0, 10)],
  [`${T}/brand`, compactUpper],
  [`${T}/odometer_reading`, (v) => Number(String(v).replace(/[^0-9.]/g, ''))],
  [`${T}/has_liens`, (v) => v === true || v === 'true'],
  [`${T}/number_of_owners`, (v) => Number(v)],
];

function sameOwners(a: unknown, b: unknown): boolean {
  const x = Array.isArray(a) ? a.map((p) => personName(p as never)) : [];
  const y = Array.isArray(b) ? b.map((p) => personName(p as never)) : [];
  return x.length === y.length && x.every((n) => y.some((m) => namesMatch(n, m)));
}
const lienholders = (v: unknown) => (Array.isArray(v) ? v.map((l) => compactUpper((l as { lienholder?: { name?: string } }).lienholder?.name ?? '')).sort() : []);

function compare(pulls: PullRecord[], documents: DocumentRecord[]): { discrepancies: Discrepancy[]; matches: Match[] } {
  const observers: { from: SourceRef; record: AccountData }[] = [
    ...documents.map((d) => ({ from: { kind: 'document_upload' as const, ref_id: d.ref_id, doc_type: d.doc_type }, record: d.record })),
    ...pulls.map((p) => ({ from: refOf(p), record: p.record })),
  ];
  const discrepancies: Discrepancy[] = [];
  const matches: Match[] = [];
  const judge = (field_path: string, same: (a: unknown, b: unknown) => boolean) => {
    const obs = observers.map((o) => ({ from: o.from, value: getAt(o.record, field_path) })).filter((o) => present(o.value) && !(Array.isArray(o.value) && o.value.length === 0 && field_path.endsWith('owners')));
    if (obs.length < 2) return;
    if (obs.every((o) => same(o.value, obs[0]!.value))) matches.push({ field_path, agreed_value: obs[0]!.value, sources: obs.map((o) => o.from) });
    else discrepancies.push({ field_path, observations: obs });
  };
  for (const [ptr, norm] of COMPARED) judge(ptr, (a, b) => deepEqual(norm(a), norm(b)));
  judge(`${T}/owners`, sameOwners);
  judge(`${T}/active_liens`, (a, b) => deepEqual(lienholders(a), lienholders(b)));
  return { discrepancies, matches };
}
