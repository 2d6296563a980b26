/**
 * Test adapter: the merger (core/model/account.ts) fed the way the former
 * per-stage reconciliation was, so unit tests read as before.
 */
import { mergeAccountData, type AccountSource, type MergeOutcome } from '../../core/model/account.js';
import type { AccountData } from '../../core/model/schemas.js';

export interface PullRecord {
  source: 'nmvtis' | 'state' | 'portal' | 'public';
  ref_id: string;
  record: AccountData;
}
export interface DocumentRecord {
  ref_id: string;
  doc_type: string;
  record: AccountData;
  at?: string;
}

export function sourcesFor(input: {
  account_data?: AccountData;
  pulls?: PullRecord[];
  documents?: DocumentRecord[];
  decoded?: Record<string, unknown>;
  insurance?: Record<string, unknown>;
}): AccountSource[] {
  const out: AccountSource[] = [];
  if (input.account_data && Object.keys(input.account_data).length)
    out.push({ id: 'client', kind: 'client', record: input.account_data });
  (input.documents ?? []).forEach((d, i) =>
    out.push({
      id: `document:d${i}`,
      kind: 'document',
      type: d.doc_type,
      ref_id: d.ref_id,
      at: d.at ?? '',
      record: d.record,
    }),
  );
  for (const p of input.pulls ?? [])
    out.push({ id: `pull:${p.source}`, kind: 'pull', type: p.source, ref_id: p.ref_id, record: p.record });
  if (input.decoded) out.push({ id: 'vin_decode', kind: 'vin_decode', record: { vehicle: input.decoded } });
  if (input.insurance)
    out.push({ id: 'insurance', kind: 'insurance', record: { vehicle: { insurance: input.insurance } } });
  return out;
}

export function reconcile(input: Parameters<typeof sourcesFor>[0]): MergeOutcome {
  return mergeAccountData(sourcesFor(input));
}

export interface DocRecord {
  doc_id: string;
  store_key: string;
  document_type: string;
  analyzed_at: string;
  account_data: AccountData;
}

/** The documents' part of the merge: the client's record and document records. */
export function mergeDocuments(input: { account_data: AccountData; documents: DocRecord[] }): MergeOutcome {
  return mergeAccountData([
    ...(Object.keys(input.account_data).length
      ? [{ id: 'client', kind: 'client' as const, record: input.account_data }]
      : []),
    ...input.documents.map((d): AccountSource => ({
      id: `document:${d.doc_id}`,
      kind: 'document',
      type: d.document_type,
      ref_id: d.store_key,
      at: d.analyzed_at,
      record: d.account_data,
    })),
  ]);
}
