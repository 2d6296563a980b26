/**
 * The `tax` section (purchases only): the state rate (or a county's combined
 * rate) on the taxable base, the local rate, the trade-in credit as a
 * `subtract` item, a minimum/maximum adjustment, tax-like fees and a late
 * penalty (docs/fees.md, "Tax").
 */
import { addNamedFees, countyOverride, hasAny, makeItem, noteUnknown, PURCHASE, type Ctx } from './context.js';
import { latePenalty, lateConditions } from './late.js';
import { localSalesTax } from './local.js';
import { applyRate, formatUsd, pct, toCents } from './money.js';
import type { FeeItemOut } from './types.js';

/** Why the local tax is unknown: its rates are not modelled at all, the place is not known, or the place has no rate in the data. */
function localReason(ctx: Ctx): string {
  if (ctx.s.tax.local?.county_not_modelled) {
    const where =
      ctx.county || ctx.city ? `no rate for ${ctx.county || ctx.city} in the fee data` : 'the county is not known';
    return `county not modelled (${where}): the local tax is not in the totals`;
  }
  return ctx.county || ctx.city
    ? `no local rate for ${ctx.county || ctx.city} in the fee data`
    : 'the county is not known';
}

interface TaxResult {
  items: FeeItemOut[];
  taxableCents: number;
}

type Push = (item: FeeItemOut) => FeeItemOut;
type Tax = Ctx['s']['tax'];

/** Local tax item when the local amount is not known. */
function unknownLocal(ctx: Ctx, t: Tax, description: string, maxCents: number | null): Parameters<typeof makeItem>[1] {
  return {
    feeType: 'LocalTax',
    name: 'Local sales tax',
    description,
    cents: null,
    figure: t.local!.applies,
    dataPath: 'tax.local',
    relevant: PURCHASE,
    county: ctx.county,
    city: ctx.city,
    maxCents,
    reason: localReason(ctx),
    meta: t.local!.county_not_modelled ? { county_not_modelled: true } : {},
  };
}

