/**
 * The fee calculator's vocabulary: what it takes (FeeInput) and what it gives
 * (EstFees, the spec's `fee_estimate`). docs/fees.md explains every member.
 *
 * Units: inputs and every money number of the output are US DOLLARS (the
 * unit of `sale.sale_price` in the spec), always exactly a whole number of
 * cents. The calculator works in integer cents and divides by 100 only when
 * it writes the output; `metadata.cents` of each item carries the integer.
 */
import type { FeeTransaction } from '../../states/fee-schema.js';

/** A transaction as the fee input takes it: core's name, or its old fee name (`transfer`, `duplicate`). */
type FeeTransactionInput = FeeTransaction | 'transfer' | 'duplicate';

export type VehicleType = 'AUTO' | 'OHV' | 'MOTORCYCLE' | 'TRAILER' | 'BOAT' | 'LOW_SPEED' | 'ORV' | 'ATV';
export type FuelKind = 'electric' | 'hybrid' | 'plug_in_hybrid' | 'other';

/** What an estimate is computed from. Money in dollars; unknown members are simply absent. */
export interface FeeInput {
  /** Two-letter code of the state where the vehicle is titled and registered. */
  state: string;
  /** County of residence of the buyer/borrower (overrides of county figures are looked up by it). */
  county?: string;
  city?: string;
  /** ZIP of the buyer's/borrower's address: finds the county when `county` is not given (states/<code>/local.json `zip_counties`). */
  zip?: string;
  /** The transaction, or several (e.g. `['refinance', 'duplicate_title']`; `transfer` and `duplicate` are accepted as their old names). Default `new_lien`. */
  transaction?: FeeTransactionInput | readonly FeeTransactionInput[];
  vehicle?: {
    type?: VehicleType;
    /** Model year. */
    year?: number;
    /** Empty (curb/unladen) weight, lbs. */
    weight_lbs?: number;
    /** Gross vehicle weight (rating), lbs. */
    gross_weight_lbs?: number;
    /** Market / presumptive value (e.g. TX SPV, GA fair market value, NADA value), dollars. */
    value?: number;
    /** Original MSRP (value-based registration in MI, AZ, CO ...), dollars. */
    msrp?: number;
    fuel?: FuelKind;
    /** A new vehicle (first title from a manufacturer's certificate of origin). */
    new?: boolean;
    /** State that issued the current title; another state than `state` means the first title here. */
    title_state?: string;
  };
  sale?: {
    /** Sale price, dollars. */
    price?: number;
    /** Date of sale, YYYY-MM-DD (late fees count from it). */
    date?: string;
    /** Trade-in allowance, dollars. */
    trade_in?: number;
  };
  /** Fees paid before for this vehicle (`vehicle.fee_history`): the last registration amount stands in when the rule's inputs are unknown. */
  fee_history?: readonly HistoryItem[];
  /** The day the estimate is for, YYYY-MM-DD (vehicle age, late fees). Required: the calculator reads no clock. */
  as_of: string;
}

/** A FeeItem of `vehicle.fee_history` (only the members the calculator reads). */
export interface HistoryItem {
  feeType?: string | null;
  name?: string | null;
  value?: number | null;
  last_updated?: string | null;
  src?: { url?: string | null; date?: string | null } | null;
  [k: string]: unknown;
}

/** The spec's FeeItem, every member filled (docs/fees.md, "FeeItem"). */
export interface FeeItemOut {
  feeType: FeeType;
  /** Dollars (a whole number of cents), or null when the amount is unknown (then `metadata.amount_unknown` is true). */
  value: number | null;
  name: string;
  description: string;
  metadata: FeeItemMetadata;
  relevant_transactions: FeeTransaction[];
  /** The most this item can be, dollars: a cap or the top of a range; the value itself for a fixed figure; null when unbounded and unknown. */
  max: number | null;
  /** The county whose figure this is; '' for a statewide figure. */
  county: string;
  /** The city whose figure this is; '' when not city-specific. */
  city: string;
  /** True for credits (trade-in): subtracted from the section total. */
  subtract: boolean;
  /** Where the figure is stated; null for an unsourced figure (`metadata.unsourced` is then true). */
  src: { url: string; date: string } | null;
  /** Late rules for this item: `{after_days, amount, rate, every_days, increment, max, description, src}`. */
  late_conditions: LateCondition[];
  /** Date the state's fee data was last updated (YYYY-MM-DD). */
  last_updated: string;
}

