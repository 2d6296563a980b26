/**
 * Which transactions an entry is (docs/forms.md, "Transactions"), and the
 * state whose forms it files.
 */
import type { TitleEntry } from '../../core/model/entry.js';
import type { Transaction } from '../../states/types.js';

const LOST = /\b(lost|stolen|missing|destroyed|mutilated|illegible)\b/i;
const RELEASE_STATUSES = new Set(['account_paid', 'lien_release_pending', 'lien_release_complete']);

const present = (o: unknown): boolean => !!o && typeof o === 'object' && Object.values(o as Record<string, unknown>).some((v) => v !== null && v !== undefined && v !== '');

/**
 * The state the forms are filed in: `account_data.sale.state` when given (the
 * vehicle is being titled there), else the entry's `state`. '' when neither.
 */
export function filingState(entry: Readonly<TitleEntry>): string {
  return (entry.account_data.sale?.state ?? entry.state ?? '').toUpperCase();
}

export function isRepossession(entry: Readonly<TitleEntry>): boolean {
  const sale = entry.account_data.sale;
  return [sale?.type, sale?.sale_type].some((t) => typeof t === 'string' && /^repo/i.test(t))
    || /\brepo(ssession)?\b/i.test(entry.account_data.txn_quick_reference ?? '');
}

/** The entry's transactions, in the order of `TRANSACTIONS`. */
export function detectTransactions(entry: Readonly<TitleEntry>): Transaction[] {
  const ad = entry.account_data;
  const loan = ad.loan;
  const title = ad.vehicle?.title;
  const sale = ad.sale;
  const type = ad.vehicle?.type ?? 'AUTO';
  const out: Transaction[] = [];
  if (present(loan?.new_lienholder)) out.push('new_lien');
  if (present(loan?.prior_lien)) out.push('refinance');
  if (loan?.add_owner?.length) out.push('add_owner');
  if (loan?.drop_owner?.length) out.push('drop_owner');
  const repo = isRepossession(entry);
  if (!repo && (present(sale?.seller) || (sale?.buyer?.length ?? 0) > 0)) out.push('purchase');
  if (entry.physical_title_status === 'unavailable' || LOST.test(`${title?.status ?? ''} ${title?.status_raw_text ?? ''}`)) out.push('duplicate_title');
  if (repo) out.push('repossession');
  if ((title?.active_liens ?? []).some((l) => l.lien_release_signed) || RELEASE_STATUSES.has(entry.account_status)) out.push('lien_release');
  const issuing = (title?.issuing_state ?? '').toUpperCase();
  const filing = filingState(entry);
  if (issuing && filing && issuing !== filing) out.push('out_of_state_transfer');
  if (type === 'OHV' || type === 'ORV' || type === 'ATV') out.push('ohv');
  if (type === 'LOW_SPEED') out.push('low_speed');
  if (type === 'TRAILER') out.push('trailer');
  if (type === 'BOAT') out.push('boat');
  return out;
}
