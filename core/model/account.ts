/**
 * The one owner of `account_data` (docs/architecture.md, "Account data").
 *
 * Every source contributes a record with its provenance: the client's
 * requests (one record, every create and PATCH merged into it), each document
 * extraction, each enrichment pull, the VIN decode and the insurance search.
 * Stages never write `account_data`: they contribute or withdraw a record
 * (`ctx.account`), and this merger builds `account_data`, the comparisons
 * (`account_discrepancies`, `account_matches`) and the readable review
 * (`account_review`) from all records, once per checkpoint, under one
 * precedence table (PRECEDENCE below; docs/architecture.md shows it).
 *
 * The client's values are never replaced: where another source disagrees,
 * the client's value stays and the disagreement is recorded. Where a newer
 * title supersedes the one the client described, the review says so.
 */
import { clone } from '../merge.js';
import { namesMatch, personName } from './names.js';
import { deepEqual, getAt, present, setAt } from './pointer.js';
import type { AccountData } from './schemas.js';

export type AccountSourceKind = 'client' | 'document' | 'pull' | 'vin_decode' | 'insurance' | 'plugin';

/** One source's record of account data, with its provenance. */
export interface AccountSource {
  /** Unique on an entry: `client`, `document:<doc_id>`, `pull:<source>`, `vin_decode`, `insurance`, `plugin:<name>`. */
  id: string;
  kind: AccountSourceKind;
  /** A document's `document_type` (VEHICLE_TITLE, ...), a pull's record source (nmvtis, state, portal, public). */
  type?: string;
  /** What comparisons show as `ref_id`: a document's `store_key`, a pull's `<source>:<txn_id>`. */
  ref_id?: string;
  /** When the source said it (ISO 8601): a document's analysis, a pull's fetch. */
  at?: string;
  /** The VIN a pull, decode or search was made for: a record of another VIN takes no part. */
  vin?: string;
  record: AccountData;
}

/** Where a comparison's observation came from (the spec's deprecated `account_discrepancies` shape). */
export interface SourceRef {
  kind: string;
  ref_id: string;
  doc_type: string;
}
export interface Observation {
  from: SourceRef;
  value: unknown;
}
export interface Discrepancy {
  field_path: string;
  observations: Observation[];
}
export interface Match {
  field_path: string;
  agreed_value: unknown;
  sources: SourceRef[];
}

/** A title another source reports that differs from the one the client described. */
export interface OtherTitle {
  source: string;
  /** `newer`: dated after the client's title; `undated`: which is current cannot be told. */
  relation: 'newer' | 'undated';
  title: Record<string, unknown>;
}

/** The readable side of the merge (`account_review` on the entry; beyond the spec, docs/decisions.md). */
export interface AccountReview {
  /** One sentence per disagreement and per superseding title. */
  summary: string[];
  /** Titles other sources report that supersede (or may supersede) the client's. */
  other_titles?: OtherTitle[];
}

export interface MergeOutcome {
  account_data: AccountData;
  /** JSON pointer -> id of the source whose value `account_data` holds (client values are not listed). */
  provenance: Record<string, string>;
  discrepancies: Discrepancy[];
  matches: Match[];
  review: AccountReview | null;
}

/**
 * The precedence table, highest first. Documents of one type: the newest
 * first. A later source fills only what every earlier one left empty, field
 * by field, except for the groups below.
 */