export interface FeeItemMetadata {
  /** The amount in integer cents (null when unknown). Add these, not `value`s, to re-add a total exactly. */
  cents: number | null;
  /** Path of the figure in states/<code>/fees.json. */
  data_path: string;
  unsourced?: true;
  amount_unknown?: true;
  /** Why the amount is unknown, or why a fee was not included. */
  reason?: string;
  /** Rate used (decimal: 0.0625 = 6.25 %), for rate-based items. */
  rate?: number;
  /** The amount the rate applied to, dollars. */
  base?: number;
  note?: string;
  [k: string]: unknown;
}

export interface LateCondition {
  after_days: number;
  amount: number | null;
  rate: number | null;
  every_days: number | null;
  increment: number | null;
  max: number | null;
  description: string;
  src: { url: string; date: string } | null;
}

/** The values of `FeeItem.feeType` this calculator writes (`StateTax` is the spec's). */
export type FeeType =
  | 'StateTax'
  | 'LocalTax'
  | 'TradeInCredit'
  | 'TaxAdjustment'
  | 'TaxFee'
  | 'TitleFee'
  | 'LienFee'
  | 'DuplicateTitleFee'
  | 'LienReleaseFee'
  | 'TitleAdditionalFee'
  | 'RegistrationFee'
  | 'RegistrationLocalFee'
  | 'RegistrationAdditionalFee'
  | 'LateFee';

export interface SubmissionInstructionsOut {
  payable_to: string;
  address: { street1: string; street2?: string; city: string; state: string; zip: string };
}

/** The spec's EstFees (`fee_estimate`), plus `metadata` (docs/fees.md). */
export interface EstFees {
  tax: {
    taxable_amount: number;
    total: number;
    items: FeeItemOut[];
    submission_instructions: SubmissionInstructionsOut;
  };
  registration: { total: number; items: FeeItemOut[] };
  title: { total: number; items: FeeItemOut[] };
  submission_instructions: SubmissionInstructionsOut;
  metadata: EstimateMetadata;
}

interface EstimateMetadata {
  state: string;
  county: string;
  city: string;
  /** Where the county came from: `given` in the input, `zip` from the state's ZIP table, null when not known. */
  county_source: 'given' | 'zip' | null;
  zip?: string;
  transactions: FeeTransaction[];
  as_of: string;
  unit: 'USD';
  /** False when any included figure's amount is unknown or a required fee could not be decided: the totals are then a lower bound. */
  complete: boolean;
  /** One line per unknown amount or undecided required fee (`<section>: <name> (<reason>)`). */
  unknown: string[];
  /** Optional fees not in the totals, each with `metadata.reason` (condition not met, or not decidable from the data given). */
  not_included: FeeItemOut[];
  /** Items whose figure is unsourced (not confirmed by the state's own publication): shown, never counted. */
  unsourced: string[];
  /** What the data does not model for this estimate (e.g. county rates of a state without local.json). */
  not_modelled: string[];
  /** Assumptions the calculator made (e.g. price used because no market value was given). */
  assumptions: string[];
  /** Section totals and the grand total in integer cents. */
  totals_cents: { tax: number; registration: number; title: number; total: number };
  /** Grand total, dollars. */
  total: number;
  registration_term_months: number;
  /** How filings are processed (`state` agency or `county` offices) and the source of the address. */
  submission: {
    processed_by: 'state' | 'county';
    county?: string | null;
    src: { url: string; date: string } | null;
    note: string | null;
  };
  fee_data_last_updated: string;
  calculator: string;
}