export function taxSection(ctx: Ctx): TaxResult {
  const items: FeeItemOut[] = [];
  if (!hasAny(ctx, PURCHASE)) return { items, taxableCents: 0 };
  const t = ctx.s.tax;
  const late = lateConditions(ctx, 'tax');
  const push: Push = (item) => {
    items.push(item);
    noteUnknown(ctx, 'tax', item);
    return item;
  };

  if (t.base === 'none') {
    push(
      makeItem(ctx, {
        feeType: 'StateTax',
        name: 'Motor vehicle sales tax',
        description: `${ctx.s.name} charges no sales or use tax on vehicles`,
        cents: 0,
        figure: t.rate,
        dataPath: 'tax.rate',
        relevant: PURCHASE,
        meta: { rate: 0 },
      }),
    );
    if (!t.local?.applies.value) return { items, taxableCents: 0 };
    // no state tax, but cities/boroughs may tax the purchase (AK): the local amount is unknown
    push(makeItem(ctx, unknownLocal(ctx, t, "Local (city/borough) tax of the buyer's residence, where levied", null)));
    return { items, taxableCents: toCents(ctx.input.sale?.price) ?? 0 };
  }

  const { gross, basis } = taxableBase(ctx, t);
  if (gross === null) {
    push(
      makeItem(ctx, {
        feeType: 'StateTax',
        name: 'Motor vehicle sales tax',
        description: `${pct(t.rate.rate)} of the taxable amount`,
        cents: null,
        figure: t.rate,
        dataPath: 'tax.rate',
        relevant: PURCHASE,
        maxCents: null,
        reason: 'no sale price (or vehicle value) was given',
        late,
        meta: { rate: t.rate.rate },
      }),
    );
    return { items, taxableCents: 0 };
  }
  const { tradeIn, credited } = tradeInCredit(ctx, t, gross);
  const net = gross - credited;

  // state (or combined county) rate
  const ov = countyOverride(ctx, t.county_overrides);
  const combined = ov && t.county_overrides_mode === 'replace';
  const rate = combined ? ov.value.rate : t.rate.rate;
  const stateGross = applyRate(gross, rate);
  const stateNet = applyRate(net, rate);
  const stateItem = push(
    makeItem(ctx, {
      feeType: 'StateTax',
      name: combined ? `Sales tax, state and local (${ov.key})` : 'State motor vehicle sales tax',
      description: `${pct(rate)} of ${formatUsd(gross)} (${basis}${credited ? ', before the trade-in credit' : ''})`,
      cents: stateGross,
      figure: combined ? ov.value : t.rate,
      dataPath: combined ? `tax.county_overrides.${ov.key}` : 'tax.rate',
      relevant: PURCHASE,
      county: combined ? ov.key : '',
      late,
      meta: { rate, base: gross / 100 },
    }),
  );
  const local = combined ? { gross: 0, net: 0, known: true } : localTax(ctx, t, gross, net, ov, push);

  // a credit or cap of a tax whose amount is not confirmed (unsourced rate) is not counted either
  const stateKnown = stateItem.metadata.cents !== null;
  let creditCounted = false;
  if (credited > 0) {
    const saved = stateGross - stateNet + (local.known ? local.gross - local.net : 0);
    creditCounted =
      push(
        makeItem(ctx, {
          feeType: 'TradeInCredit',
          name: 'Trade-in credit',
          subtract: true,
          description: `Trade-in allowance of ${formatUsd(credited)} reduces the taxable amount to ${formatUsd(net)}`,
          cents: stateKnown ? saved : null,
          reason: stateKnown ? undefined : 'the tax it reduces is not confirmed',
          figure: t.trade_in_credit,
          dataPath: 'tax.trade_in_credit',
          relevant: PURCHASE,
          meta: { trade_in: credited / 100, ...(tradeIn !== credited ? { trade_in_given: tradeIn / 100 } : {}) },
        }),
      ).metadata.cents !== null;
  }
  // an unconfirmed (unsourced) credit is shown but reduces neither the tax nor the taxable amount
  const taxable = creditCounted ? net : gross;
  const due = (creditCounted ? stateNet : stateGross) + (local.known ? (creditCounted ? local.net : local.gross) : 0);
  const taxDue = limitTax(ctx, t, due, stateKnown, push);
  addNamedFees(ctx, 'tax', t.additional_fees, 'tax.additional_fees', {
    feeType: 'TaxFee',
    relevant: PURCHASE,
    baseCents: taxable,
    items,
  });
  latePenalty(ctx, 'tax', taxDue, items);
  return { items, taxableCents: taxable };
}

/** What the tax is computed on: the price, the vehicle's (presumptive) value, or the greater of both, per the state's rule. */
function taxableBase(ctx: Ctx, t: Tax): { gross: number | null; basis: string } {
  const price = toCents(ctx.input.sale?.price);
  const value = toCents(ctx.input.vehicle?.value);
  let gross: number | null = price;
  let basis = 'sale price';
  const factor = t.presumptive_factor?.rate ?? 1;
  if (t.base === 'value' || t.base === 'presumptive_value') {
    if (value !== null) {
      gross = applyRate(value, factor);
      basis = factor === 1 ? 'vehicle value' : `${pct(factor)} of the vehicle value`;
    } else if (price !== null)
      ctx.assumptions.push(
        `tax: ${ctx.s.state} taxes the vehicle's value; no value was given, the sale price stands in`,
      );
  } else if (t.base === 'greater_of_price_and_presumptive') {
    if (value !== null) {
      const presumptive = applyRate(value, factor);
      if (price === null || presumptive > price) {
        gross = presumptive;
        basis = `${factor === 1 ? '' : `${pct(factor)} of `}the vehicle value (higher than the price)`;
      }
    } else if (price !== null) {
      ctx.assumptions.push(
        `tax: ${ctx.s.state} taxes the greater of the price and a presumptive value; no value was given, the sale price is used`,
      );
    }
  }
  return { gross, basis };
}

