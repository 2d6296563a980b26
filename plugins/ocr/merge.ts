/**
 * The merge rule of extracted data into account_data (docs/ocr.md):
 *
 * - What the client submitted wins. The client's data is account_data minus
 *   the values documents wrote earlier (still unchanged) and the values
 *   enrichment wrote (still unchanged); a value the client changed since is
 *   the client's.
 * - Documents fill what the client left empty. Among documents, a title
 *   beats a registration, which beats a license, which beats a payoff letter;
 *   the newest document of a type beats older ones.
 * - Owner facts and lien facts move as groups (as in enrichment's
 *   reconciliation): documents fill a group only when the client gave no
 *   member of it, and the whole group comes from one document.
 * - The license holder fills the borrower: the borrower whose name matches
 *   gets the license's missing members (DOB, address, dlid); with no
 *   borrower at all, the holder becomes the borrower.
 * - Every field seen by two sources or more is compared: agreements go to
 *   account_matches, disagreements to account_discrepancies (the spec's
 *   deprecated shapes; the client's side of a comparison is
 *   `{kind: "submitted_account_data"}`).
 */
import type { AccountData } from '../../core/model/schemas.js';
import { namesMatch } from '../enrichment-common/names.js';
import { deepEqual, deleteAt, getAt, present, setAt } from '../enrichment-common/pointer.js';
import { LIEN_FIELDS, OWNER_FIELDS } from '../enrichment-common/reconcile.js';
import type { DocumentType } from './classify.js';

export interface DocRecord { doc_id: string; store_key: string; document_type: DocumentType; analyzed_at: string; account_data: AccountData }
export type Provenance = Record<string, { value: unknown; doc_id: string }>;
export interface SourceRef { kind: 'document_upload' | 'submitted_account_data'; ref_id: string; doc_type: string }
export interface Discrepancy { field_path: string; observations: { from: SourceRef; value: unknown }[] }
export interface Match { field_path: string; agreed_value: unknown; sources: SourceRef[] }
export interface MergeResult { account_data: AccountData; provenance: Provenance; discrepancies: Discrepancy[]; matches: Match[] }

const RANK: Record<DocumentType, number> = {
  VEHICLE_TITLE: 0, VEHICLE_REGISTRATION: 1, DRIVER_LICENSE_BACK: 2, DRIVER_LICENSE: 3, PAYOFF_LETTER: 4, VEHICLE_TITLE_BACK: 5, UNKNOWN: 6,
};
const CLIENT: SourceRef = { kind: 'submitted_account_data', ref_id: 'account_data', doc_type: 'ACCOUNT_DATA' };
const BORROWERS = '/loan/borrower';
const GROUPS = [OWNER_FIELDS, LIEN_FIELDS];
const groupOf = (ptr: string) => GROUPS.find((g) => g.some((p) => ptr === p || ptr.startsWith(p + '/')));
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf pointers of a record (objects are walked; arrays and scalars are leaves). */
function leaves(v: unknown, prefix = ''): [string, unknown][] {
  if (!isObj(v)) return present(v) ? [[prefix, v]] : [];
  return Object.entries(v).flatMap(([k, x]) => leaves(x, `${prefix}/${k}`));
}

const norm = (v: unknown): unknown => {
  if (typeof v === 'string') return v.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (typeof v === 'number') return v;
  return v;
};
const ownerNames = (v: unknown) => (Array.isArray(v) ? v.map((p) => p as { name?: string }) : []);
function same(ptr: string, a: unknown, b: unknown): boolean {
  if (ptr.endsWith('/owners')) {
    const x = ownerNames(a);
    const y = ownerNames(b);
    return x.length === y.length && x.every((n) => y.some((m) => namesMatch(n, m)));
  }
  if (ptr.endsWith('/active_liens')) {
    const names = (v: unknown) => (Array.isArray(v) ? v.map((l) => String(norm((l as { lienholder?: { name?: string } }).lienholder?.name ?? ''))).sort() : []);
    return deepEqual(names(a), names(b));
  }
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  if (typeof a === 'string' && typeof b === 'string') return norm(a) === norm(b);
  return deepEqual(a, b);
}

const docRef = (d: DocRecord): SourceRef => ({ kind: 'document_upload', ref_id: d.store_key, doc_type: d.document_type });

