/**
 * The state of one estimate while it is computed, and the helpers every
 * section uses: building FeeItems from figures, county lookup, `applies_if`.
 */
import type { AppliesIf, FeeTransaction, NamedFee, Source, StateFeeSchedule } from '../../states/fee-schema.js';
import { placeKey, type StateLocalData } from '../../states/local-schema.js';
import { applyRate, clamp, formatUsd, pct, toDollars } from './money.js';
import type { FeeInput, FeeItemMetadata, FeeItemOut, FeeType, LateCondition } from './types.js';

/** Which transactions each kind of fee belongs to (docs/fees.md, "Transactions"). */
export const PURCHASE: FeeTransaction[] = ['new_lien', 'purchase'];
export const TITLE_ISSUING: FeeTransaction[] = ['new_lien', 'purchase', 'refinance', 'repossession'];
export const LIEN: FeeTransaction[] = ['new_lien', 'refinance'];

type Provenance = { src?: Source; unsourced?: true; note?: string };
type Section = 'tax' | 'registration' | 'title';

export interface Ctx {
  readonly s: StateFeeSchedule;
  readonly input: FeeInput;
  readonly tx: ReadonlySet<FeeTransaction>;
  readonly county: string;
  readonly city: string;
  /** `county` and `city` in the normal form of look-ups (placeKey), worked out once per estimate. */
  readonly countyKey: string;
  readonly cityKey: string;
  /** The state's county and local data (states/<code>/local.json), null when it has none. */
  readonly local?: StateLocalData | null;
  /** Why no county is known (e.g. a ZIP not in the table), when none is. */
  readonly countyWhy?: string;
  /** True: first title here (new, or titled elsewhere); false: already titled here; undefined: not known. */
  readonly firstInState: boolean | undefined;
  readonly asOfYear: number;
  /** The registration value base (cents), once the registration rule computed it (`applies_if.registration_value_cents`). */
  regValueCents: number | null;
  /** The weight the registration rule used (lbs). */
  regWeightLbs: number | null;
  readonly unknown: string[];
  readonly notIncluded: FeeItemOut[];
  readonly assumptions: string[];
}

export function hasAny(ctx: Ctx, list: readonly FeeTransaction[]): boolean {
  for (const t of list) if (ctx.tx.has(t)) return true;
  return false;
}

interface ItemSpec {
  feeType: FeeType;
  name: string;
  description: string;
  cents: number | null;
  figure: Provenance;
  dataPath: string;
  relevant: readonly FeeTransaction[];
  /** Cap in cents; defaults to `cents` for a known amount. */
  maxCents?: number | null;
  county?: string;
  city?: string;
  subtract?: boolean;
  late?: LateCondition[];
  /** Why the amount is unknown (required when `cents` is null). */
  reason?: string;
  meta?: Partial<FeeItemMetadata>;
}

/** A FeeItem with every member filled. An unknown amount is `value: null` plus `metadata.amount_unknown`, never 0. */
export function makeItem(ctx: Ctx, o: ItemSpec): FeeItemOut {
  // An amount computed from an unsourced figure of the state's data is not confirmed by an
  // official page: it is shown (`metadata.unsourced_cents`) but left out of every total, and
  // the estimate is incomplete. The client's own fee history is the client's word, not ours.
  // Each member of `o` and of the figure is read once: both come in many shapes, so every
  // read is a slow (megamorphic) look-up, and this runs for every item of every estimate.
  const { figure, cents: given, meta, reason } = o;
  const { unsourced, note, src } = figure;
  const unconfirmed = unsourced === true && given !== null && !meta?.from_fee_history;
  const cents = unconfirmed ? null : given;
  const metadata: FeeItemMetadata = { cents, data_path: o.dataPath, ...meta };
  if (unsourced) metadata.unsourced = true;
  if (unconfirmed) {
    metadata.unsourced_cents = given;
    metadata.amount_unknown = true;
    metadata.reason = unconfirmedReason(figure, given!);
  } else if (cents === null) {
    metadata.amount_unknown = true;
    metadata.reason =
      reason ?? (unsourced ? 'the amount is not in the sourced fee data' : 'the amount could not be computed');
  } else if (reason) metadata.reason = reason;
  if (note && metadata.note === undefined) metadata.note = note;
  const maxCents = unconfirmed ? null : o.maxCents === undefined ? given : o.maxCents;
  return {
    feeType: o.feeType,
    value: toDollars(cents),
    name: o.name,
    description: o.description,
    metadata,
    relevant_transactions: [...o.relevant],
    max: maxCents === null ? null : toDollars(maxCents),
    county: o.county ?? '',
    city: o.city ?? '',
    subtract: o.subtract ?? false,
    src: src ? { url: src.url, date: src.date } : null,
    late_conditions: o.late ?? [],
    last_updated: ctx.s.last_updated,
  };
}

