/**
 * Domain rules every stage shares, written once (docs/architecture.md,
 * "Domain rules"): the jurisdictions, the transaction vocabulary and how an
 * entry's transactions are detected, and the state an entry is filed in.
 * Fees, forms, signing, title collection and submission all read these.
 */
import type { TitleEntry } from './entry.js';

/** The 50 states and DC, by two-letter code, sorted. */
export const US_STATES = [
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DC',
  'DE',
  'FL',
  'GA',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;
export const STATE_CODES = US_STATES;
export type StateCode = (typeof STATE_CODES)[number];
export const isStateCode = (code: string): code is StateCode =>
  (STATE_CODES as readonly string[]).includes(code.toUpperCase());

/**
 * The transactions an entry may be (several at once). One vocabulary for
 * every stage; detectTransactions says how each is recognized.
 */
export const TRANSACTION_KINDS = [
  /** `loan.new_lienholder` is present: record a new lien. */
  'new_lien',
  /** `loan.prior_lien` is present: pay off and release the prior lien, record the new one. */
  'refinance',
  /** `loan.add_owner` is not empty. */
  'add_owner',
  /** `loan.drop_owner` is not empty. */
  'drop_owner',
  /** A sale to a new owner: `sale` names a seller or buyers (and is not a repossession). */
  'purchase',
  /** The paper title is lost (`physical_title_status` is `unavailable`, or the title's status says lost/stolen/missing). */
  'duplicate_title',
  /** `sale.type`/`sale.sale_type` is `REPOSSESSION` (or `REPO`), or `txn_quick_reference` says repossession. */
  'repossession',
  /** A lien is released: a lien with `lien_release_signed`, or `account_status` is `account_paid` / `lien_release_*`. */
  'lien_release',
  /** The title's issuing state differs from the state the entry is filed in. */
  'out_of_state_transfer',
  /** Vehicle type `OHV`, `ORV` or `ATV`. */
  'ohv',
  /** Vehicle type `LOW_SPEED`. */
  'low_speed',
  /** Vehicle type `TRAILER`. */
  'trailer',
  /** Vehicle type `BOAT`. */
  'boat',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

const LOST = /\b(lost|stolen|missing|destroyed|mutilated|illegible)\b/i;
const RELEASE_STATUSES = new Set(['account_paid', 'lien_release_pending', 'lien_release_complete']);

/** Whether an object has at least one member with a value. */
export const hasAnyValue = (o: unknown): boolean =>
  !!o &&
  typeof o === 'object' &&
  Object.values(o as Record<string, unknown>).some((v) => v !== null && v !== undefined && v !== '');

/**
 * The state the entry is filed in (its forms, fees and filing office):
 * `account_data.sale.state` when given (the vehicle is being titled there),
 * else the entry's `state`. '' when neither.
 */
export function filingState(entry: Readonly<TitleEntry>): string {
  return String(entry.account_data?.sale?.state ?? entry.state ?? '').toUpperCase();
}

export function isRepossession(entry: Readonly<TitleEntry>): boolean {
  const sale = entry.account_data?.sale;
  return (
    [sale?.type, sale?.sale_type].some((t) => typeof t === 'string' && /^repo/i.test(t)) ||
    /\brepo(ssession)?\b/i.test(entry.account_data?.txn_quick_reference ?? '')
  );
}

/** A lien is being released: a lien with `lien_release_signed`, or the account is paid / in lien release. */
export function isLienRelease(entry: Readonly<TitleEntry>): boolean {
  return (
    (entry.account_data?.vehicle?.title?.active_liens ?? []).some((l) => l?.lien_release_signed) ||
    RELEASE_STATUSES.has(entry.account_status)
  );
}

/** The paper title is lost: `physical_title_status` unavailable, or the title's status says lost, stolen, missing, ... */
export function isTitleLost(entry: Readonly<TitleEntry>): boolean {
  const title = entry.account_data?.vehicle?.title;
  return (
    entry.physical_title_status === 'unavailable' || LOST.test(`${title?.status ?? ''} ${title?.status_raw_text ?? ''}`)
  );
}

/** The entry's transactions, in the order of TRANSACTION_KINDS. */
export function detectTransactions(entry: Readonly<TitleEntry>): TransactionKind[] {
  const ad = entry.account_data ?? {};
  const loan = ad.loan;
  const title = ad.vehicle?.title;
  const sale = ad.sale;
  const type = ad.vehicle?.type ?? 'AUTO';
  const out: TransactionKind[] = [];
  if (hasAnyValue(loan?.new_lienholder)) out.push('new_lien');
  if (hasAnyValue(loan?.prior_lien)) out.push('refinance');
  if (loan?.add_owner?.length) out.push('add_owner');
  if (loan?.drop_owner?.length) out.push('drop_owner');
  const repo = isRepossession(entry);
  if (!repo && (hasAnyValue(sale?.seller) || (sale?.buyer?.length ?? 0) > 0)) out.push('purchase');
  if (isTitleLost(entry)) out.push('duplicate_title');
  if (repo) out.push('repossession');
  if (isLienRelease(entry)) out.push('lien_release');
  const issuing = (title?.issuing_state ?? '').toUpperCase();
  const filing = filingState(entry);
  if (issuing && filing && issuing !== filing) out.push('out_of_state_transfer');
  if (type === 'OHV' || type === 'ORV' || type === 'ATV') out.push('ohv');
  if (type === 'LOW_SPEED') out.push('low_speed');
  if (type === 'TRAILER') out.push('trailer');
  if (type === 'BOAT') out.push('boat');
  return out;
}