export const PRECEDENCE: readonly { kind: AccountSourceKind; type?: string; label: string }[] = [
  { kind: 'client', label: "the client's request (POST /title, PATCH)" },
  { kind: 'document', type: 'VEHICLE_TITLE', label: 'title document' },
  { kind: 'document', type: 'VEHICLE_REGISTRATION', label: 'registration document' },
  { kind: 'document', type: 'DRIVER_LICENSE_BACK', label: 'driver license (barcode)' },
  { kind: 'document', type: 'DRIVER_LICENSE', label: 'driver license (front)' },
  { kind: 'document', type: 'PAYOFF_LETTER', label: 'payoff letter' },
  { kind: 'document', type: 'VEHICLE_TITLE_BACK', label: 'title (back)' },
  { kind: 'document', type: 'UNKNOWN', label: 'unclassified document' },
  { kind: 'pull', type: 'state', label: 'state record (private)' },
  { kind: 'pull', type: 'portal', label: 'DMV portal (private)' },
  { kind: 'pull', type: 'public', label: 'public DMV' },
  { kind: 'pull', type: 'nmvtis', label: 'NMVTIS' },
  { kind: 'vin_decode', label: 'VIN decode (vehicle facts only)' },
  { kind: 'insurance', label: 'insurance search (vehicle.insurance and its hold only)' },
  { kind: 'plugin', label: 'other plugins (fill what every source above left empty, field by field)' },
];

function rank(s: AccountSource): number {
  const i = PRECEDENCE.findIndex((p) => p.kind === s.kind && (p.type === undefined || p.type === s.type));
  if (i >= 0) return i;
  return s.kind === 'document' ? PRECEDENCE.findIndex((p) => p.type === 'UNKNOWN') : PRECEDENCE.length;
}

/** Sources in precedence order (documents of one type: newest first). */
function byPrecedence(sources: readonly AccountSource[]): AccountSource[] {
  return [...sources].sort(
    (a, b) => rank(a) - rank(b) || (b.at ?? '').localeCompare(a.at ?? '') || a.id.localeCompare(b.id),
  );
}

const T = '/vehicle/title';
/** Owner facts: one source gives the whole group (owners and their conjunction never mix sources). */
export const OWNER_FIELDS = [
  'owners',
  'owner_names_one_line',
  'number_of_owners',
  'conjunction',
  'is_and',
  'is_or',
  'is_tod',
  'is_jtwros',
].map((f) => `${T}/${f}`);
/** Lien facts: one source gives the whole group. */
export const LIEN_FIELDS = ['has_liens', 'active_liens'].map((f) => `${T}/${f}`);
/** The title chain: follows the title the client described, else the newest title. */
export const TITLE_FIELDS = [
  'number',
  'issuing_state',
  'issuing_county',
  'issuance_date',
  'brand',
  'brand_code',
  'brands',
  'odometer_reading',
  'odometer_reading_unit',
  'odometer_code',
  'odometer_code_translation',
  'status',
  'status_raw_text',
  'prev_action',
  'prev_action_raw_text',
  'prev_action_date',
  'is_electronic',
].map((f) => `${T}/${f}`);
/** What identifies a title: a client who gave one of these described a title of his own. */
const IDENTIFYING = [`${T}/number`, `${T}/issuance_date`];
/** Vehicle facts: field by field; the VIN decode last. */
export const VEHICLE_FIELDS = [
  'year',
  'make',
  'model',
  'body',
  'type',
  'color',
  'fuel_type',
  'weight_rating',
  'number_of_cylinders',
].map((f) => `/vehicle/${f}`);
/** Registration facts: a group against pulls (documents fill them field by field). */
export const REGISTRATION_FIELDS = [
  'license_plate',
  'license_plate_type',
  'registration_status',
  'registration_issuance_date',
  'registration_expiration_date',
].map((f) => `/vehicle/${f}`);
const BORROWERS = '/loan/borrower';
const HOLDS = '/vehicle/reg_title_holds';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const compactUpper = (v: unknown) =>
  String(v)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
const has = (d: unknown, ptrs: readonly string[]) => ptrs.some((p) => present(getAt(d, p)));

/** Leaf pointers of a record (objects are walked; arrays and scalars are leaves). */
function leaves(v: unknown, prefix = ''): [string, unknown][] {
  if (!isObj(v)) return present(v) ? [[prefix, v]] : [];
  return Object.entries(v).flatMap(([k, x]) => leaves(x, `${prefix}/${k}`));
}