/**
 * Why an amount from an unsourced figure is not counted. Kept per (read-only) figure for its
 * last amount: a fixed figure gives the same text on every estimate, and a kept string is
 * flattened once (notModelled searches every unknown item's reason).
 */
const unconfirmedReasons = new WeakMap<Provenance, { cents: number; text: string }>();
function unconfirmedReason(figure: Provenance, cents: number): string {
  const hit = unconfirmedReasons.get(figure);
  if (hit?.cents === cents) return hit.text;
  const text = `${formatUsd(cents)} in the fee data is not confirmed by an official source (unsourced), so it is left out of the totals`;
  unconfirmedReasons.set(figure, { cents, text });
  return text;
}

/** Records an included item whose amount is unknown. */
export function noteUnknown(ctx: Ctx, section: Section, item: FeeItemOut): void {
  if (item.value === null) ctx.unknown.push(`${section}: ${item.name} (${item.metadata.reason ?? 'amount unknown'})`);
}

// ---------------------------------------------------------------------------
// Counties
// ---------------------------------------------------------------------------

/** Names a county key answers to: the key, and the names in its parentheses ("New York City (Bronx, Kings, ...)"). */
function keyNames(key: string): string[] {
  const m = /^(.*?)\s*\((.*)\)\s*$/.exec(key);
  if (!m) return [placeKey(key)];
  return [placeKey(m[1]!), ...m[2]!.split(',').map(placeKey)].filter(Boolean);
}

/**
 * The county override for the input's county, with the key it was found under.
 * The city is tried only when no county is given (a city may share its name
 * with another county: Franklin, OH).
 */
export function countyOverride<T>(
  ctx: Ctx,
  overrides: Record<string, T> | undefined,
): { key: string; value: T } | undefined {
  const place = ctx.county || ctx.city;
  if (!overrides || !place) return undefined;
  const key = overrideIndex(overrides).get(ctx.county ? ctx.countyKey : ctx.cityKey);
  return key === undefined ? undefined : { key, value: overrides[key]! };
}

/** Each overrides record's names (see {@link keyNames}) to its key, built once per (read-only) record; first key wins. */
const overrideIndexes = new WeakMap<object, Map<string, string>>();
function overrideIndex(overrides: Record<string, unknown>): Map<string, string> {
  let index = overrideIndexes.get(overrides);
  if (!index) {
    index = new Map();
    for (const key of Object.keys(overrides)) for (const n of keyNames(key)) if (!index.has(n)) index.set(n, key);
    overrideIndexes.set(overrides, index);
  }
  return index;
}

// ---------------------------------------------------------------------------
// applies_if and named fees
// ---------------------------------------------------------------------------

type Decision = { readonly ok: 'yes' | 'no' | 'unknown'; readonly why: string };
const YES: Decision = { ok: 'yes', why: '' };