export function mergeDocuments(input: {
  account_data: AccountData;
  /** The account data the requests behind this job submitted: the client's even where a document wrote the same value before. */
  submitted?: AccountData;
  previous?: Provenance;
  enrichment?: Record<string, { value: unknown }>;
  documents: DocRecord[];
}): MergeResult {
  const data = structuredClone(input.account_data ?? {}) as Record<string, unknown>;
  // the client's data: remove what documents and enrichment wrote, where nobody changed or re-sent it since
  const resent = (ptr: string) => present(getAt(input.submitted ?? {}, ptr));
  for (const [ptr, p] of Object.entries(input.previous ?? {})) if (!resent(ptr) && deepEqual(getAt(data, ptr), p.value)) deleteAt(data, ptr);
  const base = structuredClone(data);
  for (const [ptr, p] of Object.entries(input.enrichment ?? {})) if (!resent(ptr) && deepEqual(getAt(base, ptr), p.value)) deleteAt(base, ptr);

  const docs = [...input.documents].sort((a, b) => RANK[a.document_type] - RANK[b.document_type] || b.analyzed_at.localeCompare(a.analyzed_at));
  const provenance: Provenance = {};
  const discrepancies: Discrepancy[] = [];
  const matches: Match[] = [];
  const compare = (ptr: string, obs: { from: SourceRef; value: unknown }[]) => {
    if (obs.length < 2) return;
    if (obs.every((o) => same(ptr, o.value, obs[0]!.value))) matches.push({ field_path: ptr, agreed_value: obs[0]!.value, sources: obs.map((o) => o.from) });
    else discrepancies.push({ field_path: ptr, observations: obs });
  };
  const write = (ptr: string, value: unknown, d: DocRecord) => {
    setAt(data, ptr, structuredClone(value));
    provenance[ptr] = { value: structuredClone(value), doc_id: d.doc_id };
  };

  // every leaf any document gives, in the order documents rank
  const seen = new Map<string, { d: DocRecord; value: unknown }[]>();
  for (const d of docs) {
    for (const [ptr, value] of leaves(d.account_data)) {
      if (ptr === BORROWERS || ptr.startsWith(BORROWERS + '/')) continue;
      if (!seen.has(ptr)) seen.set(ptr, []);
      seen.get(ptr)!.push({ d, value });
    }
  }
  const groupSource = new Map<string[], DocRecord | null>();
  for (const g of GROUPS) {
    const clientHasGroup = g.some((p) => present(getAt(base, p)));
    groupSource.set(g, clientHasGroup ? null : docs.find((d) => g.some((p) => present(getAt(d.account_data, p)))) ?? null);
  }
  for (const [ptr, from] of seen) {
    const clientValue = getAt(base, ptr);
    const obs = [...(present(clientValue) ? [{ from: CLIENT, value: clientValue }] : []), ...from.map((f) => ({ from: docRef(f.d), value: f.value }))];
    compare(ptr, obs);
    if (present(clientValue)) continue;
    const g = groupOf(ptr);
    if (g) {
      const src = groupSource.get(g);
      const mine = src && from.find((f) => f.d === src);
      if (mine) write(ptr, mine.value, src);
      continue;
    }
    write(ptr, from[0]!.value, from[0]!.d);
  }

  // the license holder and the borrowers
  const holderDoc = docs.find((d) => Array.isArray(d.account_data.loan?.borrower) && d.account_data.loan!.borrower!.length);
  if (holderDoc) {
    const holder = holderDoc.account_data.loan!.borrower![0]! as Record<string, unknown>;
    const borrowers = getAt(base, BORROWERS);
    if (!Array.isArray(borrowers) || borrowers.length === 0) {
      write(BORROWERS, [holder], holderDoc);
    } else {
      const i = borrowers.findIndex((b) => namesMatch(b as never, holder as never));
      if (i < 0) {
        discrepancies.push({ field_path: `${BORROWERS}/0/name`, observations: [{ from: CLIENT, value: (borrowers[0] as { name?: string }).name ?? null }, { from: docRef(holderDoc), value: holder.name }] });
      } else {
        for (const [leaf, value] of leaves(holder)) {
          const ptr = `${BORROWERS}/${i}${leaf}`;
          const clientValue = getAt(base, ptr);
          if (present(clientValue)) compare(ptr, [{ from: CLIENT, value: clientValue }, { from: docRef(holderDoc), value }]);
          else write(ptr, value, holderDoc);
        }
      }
    }
  }
  return { account_data: data as AccountData, provenance, discrepancies, matches };
}

type Item = { field_path: string; observations?: { from: SourceRef | { kind: string; ref_id: string; doc_type: string }; value: unknown }[]; agreed_value?: unknown; sources?: { kind: string; ref_id: string; doc_type: string }[] };
const observationsOf = (i: Item) => i.observations ?? (i.sources ?? []).map((from) => ({ from, value: i.agreed_value }));
const hasClient = (i: Item) => observationsOf(i).some((o) => o.from.kind === CLIENT.kind);

/**
 * For whoever rewrites account_discrepancies / account_matches after this
 * stage (enrichment's reconciliation compares documents and pulls): folds
 * the comparisons with the client's submitted data, which only this stage
 * makes, into the new lists. A field both lists hold is judged again over
 * every observation.
 */
export function keepSubmittedComparisons(previous: { discrepancies?: unknown; matches?: unknown }, next: { discrepancies: Item[]; matches: Item[] }): { discrepancies: Item[]; matches: Item[] } {
  const items = (v: unknown) => ((v as { items?: Item[] } | undefined)?.items ?? []).filter(hasClient);
  const mine = [...items(previous.discrepancies), ...items(previous.matches)];
  if (!mine.length) return next;
  const byPath = new Map<string, { from: Item['observations'] extends (infer O)[] | undefined ? O extends { from: infer F } ? F : never : never; value: unknown }[]>();
  for (const i of [...mine, ...next.discrepancies, ...next.matches]) {
    const list = byPath.get(i.field_path) ?? [];
    for (const o of observationsOf(i)) if (!list.some((x) => x.from.kind === o.from.kind && x.from.ref_id === o.from.ref_id)) list.push(o);
    byPath.set(i.field_path, list);
  }
  const discrepancies: Item[] = [];
  const matches: Item[] = [];
  for (const [field_path, obs] of byPath) {
    if (obs.every((o) => same(field_path, o.value, obs[0]!.value))) matches.push({ field_path, agreed_value: obs[0]!.value, sources: obs.map((o) => o.from) });
    else discrepancies.push({ field_path, observations: obs });
  }
  return { discrepancies, matches };
}
