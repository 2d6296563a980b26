/**
 * Which states and transactions need the original paper title returned to the
 * lender (issue 15): the `title-collection` plugin reads this table to decide
 * whether an entry gets a title collection. One rule per state; a state not
 * listed follows DEFAULT_TITLE_RETURN, which is marked unsourced.
 *
 * - `transactions`: the entry's transactions (core's vocabulary) for which the
 *   state's application is filed with the current paper title surrendered.
 * - `electronic_titles`: the state keeps electronic titles (ELT); an entry whose
 *   title is electronic (`vehicle.title.is_electronic`) has nothing on paper, so
 *   no collection is made and `physical_title_status` is `skipped`.
 * - `src`: the state's own page that says so, or `unsourced` with why.
 */
import type { TransactionKind, TitleEntry } from '../core/plugin-api-model.js';
import { detectTransactions, filingState } from '../core/plugin-api-pure.js';

export type TitleReturnSource = { url: string; note: string } | { unsourced: string };

export interface TitleReturnRule {
  transactions: readonly TransactionKind[];
  electronic_titles: boolean;
  src: TitleReturnSource;
}

/** Every state not listed below (unsourced: the usual practice, not checked against each state's publications). */
export const DEFAULT_TITLE_RETURN: TitleReturnRule = {
  transactions: ['new_lien', 'refinance', 'add_owner', 'drop_owner', 'purchase', 'out_of_state_transfer'],
  electronic_titles: false,
  src: {
    unsourced:
      'general practice: a lien or owner change is recorded by surrendering the current title; not checked per state',
  },
};

export const TITLE_RETURN_RULES: Readonly<Record<string, TitleReturnRule>> = {
  CA: {
    transactions: ['new_lien', 'refinance', 'add_owner', 'drop_owner', 'purchase', 'out_of_state_transfer'],
    electronic_titles: true,
    src: {
      url: 'https://www.dmv.ca.gov/portal/es/handbook/vehicle-industry-registration-procedures-manual-2/transfers/legal-owner-lienholder-transfers/',
      note:
        'California DMV, Vehicle Industry Registration Procedures Manual 11.090: a lienholder change or a sole owner ' +
        'adding a lienholder submits the Certificate of Title endorsed (line 2, new lienholder on the back); ' +
        'manual 1.050 describes the ELT program (an electronic ownership record in lieu of a paper title).',
    },
  },
  TX: {
    transactions: ['new_lien', 'refinance', 'add_owner', 'drop_owner', 'purchase', 'out_of_state_transfer'],
    electronic_titles: true,
    src: {
      url: 'https://www.txdmv.gov/motorists/buying-or-selling-a-vehicle/add-remove-lien',
      note:
        'TxDMV, "Add or Remove a Lien on a Vehicle": to add a lien you need the vehicle title and Form 130-U; ' +
        'a lien recorded electronically keeps the title record electronic at TxDMV.',
    },
  },
  FL: {
    transactions: ['new_lien', 'refinance', 'add_owner', 'drop_owner', 'purchase', 'out_of_state_transfer'],
    electronic_titles: true,
    src: {
      url: 'https://www.flhsmv.gov/motor-vehicles-tags-titles/electronic-lien-titles/',
      note:
        'FLHSMV, "Electronic Lien and Titles": the same title documents as for a paper title are required; ' +
        'an electronic title exists only in the department database (no paper title certificate exists).',
    },
  },
};

export type TitleReturnNeed =
  | { need: 'original'; state: string; transactions: TransactionKind[]; rule: TitleReturnRule }
  | { need: 'electronic'; state: string; rule: TitleReturnRule }
  | { need: 'none'; state: string; reason: string };

export function titleReturnRule(state: string): TitleReturnRule {
  return TITLE_RETURN_RULES[state.toUpperCase()] ?? DEFAULT_TITLE_RETURN;
}

/** Whether the entry's state and transactions need the original paper title returned. */
export function titleReturnNeed(entry: Readonly<TitleEntry>): TitleReturnNeed {
  const state = filingState(entry);
  if (!state) return { need: 'none', state, reason: 'the entry has no state' };
  const rule = titleReturnRule(state);
  const title = entry.account_data?.vehicle?.title;
  if (title?.is_electronic === true) return { need: 'electronic', state, rule };
  const txns = detectTransactions(entry).filter((t) => rule.transactions.includes(t));
  if (txns.length === 0)
    return { need: 'none', state, reason: `no transaction of the entry needs the original title in ${state}` };
  return { need: 'original', state, transactions: txns, rule };
}
