/**
 * The fee calculator: a pure function from a state's fee data and the
 * estimate's inputs to the spec's EstFees (docs/fees.md). No clock, no I/O:
 * the same inputs always give the same estimate.
 *
 * Money is integer cents throughout; section totals are sums of item cents
 * (credits subtracted), so they add up exactly; dollars appear only in the
 * output (`value`, `total`, `taxable_amount`, `max`), each exactly cents / 100.
 */
import {
  FEE_TRANSACTION_ALIASES,
  FEE_TRANSACTIONS,
  type FeeTransaction,
  type StateFeeSchedule,
} from '../../states/fee-schema.js';
import { placeKey, type StateLocalData } from '../../states/local-schema.js';
import type { Ctx } from './context.js';
import { formatUsd, toDollars } from './money.js';
import { registrationSection } from './registration.js';
import { addressOut, countyFees, countyOffice, officeOut, resolveCounty } from './local.js';
import { feeSchedule, localSchedule } from './schedules.js';
import { taxSection } from './tax.js';
import { titleSection } from './title.js';
import type { EstFees, FeeInput, FeeItemOut, SubmissionInstructionsOut } from './types.js';

const CALCULATOR_VERSION = 'titled-fees/1';

/** Section total in cents: items added, `subtract` items subtracted, unknown amounts left out (the estimate says so). */
export function sectionCents(items: readonly FeeItemOut[]): number {
  let sum = 0;
  for (const i of items) {
    const c = i.metadata.cents;
    if (c !== null) sum += i.subtract ? -c : c;
  }
  return sum;
}

/** The input's transactions, in FEE_TRANSACTIONS order (default `new_lien`). */
export function transactionsOf(input: Pick<FeeInput, 'transaction'>): FeeTransaction[] {
  // one transaction named (the usual input): no lists to build and filter
  if (input.transaction === undefined) return ['new_lien'];
  if (typeof input.transaction === 'string') {
    const t = FEE_TRANSACTION_ALIASES[input.transaction] ?? input.transaction;
    if ((FEE_TRANSACTIONS as readonly string[]).includes(t)) return [t as FeeTransaction];
  }
  const raw =
    input.transaction === undefined
      ? ['new_lien']
      : typeof input.transaction === 'string'
        ? [input.transaction]
        : input.transaction;
  const given = raw.map((t) => FEE_TRANSACTION_ALIASES[t] ?? t);
  for (const t of given)
    if (!(FEE_TRANSACTIONS as readonly string[]).includes(t))
      throw new TypeError(`unknown transaction '${t}' (one of ${FEE_TRANSACTIONS.join(', ')})`);
  const out = FEE_TRANSACTIONS.filter((t) => given.includes(t));
  return out.length ? out : ['new_lien'];
}

function firstInState(input: FeeInput): boolean | undefined {
  const v = input.vehicle;
  if (v?.new === true) return true;
  // the same string needs no case folding (the usual case: a title of the estimate's state)
  if (v?.title_state) return v.title_state !== input.state && v.title_state.toUpperCase() !== input.state.toUpperCase();
  return undefined;
}

/** Lines naming what the estimate could not price because the data does not model it (docs/fees.md). */
function notModelled(ctx: Ctx, sections: readonly FeeItemOut[][], office: boolean, payableTo: string): string[] {
  const out: string[] = [];
  const t = ctx.s.tax;
  const purchase = ctx.tx.has('new_lien') || ctx.tx.has('purchase');
  const stateWide = purchase && t.base !== 'none' && t.local?.applies.value && !ctx.local?.sales_tax;
  if (stateWide) out.push(`tax: local sales tax: county and city rates are not modelled for ${ctx.s.state}`);
  for (const items of sections) {
    for (const i of items) {
      if (i.value !== null || !i.metadata.reason?.includes('not modelled')) continue;
      if (stateWide && i.feeType === 'LocalTax') continue; // said once above
      out.push(`${i.feeType}: ${i.name} (${i.metadata.reason})`);
    }
  }
  if (ctx.local?.offices && !office) {
    const whose = ctx.county ? `${ctx.county} County's filing office` : 'the county (so its filing office)';
    out.push(
      `submission: ${whose} is not modelled; submission_instructions show the state default (${payableTo}), which may not be the borrower's county`,
    );
  }
  return out;
}

/** One line per item whose figure is unsourced, with the amount shown but not counted. */
function unsourcedLines(sections: readonly FeeItemOut[][]): string[] {
  const out: string[] = [];
  for (const items of sections) {
    for (const i of items) {
      if (!i.metadata.unsourced) continue;
      const c = i.metadata.unsourced_cents;
      out.push(`${i.feeType}: ${i.name}${typeof c === 'number' ? ` (${formatUsd(c)} not counted)` : ''}`);
    }
  }
  return out;
}