const PULL_DOC_TYPES: Record<string, string> = {
  nmvtis: 'NMVTIS',
  state: 'STATE_RECORD',
  portal: 'DMV_PORTAL',
  public: 'PUBLIC_DMV',
};

/** How a source appears in comparisons. */
function refOf(s: AccountSource): SourceRef {
  if (s.kind === 'client') return { kind: 'submitted_account_data', ref_id: 'account_data', doc_type: 'ACCOUNT_DATA' };
  if (s.kind === 'document')
    return { kind: 'document_upload', ref_id: s.ref_id ?? s.id, doc_type: s.type ?? 'UNKNOWN' };
  return {
    kind: s.type === 'nmvtis' ? 'nmvtis_pull' : 'state_portal_pull',
    ref_id: s.ref_id ?? s.id,
    doc_type: PULL_DOC_TYPES[s.type ?? ''] ?? String(s.type),
  };
}

/** A source's name in sentences of the review. */
function describeSource(s: AccountSource): string {
  if (s.kind === 'client') return 'the submitted account data';
  if (s.kind === 'document') return `the ${(s.type ?? 'UNKNOWN').toLowerCase().replace(/_/g, ' ')} document`;
  if (s.kind === 'pull')
    return (
      { nmvtis: 'NMVTIS', state: 'the state record', portal: 'the DMV portal', public: 'the public DMV record' }[
        s.type ?? ''
      ] ?? String(s.type)
    );
  if (s.kind === 'plugin') return `the ${s.id.replace(/^plugin:/, '')} plugin`;
  return s.kind === 'vin_decode' ? 'the VIN decode' : 'the insurance search';
}

// ---------------------------------------------------------------------------
// Comparisons

/** Fields compared across sources beyond those documents give, with how two values are judged equal. */
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
const NORMALIZERS = new Map(COMPARED);

const ownerNames = (v: unknown) => (Array.isArray(v) ? v.map((p) => personName(p as never)) : []);
const lienholders = (v: unknown) =>
  Array.isArray(v)
    ? v.map((l) => compactUpper((l as { lienholder?: { name?: string } } | null)?.lienholder?.name ?? '')).sort()
    : [];

/** Whether two observations of `ptr` agree (after normalization). */
export function sameValue(ptr: string, a: unknown, b: unknown): boolean {
  if (ptr.endsWith('/owners')) {
    const x = ownerNames(a);
    const y = ownerNames(b);
    return x.length === y.length && x.every((n) => y.some((m) => namesMatch(n, m)));
  }
  if (ptr.endsWith('/active_liens')) return deepEqual(lienholders(a), lienholders(b));
  const norm = NORMALIZERS.get(ptr);
  if (norm) return deepEqual(norm(a), norm(b));
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  if (typeof a === 'string' && typeof b === 'string') return compactUpper(a) === compactUpper(b);
  return deepEqual(a, b);
}

/** Observations gathered per field while merging; judged once at the end. */
class Comparisons {
  readonly discrepancies: Discrepancy[] = [];
  readonly matches: Match[] = [];
  private readonly seen = new Map<string, Map<string, Observation>>();

  /** Adds observations of `ptr`, one per source (by source id: a source seen before is not added again). */
  add(ptr: string, obs: [AccountSource, unknown][]): void {
    const list = this.seen.get(ptr) ?? new Map<string, Observation>();
    for (const [src, value] of obs) if (!list.has(src.id)) list.set(src.id, { from: refOf(src), value });
    this.seen.set(ptr, list);
  }