const inRange = (v: number, r: { min?: number; max?: number }): boolean =>
  (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** The normal forms of an `applies_if.counties` list, worked out once per (read-only) list. */
const countyKeySets = new WeakMap<readonly string[], Set<string>>();
function countyKeys(counties: readonly string[]): Set<string> {
  let keys = countyKeySets.get(counties);
  if (!keys) countyKeySets.set(counties, (keys = new Set(counties.map(placeKey))));
  return keys;
}

/** Evaluates `applies_if`: every condition must hold; a condition whose input is unknown makes the answer `unknown`. */
function decide(ctx: Ctx, a: AppliesIf): Decision {
  const unknown: string[] = [];
  const v = ctx.input.vehicle;
  if (a.transactions && !a.transactions.some((t) => ctx.tx.has(t))) return { ok: 'no', why: 'transaction' };
  if (a.first_in_state !== undefined) {
    if (ctx.firstInState === undefined) unknown.push('whether the vehicle is new or titled in another state');
    else if (ctx.firstInState !== a.first_in_state) return { ok: 'no', why: 'first_in_state' };
  }
  if (a.counties) {
    if (!ctx.county) unknown.push('the county');
    else if (!countyKeys(a.counties).has(ctx.countyKey)) return { ok: 'no', why: 'county' };
  }
  if (a.fuel_types) {
    if (!v?.fuel) unknown.push('the fuel type');
    else if (!(a.fuel_types as string[]).includes(v.fuel)) return { ok: 'no', why: 'fuel' };
  }
  if (a.registration_value_cents) {
    if (ctx.regValueCents === null) unknown.push('the registration value');
    else if (!inRange(ctx.regValueCents, a.registration_value_cents)) return { ok: 'no', why: 'registration value' };
  }
  if (a.weight_lbs) {
    if (ctx.regWeightLbs === null) unknown.push('the weight');
    else if (!inRange(ctx.regWeightLbs, a.weight_lbs)) return { ok: 'no', why: 'weight' };
  }
  return unknown.length ? { ok: 'unknown', why: `not known: ${unknown.join(', ')}` } : YES;
}

/** "portion of price between $1,600 and $3,200" -> [160000, 320000] cents. */
function portionBounds(basis: string | undefined): [number, number] | null {
  const m = /between \$([\d,]+(?:\.\d+)?) and \$([\d,]+(?:\.\d+)?)/i.exec(basis ?? '');
  if (!m) return null;
  const c = (s: string) => Math.round(Number(s.replace(/,/g, '')) * 100);
  return [c(m[1]!), c(m[2]!)];
}

/** The amount of a named fee: fixed cents, or its rate of `baseCents` (or of the portion its `basis` names), within min/max. */
function namedAmount(
  f: NamedFee,
  baseCents: number | null,
): { cents: number | null; meta: Partial<FeeItemMetadata>; reason?: string } {
  if (f.cents !== undefined) return { cents: f.cents, meta: {} };
  if (baseCents === null)
    return {
      cents: null,
      meta: { rate: f.rate },
      reason: `the base it is a rate of (${f.basis ?? 'unknown'}) is not known`,
    };
  const portion = portionBounds(f.basis);
  const base = portion ? clamp(baseCents - portion[0], 0, portion[1] - portion[0]) : baseCents;
  const cents = clamp(applyRate(base, f.rate!), f.min_cents, f.max_cents);
  return { cents, meta: { rate: f.rate, base: toDollars(base) } };
}

/**
 * Adds a section's named fees (`additional_fees`): a required fee without a
 * condition is included; a fee with `applies_if` is included when it holds;
 * an optional fee, or a required one whose condition cannot be decided, goes
 * to `metadata.not_included` with the reason (a required one also makes the
 * estimate incomplete).
 */
export function addNamedFees(
  ctx: Ctx,
  section: Section,
  fees: readonly NamedFee[] | undefined,
  path: string,
  o: {
    feeType: FeeType;
    relevant: readonly FeeTransaction[];
    baseCents: number | null;
    items: FeeItemOut[];
  },
): void {
  if (!fees) return;
  for (let i = 0; i < fees.length; i++) {
    const f = fees[i]!;
    const d: Decision = f.applies_if
      ? decide(ctx, f.applies_if)
      : f.optional || f.when
        ? {
            ok: 'unknown',
            why: `applies only when: ${f.when ?? 'optional'} (not decidable from the estimate's inputs)`,
          }
        : YES;
    if (d.ok === 'no') continue;
    const amount = namedAmount(f, o.baseCents);
    const rated =
      f.rate !== undefined && amount.meta.base !== undefined
        ? `: ${pct(f.rate)} of ${formatUsd(Math.round(amount.meta.base * 100))}`
        : '';
    const description = `${f.name}${rated}${f.when ? ` (when: ${f.when})` : ''}`;
    const item = makeItem(ctx, {
      feeType: o.feeType,
      name: f.name,
      description,
      cents: amount.cents,
      figure: f,
      dataPath: `${path}[${i}]`,
      relevant: o.relevant,
      maxCents: amount.cents === null ? (f.max_cents ?? null) : amount.cents,
      reason: amount.reason,
      meta: amount.meta,
    });
    if (d.ok === 'yes') {
      o.items.push(item);
      noteUnknown(ctx, section, item);
      continue;
    }
    item.metadata.reason = d.why;
    item.metadata.not_included = true;
    ctx.notIncluded.push(item);
    if (!f.optional) ctx.unknown.push(`${section}: ${f.name} (required when its condition holds; ${d.why})`);
  }
}

/** Describes a money figure for a description line. */
export const usd = (cents: number | null): string => (cents === null ? 'unknown amount' : formatUsd(cents));