function submission(s: StateFeeSchedule): SubmissionInstructionsOut {
  return { payable_to: s.submission_instructions.payable_to, address: addressOut(s.submission_instructions.address) };
}

type Office = ReturnType<typeof countyOffice>;

/** `metadata.submission`: who processes the filing, and the source of the address given. */
function submissionMeta(ctx: Ctx, office: Office): EstFees['metadata']['submission'] {
  const si = ctx.s.submission_instructions;
  if (office) {
    const o = office.office;
    const note = o.note ?? ctx.local?.offices?.note ?? null;
    return { processed_by: 'county', county: office.key, src: { url: o.src.url, date: o.src.date }, note };
  }
  const src = si.src ? { url: si.src.url, date: si.src.date } : null;
  const offices = ctx.local?.offices;
  if (!offices) return { processed_by: si.processed_by, src, note: si.note ?? null };
  const known = ctx.county ? `${ctx.county} County's office is not in the data shipped` : 'The county is not known';
  const note = `${offices.note} ${known}: the state's default address is given.`;
  return { processed_by: si.processed_by, county: null, src, note };
}

/**
 * Estimates tax, registration and title fees.
 *
 * @param input what is known about the transaction; `as_of` (YYYY-MM-DD) is required.
 * @param schedule the state's fee data (default: `states/<code>/fees.json`, loaded once and cached).
 * @throws TypeError for an unknown state or transaction, or a missing `as_of`.
 */
export function estimateFees(input: FeeInput, schedule?: StateFeeSchedule, localData?: StateLocalData | null): EstFees {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.as_of ?? '')) throw new TypeError('as_of must be a date YYYY-MM-DD');
  const s = schedule ?? feeSchedule(input.state);
  if (s.state !== input.state && s.state !== input.state.toUpperCase())
    throw new TypeError(`fee data for ${s.state} given for state ${input.state}`);
  const local = localData === undefined ? localSchedule(s.state) : localData;
  if (local && local.state !== s.state)
    throw new TypeError(`local fee data for ${local.state} given for state ${s.state}`);
  const transactions = transactionsOf(input);
  const where = resolveCounty(input, local);
  const city = input.city?.trim() ?? '';
  const ctx: Ctx = {
    s,
    input,
    tx: new Set(transactions),
    local,
    countyWhy: where.why,
    county: where.county,
    city,
    countyKey: where.county ? placeKey(where.county) : '',
    cityKey: city ? placeKey(city) : '',
    firstInState: firstInState(input),
    asOfYear: Number(input.as_of.slice(0, 4)),
    regValueCents: null,
    regWeightLbs: null,
    unknown: [],
    notIncluded: [],
    assumptions: [],
  };
  // registration first: its value base decides conditional fees (CA TIF)
  const registration = registrationSection(ctx);
  countyFees(ctx, 'registration', registration.items);
  const title = titleSection(ctx);
  if (title.items.length) countyFees(ctx, 'title', title.items);
  const tax = taxSection(ctx);
  const cents = {
    tax: sectionCents(tax.items),
    registration: sectionCents(registration.items),
    title: sectionCents(title.items),
    total: 0,
  };
  cents.total = cents.tax + cents.registration + cents.title;
  const office = countyOffice(ctx);
  const si = office ? officeOut(office.office) : submission(s);
  const all = [tax.items, registration.items, title.items];
  const metadata: EstFees['metadata'] = {
    state: s.state,
    county: ctx.county,
    city: ctx.city,
    county_source: where.source,
    transactions,
    as_of: input.as_of,
    unit: 'USD',
    complete: ctx.unknown.length === 0,
    unknown: ctx.unknown,
    not_included: ctx.notIncluded,
    assumptions: ctx.assumptions,
    totals_cents: cents,
    total: toDollars(cents.total),
    registration_term_months: s.registration.term_months,
    unsourced: unsourcedLines(all),
    not_modelled: notModelled(ctx, all, office !== undefined, si.payable_to),
    submission: submissionMeta(ctx, office),
    fee_data_last_updated: s.last_updated,
    calculator: CALCULATOR_VERSION,
  };
  return {
    tax: {
      taxable_amount: toDollars(tax.taxableCents),
      total: toDollars(cents.tax),
      items: tax.items,
      submission_instructions: si,
    },
    registration: { total: toDollars(cents.registration), items: registration.items },
    title: { total: toDollars(cents.title), items: title.items },
    submission_instructions: { payable_to: si.payable_to, address: addressOut(si.address) },
    metadata: input.zip ? withZip(metadata, input.zip) : metadata,
  };
}

/** The metadata with `zip` after `county_source` (where the output has always had it). */
function withZip(m: EstFees['metadata'], zip: string): EstFees['metadata'] {
  const { state, county, city, county_source, ...rest } = m;
  return { state, county, city, county_source, zip, ...rest };
}