  /** Judges every field two sources or more observed: a match when all agree, else a discrepancy. */
  judge(): void {
    for (const [ptr, byId] of this.seen) {
      const obs = [...byId.values()];
      if (obs.length < 2) continue;
      if (obs.every((o) => sameValue(ptr, o.value, obs[0]!.value))) {
        this.matches.push({ field_path: ptr, agreed_value: obs[0]!.value, sources: obs.map((o) => o.from) });
      } else {
        this.discrepancies.push({ field_path: ptr, observations: obs });
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Titles

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
  if (present(a.issuance_date) && present(b.issuance_date))
    return String(a.issuance_date).slice(0, 10) === String(b.issuance_date).slice(0, 10);
  return false;
}
const TITLE_KEYS = new Set(TITLE_FIELDS.map((p) => p.slice(T.length + 1)));
/** The title facts of `t` that are present, in `t`'s order. */
function titleOnly(t: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isObj(t)) for (const k in t) if (TITLE_KEYS.has(k) && present(t[k])) out[k] = t[k];
  return out;
}
const titleOf = (d: unknown) => (isObj(getAt(d, T)) ? (getAt(d, T) as Record<string, unknown>) : undefined);
const titleLabel = (t: Record<string, unknown>) =>
  [
    t.issuing_state,
    t.number ? `title ${String(t.number)}` : 'a title',
    t.issuance_date ? `issued ${String(t.issuance_date).slice(0, 10)}` : 'with no issuance date',
  ]
    .filter(Boolean)
    .join(' ');

// ---------------------------------------------------------------------------
// The merge

type Writes = { set(ptr: string, value: unknown, from: AccountSource): void };

/**
 * Merges every source into `account_data` under the precedence table, and
 * compares the sources. Pure: the sources are not changed.
 */
export function mergeAccountData(sources: readonly AccountSource[]): MergeOutcome {
  const ordered = byPrecedence(sources);
  const client = ordered.find((s) => s.kind === 'client');
  const documents = ordered.filter((s) => s.kind === 'document');
  const data = clone(client?.record ?? {}) as Record<string, unknown>;
  const provenance: Record<string, string> = {};
  // the sources stay untouched: objects and arrays are copied in, scalars need no copy
  const writes: Writes = {
    set(ptr, value, from) {
      setAt(data, ptr, typeof value === 'object' && value !== null ? clone(value) : value);
      provenance[ptr] = from.id;
    },
  };
  const cmp = new Comparisons();
  const clientData = (client?.record ?? {}) as Record<string, unknown>;
  mergeDocuments(clientData, documents, writes, cmp, client);

  // the records of the VIN the client and documents settled on (a pull of an earlier VIN takes no part)
  const vin = typeof getAt(data, '/vehicle/vin') === 'string' ? compactUpper(getAt(data, '/vehicle/vin')) : '';
  const current = (s: AccountSource) => !s.vin || !vin || compactUpper(s.vin) === vin;
  const pulls = ordered.filter((s) => s.kind === 'pull' && current(s));
  const decoded = ordered.find((s) => s.kind === 'vin_decode' && current(s));
  const insurance = ordered.find((s) => s.kind === 'insurance' && current(s));
  const base = clone(data);
  const review: AccountReview = { summary: [] };
  mergeRecords(base, pulls, decoded, insurance, writes);
  mergeTitleChain(base, clientData, pulls, writes, review);
  mergeHolds(data, insurance);
  for (const p of ordered.filter((x) => x.kind === 'plugin')) {
    for (const [ptr, value] of leaves(p.record)) if (!present(getAt(data, ptr))) writes.set(ptr, value, p);
  }

  compareAll(cmp, [...(client ? [client] : []), ...documents, ...pulls]);
  summarize(review, cmp.discrepancies, [...(client ? [client] : []), ...documents, ...pulls], data);
  return {
    account_data: data as AccountData,
    provenance,
    discrepancies: cmp.discrepancies,
    matches: cmp.matches,
    review: review.summary.length || review.other_titles?.length ? review : null,
  };
}

/**
 * Documents fill what the client left empty: owner and lien facts as groups
 * from one document, every other leaf from the first document that has it;
 * the license holder fills the matching borrower (or becomes the borrower).
 */
function mergeDocuments(
  clientData: Record<string, unknown>,
  docs: AccountSource[],
  w: Writes,
  cmp: Comparisons,
  client?: AccountSource,
): void {
  const clientObs = (ptr: string): [AccountSource, unknown][] => {
    const v = getAt(clientData, ptr);
    return client && present(v) ? [[client, v]] : [];
  };
  const seen = new Map<string, { d: AccountSource; value: unknown }[]>();
  for (const d of docs) {
    for (const [ptr, value] of leaves(d.record)) {
      if (ptr === BORROWERS || ptr.startsWith(BORROWERS + '/')) continue;
      if (!seen.has(ptr)) seen.set(ptr, []);
      seen.get(ptr)!.push({ d, value });
    }
  }
  const groups = [OWNER_FIELDS, LIEN_FIELDS];
  const groupSource = new Map(
    groups.map((g) => [g, has(clientData, g) ? null : (docs.find((d) => has(d.record, g)) ?? null)]),
  );
  for (const [ptr, from] of seen) {
    cmp.add(ptr, [...clientObs(ptr), ...from.map((f): [AccountSource, unknown] => [f.d, f.value])]);
    if (present(getAt(clientData, ptr))) continue;
    const g = groups.find((x) => x.some((p) => ptr === p || ptr.startsWith(p + '/')));
    if (g) {
      const src = groupSource.get(g);
      const mine = src && from.find((f) => f.d === src);
      if (mine) w.set(ptr, mine.value, src);
      continue;
    }
    w.set(ptr, from[0]!.value, from[0]!.d);
  }
  // the license holder and the borrowers
  const holderDoc = docs.find((d) => Array.isArray(d.record.loan?.borrower) && d.record.loan!.borrower!.length);
  if (!holderDoc) return;
  const holder = holderDoc.record.loan!.borrower![0]! as Record<string, unknown>;
  const borrowers = getAt(clientData, BORROWERS);
  if (!Array.isArray(borrowers) || borrowers.length === 0) {
    w.set(BORROWERS, [holder], holderDoc);
    return;
  }
  const i = borrowers.findIndex((b) => namesMatch(b as never, holder as never));
  if (i < 0) {
    cmp.discrepancies.push({
      field_path: `${BORROWERS}/0/name`,
      observations: [
        ...(client ? [{ from: refOf(client), value: personName(borrowers[0] as never) || null }] : []),
        { from: refOf(holderDoc), value: holder.name ?? personName(holder as never) },
      ],
    });
    return;
  }
  for (const [leaf, value] of leaves(holder)) {
    const ptr = `${BORROWERS}/${i}${leaf}`;
    if (present(getAt(clientData, ptr))) cmp.add(ptr, [...clientObs(ptr), [holderDoc, value]]);
    else w.set(ptr, value, holderDoc);
  }
}

/** Pulls, the VIN decode and the insurance policy fill what the client and documents (the base) left empty. */
function mergeRecords(
  base: Record<string, unknown>,
  pulls: AccountSource[],
  decoded: AccountSource | undefined,
  insurance: AccountSource | undefined,
  w: Writes,
): void {
  for (const group of [OWNER_FIELDS, LIEN_FIELDS, REGISTRATION_FIELDS]) {
    if (has(base, group)) continue;
    const from = pulls.find((p) => has(p.record, group));
    if (!from) continue;
    for (const ptr of group) {
      const v = getAt(from.record, ptr);
      if (present(v)) w.set(ptr, v, from);
    }
  }
  for (const ptr of VEHICLE_FIELDS) {
    if (present(getAt(base, ptr))) continue;
    const from =
      pulls.find((p) => present(getAt(p.record, ptr))) ??
      (decoded && present(getAt(decoded.record, ptr)) ? decoded : undefined);
    if (from) w.set(ptr, getAt(from.record, ptr), from);
  }
  const policy = insurance ? getAt(insurance.record, '/vehicle/insurance') : undefined;
  if (insurance && present(policy) && !present(getAt(base, '/vehicle/insurance')))
    w.set('/vehicle/insurance', policy, insurance);
}

/** The insurance search's own holds join the others on `reg_title_holds`. */
function mergeHolds(data: Record<string, unknown>, insurance: AccountSource | undefined): void {
  const own = insurance ? getAt(insurance.record, HOLDS) : undefined;
  if (!Array.isArray(own) || !own.length) return;
  const current = getAt(data, HOLDS);
  const others = (Array.isArray(current) ? current : []).filter((h) => !isObj(h) || h.source !== 'insurance');
  const holds = [...others, ...clone(own as Record<string, unknown>[])];
  setAt(data, HOLDS, holds);
  setAt(
    data,
    '/vehicle/has_reg_title_holds',
    holds.some((h) => isObj(h) && !present(h.clear_date)),
  );
}

interface Candidate {
  source: AccountSource | null;
  rank: number;
  t: Record<string, unknown>;
  date?: string;
}

/**
 * The title chain. When the client described a title (its number or
 * issuance date), it stays: sources describing the same title fill what the
 * client left out; a newer title (or one whose order cannot be told) is
 * reported in the review, never written over the client's; older titles go
 * to `previous_title`. Otherwise the newest title (of the documents and
 * pulls) wins, but a title field the client gave keeps the client's value.
 */
function mergeTitleChain(
  base: Record<string, unknown>,
  clientData: Record<string, unknown>,
  pulls: AccountSource[],
  w: Writes,
  review: AccountReview,
): void {
  const candidates: Candidate[] = [];
  const bt = titleOf(base);
  if (bt && has(base, TITLE_FIELDS)) candidates.push({ source: null, rank: -1, t: bt });
  for (const p of pulls) {
    const t = titleOf(p.record);
    if (t && has(p.record, TITLE_FIELDS)) candidates.push({ source: p, rank: rank(p), t });
  }
  if (!candidates.some((c) => c.source)) return;
  for (const c of candidates) {
    c.date = present(c.t.issuance_date)
      ? String(c.t.issuance_date).slice(0, 10)
      : (
          candidates.find((o) => o !== c && present(o.t.issuance_date) && sameTitle(o.t, c.t))?.t.issuance_date as
            string | undefined
        )?.slice(0, 10);
  }
  // the client described a title (its number or issuance date): that title stays the entry's
  const pinned = has(clientData, IDENTIFYING) ? candidates.find((c) => !c.source) : undefined;
  const sorted = [...candidates].sort(
    (a, b) => (a.date && b.date ? b.date.localeCompare(a.date) : a.date ? -1 : b.date ? 1 : 0) || a.rank - b.rank,
  );
  const winner = pinned ?? sorted[0]!;
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
    // a value the client gave is never replaced (the comparisons record a disagreement)
    if (!from?.source || present(getAt(clientData, ptr))) continue;
    if (!deepEqual(getAt(base, ptr), from.t[key])) w.set(ptr, from.t[key], from.source);
  }
  const others = candidates.filter((c) => !group.includes(c));
  if (pinned) {
    for (const c of others) {
      const relation = !c.date ? null : !pinned.date ? 'undated' : c.date > pinned.date ? 'newer' : null;
      if (!relation) continue;
      (review.other_titles ??= []).push({ source: c.source!.id, relation, title: titleOnly(c.t) });
      review.summary.push(
        relation === 'newer'
          ? `${describeSource(c.source!)} reports a newer title (${titleLabel(c.t)}) than the submitted one (${titleLabel(pinned.t)}); the submitted title was kept`
          : `${describeSource(c.source!)} reports ${titleLabel(c.t)}, and the submitted title (${titleLabel({ ...pinned.t, issuance_date: undefined }).replace(/ with no issuance date$/, '')}) has no issuance date to tell which is current; the submitted title was kept`,
      );
    }
  }
  writePreviousTitles(
    base,
    winner,
    group,
    others.filter((c) => !pinned || (c.date && pinned.date && c.date <= pinned.date)),
    candidates,
    w,
  );
}

/** Every other title the sources know goes to `previous_title`, one entry per title, newest first. */
function writePreviousTitles(
  base: Record<string, unknown>,
  winner: Candidate,
  group: Candidate[],
  older: Candidate[],
  all: Candidate[],
  w: Writes,
): void {
  // the winning title as its group describes it (the group is in precedence order: the first that has a fact gives it)
  const current = titleOnly(winner.t);
  for (let i = group.length - 1; i >= 0; i--) Object.assign(current, titleOnly(group[i]!.t));
  const previous: Record<string, unknown>[] = [];
  const addPrev = (t: Record<string, unknown>) => {
    const only = titleOnly(t);
    if (!Object.keys(only).length || sameTitle(only, current)) return;
    const known = previous.find((p) => sameTitle(p, only));
    if (known) for (const [k, v] of Object.entries(only)) known[k] ??= v;
    else previous.push(only);
  };
  // a client's previous_title is loose JSON (the spec types it `any`): only objects in it are titles
  const prevOf = (c: Candidate) =>
    Array.isArray(c.t.previous_title) ? (c.t.previous_title as unknown[]).filter(isObj) : [];
  for (const c of group) prevOf(c).forEach(addPrev);
  for (const c of older) addPrev(c.t);
  for (const c of older) prevOf(c).forEach(addPrev);
  const chain = previous.sort((a, b) => String(b.issuance_date ?? '').localeCompare(String(a.issuance_date ?? '')));
  const basePrev = getAt(base, `${T}/previous_title`);
  if (!chain.length || deepEqual(basePrev, chain) || (!group[0]?.source && present(basePrev))) return;
  const from = group.find((c) => c.source)?.source ?? all.find((c) => c.source)?.source;
  if (from) w.set(`${T}/previous_title`, chain, from);
}

/** Compares the fixed fields across the client, documents and pulls (document leaves were compared while merging). */
function compareAll(cmp: Comparisons, observers: AccountSource[]): void {
  const judge = (ptr: string) => {
    const obs = observers
      .map((o): [AccountSource, unknown] => [o, getAt(o.record, ptr)])
      .filter(([, v]) => present(v) && !(Array.isArray(v) && v.length === 0));
    cmp.add(ptr, obs);
  };
  for (const [ptr] of COMPARED) judge(ptr);
  judge(`${T}/owners`);
  judge(`${T}/active_liens`);
  cmp.judge();
}

const show = (v: unknown) =>
  Array.isArray(v)
    ? v.every((x) => isObj(x) && 'lienholder' in x)
      ? lienholders(v).join(' + ')
      : ownerNames(v).join(' + ')
    : typeof v === 'object' && v !== null
      ? JSON.stringify(v)
      : String(v);

/** One sentence per disagreement: who says what, and which value the entry holds. */
function summarize(
  review: AccountReview,
  discrepancies: Discrepancy[],
  observers: AccountSource[],
  data: Record<string, unknown>,
): void {
  const byRef = new Map(observers.map((s) => [`${refOf(s).kind}|${refOf(s).ref_id}`, s]));
  for (const d of discrepancies) {
    const kept = getAt(data, d.field_path);
    const said = d.observations.map((o) => {
      const s = byRef.get(`${o.from.kind}|${o.from.ref_id}`);
      return `${s ? describeSource(s) : o.from.doc_type} says ${show(o.value)}`;
    });
    const clientSaid = d.observations.some((o) => o.from.kind === 'submitted_account_data');
    const field = d.field_path.slice(1).replace(/\//g, '.');
    review.summary.push(
      `${field}: ${said.join('; ')}; ${clientSaid ? 'the submitted value was kept' : present(kept) ? `the entry holds ${show(kept)}` : 'the entry holds none'}`,
    );
  }
}
