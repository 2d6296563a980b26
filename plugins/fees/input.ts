/**
 * From a title entry to the calculator's input (docs/fees.md, "From an entry").
 */
import {
  filingState,
  hasAnyValue as present,
  isLienRelease,
  isRepossession,
  isTitleLost,
  type TitleEntry,
} from '../../core/plugin-api.js';
import type { FeeTransaction } from '../../states/fee-schema.js';
import { isStateCode } from './schedules.js';
import type { FeeInput, FuelKind, HistoryItem, VehicleType } from './types.js';

/** "3,450 lbs" -> 3450; numbers pass; anything else undefined. */
export function parseNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /(\d[\d,]*(?:\.\d+)?)/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

export function fuelKind(fuel: unknown): FuelKind | undefined {
  if (typeof fuel !== 'string' || !fuel.trim()) return undefined;
  const f = fuel.toLowerCase();
  if (/plug[- ]?in/.test(f) || /\bphev\b/.test(f)) return 'plug_in_hybrid';
  if (/hybrid|\bhev\b/.test(f)) return 'hybrid';
  if (/electric|\bbev\b|\bev\b|battery/.test(f)) return 'electric';
  return 'other';
}

/** The state whose fees apply: `sale.state` when given (the vehicle is titled there), else the entry's `state`. */
export function feeState(entry: Readonly<TitleEntry>): string {
  return filingState(entry);
}

/**
 * The fee transactions of an entry, in this order of rules:
 * 1. repossession: `sale.type`/`sale.sale_type` starts with REPO, or `txn_quick_reference` says repossession;
 * 2. lien release: an active lien has `lien_release_signed`, or `account_status` is account_paid / lien_release_*;
 * 3. a sale (price, date, seller or buyers): `new_lien` when `loan.new_lienholder` is given, else `purchase`;
 * 4. no sale, and `loan.prior_lien` or `loan.new_lienholder`: `refinance` (a lien added to the existing title);
 * 5. otherwise `new_lien` (the lender's usual case).
 * `duplicate_title` is added when the paper title is lost (`physical_title_status` unavailable, or the title's status says lost/stolen/...).
 */
export function feeTransactions(entry: Readonly<TitleEntry>): FeeTransaction[] {
  const ad = entry.account_data ?? {};
  const sale = ad.sale;
  const loan = ad.loan;
  const out: FeeTransaction[] = [];
  const repo = isRepossession(entry);
  const hasSale =
    !!sale &&
    (typeof sale.sale_price === 'number' ||
      !!sale.date_of_sale ||
      present(sale.seller) ||
      (sale.buyer?.length ?? 0) > 0);
  if (repo) out.push('repossession');
  else if (isLienRelease(entry)) out.push('lien_release');
  else if (hasSale) out.push(present(loan?.new_lienholder) ? 'new_lien' : 'purchase');
  else if (present(loan?.prior_lien) || present(loan?.new_lienholder)) out.push('refinance');
  else out.push('new_lien');
  if (isTitleLost(entry)) out.push('duplicate_title');
  return out;
}

/** YYYY-MM-DD from `2026-03-01`, `2026-03-01T...`, `03/01/2026` or `03-01-2026`; undefined otherwise. */
export function isoDate(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v.trim());
  const iso = m
    ? `${m[1]}-${m[2]}-${m[3]}`
    : (m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(v.trim()))
      ? `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`
      : undefined;
  return iso && !Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) ? iso : undefined;
}

const VEHICLE_TYPES = new Set(['AUTO', 'OHV', 'MOTORCYCLE', 'TRAILER', 'BOAT', 'LOW_SPEED', 'ORV', 'ATV']);

/** The calculator's input for an entry, or null when the entry names no state the fee data covers. */
export function feeInputFromEntry(entry: Readonly<TitleEntry>, asOf: string): FeeInput | null {
  const state = feeState(entry);
  if (!isStateCode(state)) return null;
  const ad = entry.account_data ?? {};
  const v = ad.vehicle ?? {};
  const sale = ad.sale ?? {};
  const extra = (o: object, ...keys: string[]): unknown =>
    keys.map((k) => (o as Record<string, unknown>)[k]).find((x) => x !== undefined && x !== null);
  const addr = sale.buyer?.[0]?.addr ?? ad.loan?.borrower?.[0]?.addr;
  const input: FeeInput = { state, transaction: feeTransactions(entry), as_of: asOf, vehicle: {}, sale: {} };
  // the borrower's county: given in the address, else from the address's ZIP (the calculator's
  // ZIP table); the title's issuing county only when the address has neither
  const zip = typeof addr?.zip === 'string' ? addr.zip.trim() : '';
  if (zip) input.zip = zip;
  const county = addr?.county ?? (zip ? undefined : v.title?.issuing_county);
  if (county) input.county = county;
  if (addr?.city) input.city = addr.city;
  const type = typeof v.type === 'string' && VEHICLE_TYPES.has(v.type) ? (v.type as VehicleType) : undefined;
  const vehicle = input.vehicle!;
  if (type) vehicle.type = type;
  if (typeof v.year === 'number') vehicle.year = v.year;
  const weight = parseNumber(v.weight_unladen ?? v.weight);
  if (weight !== undefined) vehicle.weight_lbs = weight;
  const gross = parseNumber(v.weight_gross ?? v.weight_rating);
  if (gross !== undefined) vehicle.gross_weight_lbs = gross;
  const value = parseNumber(extra(v, 'value', 'market_value'));
  if (value !== undefined) vehicle.value = value;
  const msrp = parseNumber(extra(v, 'msrp'));
  if (msrp !== undefined) vehicle.msrp = msrp;
  const fuel = fuelKind(v.fuel_type);
  if (fuel) vehicle.fuel = fuel;
  if ([sale.type, sale.sale_type].some((t) => typeof t === 'string' && t.toUpperCase() === 'NEW')) vehicle.new = true;
  if (v.title?.issuing_state) vehicle.title_state = v.title.issuing_state;
  if (typeof sale.sale_price === 'number') input.sale!.price = sale.sale_price;
  const date = isoDate(sale.date_of_sale);
  if (date) input.sale!.date = date;
  const tradeIn = parseNumber(extra(sale, 'trade_in', 'trade_in_value', 'trade_in_allowance'));
  if (tradeIn !== undefined) input.sale!.trade_in = tradeIn;
  if (Array.isArray(v.fee_history) && v.fee_history.length) input.fee_history = v.fee_history as HistoryItem[];
  return input;
}