/** The trade-in allowance given, and the part of it the state lets reduce the taxable amount. */
function tradeInCredit(ctx: Ctx, t: Tax, gross: number): { tradeIn: number; credited: number } {
  const tradeIn = toCents(ctx.input.sale?.trade_in) ?? 0;
  let credited = 0;
  if (tradeIn > 0) {
    if (t.trade_in_credit.value) {
      credited = Math.min(tradeIn, t.trade_in_max_cents?.cents ?? Infinity, gross);
      if (credited < tradeIn && t.trade_in_max_cents?.cents != null && tradeIn > t.trade_in_max_cents.cents) {
        ctx.assumptions.push(`tax: the trade-in credit is capped at ${formatUsd(t.trade_in_max_cents.cents)}`);
      }
    } else ctx.assumptions.push(`tax: a trade-in does not reduce the taxable amount in ${ctx.s.state}`);
  }
  return { tradeIn, credited };
}

/** The local tax: the state's own county/city table (local.json), a county override, or an unknown amount. */
function localTax(
  ctx: Ctx,
  t: Tax,
  gross: number,
  net: number,
  ov: { key: string; value: NonNullable<Tax['county_overrides']>[string] } | undefined,
  push: Push,
): { gross: number; net: number; known: boolean } {
  const cap = t.local?.max_taxable_cents?.cents ?? null;
  const localBase = (c: number) => (cap === null ? c : Math.min(c, cap));
  const loc = localSalesTax(ctx, gross, net, localBase);
  if (loc) return { gross: loc.grossCents, net: loc.netCents, known: push(loc.item).metadata.cents !== null };
  if (ov) {
    const g = applyRate(localBase(gross), ov.value.rate);
    const known =
      push(
        makeItem(ctx, {
          feeType: 'LocalTax',
          name: `Local sales tax (${ov.key})`,
          description: `${pct(ov.value.rate)} of ${formatUsd(localBase(gross))}${cap !== null ? ` (local tax applies to the first ${formatUsd(cap)})` : ''}`,
          cents: g,
          figure: ov.value,
          dataPath: `tax.county_overrides.${ov.key}`,
          relevant: PURCHASE,
          county: ov.key,
          meta: { rate: ov.value.rate, base: localBase(gross) / 100 },
        }),
      ).metadata.cents !== null;
    return { gross: g, net: applyRate(localBase(net), ov.value.rate), known };
  }
  if (t.local?.applies.value) {
    const maxRate = t.local.max_rate?.rate;
    const description = `County/city rate of the buyer's residence${maxRate !== undefined ? `, up to ${pct(maxRate)}` : ''}${cap !== null ? ` on the first ${formatUsd(cap)}` : ''}`;
    push(
      makeItem(
        ctx,
        unknownLocal(ctx, t, description, maxRate !== undefined ? applyRate(localBase(gross), maxRate) : null),
      ),
    );
  }
  return { gross: 0, net: 0, known: true };
}

/** The tax's minimum or maximum as an adjustment item; returns the tax due (null when the state tax is not confirmed). */
function limitTax(ctx: Ctx, t: Tax, due: number, stateKnown: boolean, push: Push): number | null {
  const max = t.max_cents?.cents;
  const min = t.min_cents?.cents;
  if (max != null && due > max) {
    push(
      makeItem(ctx, {
        feeType: 'TaxAdjustment',
        name: 'Tax maximum',
        subtract: true,
        description: `The tax is capped at ${formatUsd(max)}`,
        cents: stateKnown ? due - max : null,
        reason: stateKnown ? undefined : 'the tax it caps is not confirmed',
        figure: t.max_cents!,
        dataPath: 'tax.max_cents',
        relevant: PURCHASE,
      }),
    );
  } else if (min != null && due < min) {
    push(
      makeItem(ctx, {
        feeType: 'TaxAdjustment',
        name: 'Tax minimum',
        description: `The tax is at least ${formatUsd(min)}`,
        cents: min - due,
        figure: t.min_cents!,
        dataPath: 'tax.min_cents',
        relevant: PURCHASE,
      }),
    );
  }
  return !stateKnown ? null : max != null && due > max ? max : min != null && due < min ? min : due;
}
