/**
 * The `registration` section (purchases only): the passenger-car rule (flat,
 * by weight, by value, by age, or a default with county amounts), the state's
 * other registration fees, and a late penalty (docs/fees.md, "Registration").
 */
import type { BaseRegistrationRule } from '../../states/fee-schema.js';
import { addNamedFees, countyOverride, hasAny, makeItem, noteUnknown, PURCHASE, usd, type Ctx } from './context.js';
import { latePenalty, lateConditions } from './late.js';
import { applyRate, clamp, formatUsd, pct, toCents, toDollars } from './money.js';
import type { FeeItemOut, FeeItemMetadata } from './types.js';

const RULE_NAMES = { flat: '', weight: ' (by weight)', value: ' (by value)', age: ' (by age)' } as const;

interface RuleResult {
  cents: number | null;
  reason?: string;
  maxCents?: number | null;
  how: string;
  meta: Partial<FeeItemMetadata>;
}

const age = (ctx: Ctx): number | null => {
  const y = ctx.input.vehicle?.year;
  return typeof y === 'number' ? Math.max(0, ctx.asOfYear - y) : null;
};

/** What a value rule's `base` text prices: the original MSRP, the price paid, or the vehicle's value. */
function valueSource(base: string): 'msrp' | 'price' | 'value' {
  if (/MSRP|list price|factory price|base retail/i.test(base)) return 'msrp';
  if (/price/i.test(base)) return 'price';
  return 'value';
}

function weightRule(ctx: Ctx, r: Extract<BaseRegistrationRule, { kind: 'weight' }>): RuleResult {
  const v = ctx.input.vehicle;
  const w = r.weight_basis === 'gross' ? v?.gross_weight_lbs : v?.weight_lbs;
  const fee = (b: (typeof r.brackets)[number], lbs: number) =>
    b.cents + Math.floor(((b.cents_per_100_lbs ?? 0) * lbs + 50) / 100);
  const tops = r.brackets.map((b) => (b.max_lbs === null ? (b.cents_per_100_lbs ? null : b.cents) : fee(b, b.max_lbs)));
  const maxCents = tops.includes(null) ? null : Math.max(...(tops as number[]));
  if (typeof w !== 'number')
    return {
      cents: null,
      maxCents,
      reason: `needs the vehicle's ${r.weight_basis} weight`,
      how: 'by weight',
      meta: {},
    };
  ctx.regWeightLbs = w;
  let min = 0;
  for (const b of r.brackets) {
    const lo = b.min_lbs ?? min;
    if (w >= lo && (b.max_lbs === null || w <= b.max_lbs)) {
      return {
        cents: fee(b, w),
        how: `${w} lbs ${r.weight_basis} weight: bracket ${lo}-${b.max_lbs ?? 'up'} lbs`,
        meta: { weight_lbs: w },
      };
    }
    if (b.max_lbs !== null) min = b.max_lbs + 1;
  }
  return {
    cents: null,
    maxCents,
    reason: `no bracket for ${w} lbs in the sourced table`,
    how: 'by weight',
    meta: { weight_lbs: w },
  };
}

function ageRule(ctx: Ctx, r: Extract<BaseRegistrationRule, { kind: 'age' }>): RuleResult {
  const a = age(ctx);
  const maxCents = Math.max(...r.brackets.map((b) => b.cents));
  if (a === null) return { cents: null, maxCents, reason: 'needs the model year', how: 'by age', meta: {} };
  const b = r.brackets.find((x) => x.max_age_years === null || a <= x.max_age_years);
  if (!b)
    return {
      cents: null,
      maxCents,
      reason: `no bracket for a ${a}-year-old vehicle`,
      how: 'by age',
      meta: { age_years: a },
    };
  return { cents: b.cents, how: `vehicle age ${a} years`, meta: { age_years: a } };
}

function valueRule(ctx: Ctx, r: Extract<BaseRegistrationRule, { kind: 'value' }>): RuleResult {
  const source = valueSource(r.base);
  const v = ctx.input.vehicle;
  const price = toCents(ctx.input.sale?.price);
  let raw = source === 'msrp' ? toCents(v?.msrp) : source === 'price' ? price : (toCents(v?.value) ?? price);
  if (source === 'value' && toCents(v?.value) === null && price !== null)
    ctx.assumptions.push('registration: the sale price stands in for the vehicle value');
  if (raw === null)
    return {
      cents: null,
      reason: `needs the vehicle's ${source === 'msrp' ? 'original MSRP' : source === 'price' ? 'sale price' : 'value'}`,
      how: 'by value',
      meta: {},
      maxCents: r.max_cents ?? null,
    };
  if (r.min_base_cents !== undefined && raw < r.min_base_cents) {
    return {
      cents: null,
      reason: `the sourced rule covers a ${source} of ${formatUsd(r.min_base_cents)} or more only`,
      how: 'by value',
      meta: {},
      maxCents: null,
    };
  }
  // a used-car buyer's price restarts the schedule (CA); MSRP and values age with the model year
  const a = source === 'price' ? 0 : age(ctx);
  if (r.depreciation && a === null)
    return {
      cents: null,
      reason: 'needs the model year (the rate depreciates with age)',
      how: 'by value',
      meta: {},
      maxCents: null,
    };
  const step = r.depreciation
    ?.filter((d) => d.age_years <= (a ?? 0))
    .reduce((x, y) => (y.age_years > x.age_years ? y : x));
  const dep = step?.factor ?? 1;
  let base = raw;
  if (r.base_factor !== undefined) base = applyRate(base, r.base_factor);
  if (r.base_offset_cents) base = Math.max(0, base - r.base_offset_cents);
  if (r.base_step_cents) {
    const s = r.base_step_cents;
    base = r.base_step_mode === 'midpoint' ? Math.floor(base / s) * s + Math.floor(s / 2) : Math.ceil(base / s) * s;
  }
  if (r.depreciation_applies_to !== 'fee') base = applyRate(base, dep);
  ctx.regValueCents = base;
  let cents = applyRate(base, r.rate) + (r.plus_cents ?? 0);
  if (r.depreciation_applies_to === 'fee') cents = applyRate(cents, dep);
  cents = clamp(cents, r.min_cents, r.max_cents);
  return {
    cents,
    how: `${pct(r.rate)} of ${formatUsd(base)}${r.plus_cents ? ` + ${formatUsd(r.plus_cents)}` : ''}${dep !== 1 ? ` (age factor ${dep} on the ${r.depreciation_applies_to ?? 'base'})` : ''}`,
    meta: { rate: r.rate, base: toDollars(base), value_source: source, ...(a !== null ? { age_years: a } : {}) },
  };
}

function evalRule(ctx: Ctx, r: BaseRegistrationRule): RuleResult {
  switch (r.kind) {
    case 'flat':
      return { cents: r.cents, how: 'flat fee', meta: {} };
    case 'weight':
      return weightRule(ctx, r);
    case 'age':
      return ageRule(ctx, r);
    case 'value':
      return valueRule(ctx, r);
  }
}

/** The last registration amount in the vehicle's fee history, when the rule cannot be computed. */
function fromHistory(ctx: Ctx): { cents: number; src: { url: string; date: string } | null; date: string } | null {
  const hits = (ctx.input.fee_history ?? []).filter(
    (h) => typeof h.value === 'number' && h.value >= 0 && /regist/i.test(`${h.feeType ?? ''} ${h.name ?? ''}`),
  );
  if (!hits.length) return null;
  const last = hits.reduce((a, b) => ((b.last_updated ?? '') >= (a.last_updated ?? '') ? b : a));
  const url = last.src?.url;
  const date = [last.src?.date, last.last_updated].find((d) => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d));
  // a history item counts as sourced only with a page and a date, like the fee data
  return {
    cents: toCents(last.value)!,
    src: url && /^https?:\/\//.test(url) && date ? { url, date } : null,
    date: last.last_updated ?? '',
  };
}

export function registrationSection(ctx: Ctx): { items: FeeItemOut[] } {
  const items: FeeItemOut[] = [];
  if (!hasAny(ctx, PURCHASE)) return { items };
  const reg = ctx.s.registration;
  const type = ctx.input.vehicle?.type ?? 'AUTO';
  const term = `${reg.term_months}-month registration`;
  if (type !== 'AUTO') {
    const item = makeItem(ctx, {
      feeType: 'RegistrationFee',
      name: `Registration (${type})`,
      description: `${term}: the fee data prices passenger cars only`,
      cents: null,
      figure: { unsourced: true },
      dataPath: 'registration.rule',
      relevant: PURCHASE,
      reason: `no registration figure for vehicle type ${type}`,
    });
    items.push(item);
    noteUnknown(ctx, 'registration', item);
    return { items };
  }
  const rule = reg.rule;
  const base = rule.kind === 'county' ? rule.default : rule;
  const ov = rule.kind === 'county' ? countyOverride(ctx, rule.county_overrides) : undefined;
  let main: FeeItemOut;
  if (rule.kind === 'county' && ov && rule.overrides_mode === 'replace') {
    main = makeItem(ctx, {
      feeType: 'RegistrationFee',
      name: 'Registration fee',
      description: `${term}, ${ov.key} County amount: ${usd(ov.value.cents)}`,
      cents: ov.value.cents,
      figure: ov.value,
      dataPath: `registration.rule.county_overrides.${ov.key}`,
      relevant: PURCHASE,
      county: ov.key,
      late: lateConditions(ctx, 'registration'),
      meta: { term_months: reg.term_months },
    });
  } else {
    let r = evalRule(ctx, base);
    let figure: { src?: { url: string; date: string }; unsourced?: true; note?: string } = base;
    if (r.cents === null) {
      const h = fromHistory(ctx);
      if (h) {
        ctx.assumptions.push(
          `registration: ${r.reason}; the last registration amount in the fee history (${formatUsd(h.cents)}${h.date ? `, ${h.date}` : ''}) stands in`,
        );
        r = {
          cents: h.cents,
          how: "from the vehicle's fee history",
          meta: { from_fee_history: true, rule_needs: r.reason },
        };
        figure = h.src
          ? { src: h.src }
          : { unsourced: true, note: 'amount from vehicle.fee_history, which gives no source' };
      }
    }
    const by = RULE_NAMES[base.kind];
    main = makeItem(ctx, {
      feeType: 'RegistrationFee',
      name: `Registration fee${by}`,
      description: `${term} (${r.how})`,
      cents: r.cents,
      figure,
      dataPath: rule.kind === 'county' ? 'registration.rule.default' : 'registration.rule',
      relevant: PURCHASE,
      maxCents: r.cents === null ? (r.maxCents ?? null) : undefined,
      reason: r.reason,
      late: lateConditions(ctx, 'registration'),
      meta: { term_months: reg.term_months, ...r.meta },
    });
  }
  items.push(main);
  noteUnknown(ctx, 'registration', main);
  if (rule.kind === 'county' && !(ov && rule.overrides_mode === 'replace')) {
    const local = ov
      ? makeItem(ctx, {
          feeType: 'RegistrationLocalFee',
          name: 'County registration fee',
          description: `${ov.key} County amount: ${usd(ov.value.cents)}`,
          cents: ov.value.cents,
          figure: ov.value,
          dataPath: `registration.rule.county_overrides.${ov.key}`,
          relevant: PURCHASE,
          county: ov.key,
        })
      : makeItem(ctx, {
          feeType: 'RegistrationLocalFee',
          name: 'County registration fee',
          description: `Set by each county${rule.max_county_cents?.cents != null ? `, up to ${usd(rule.max_county_cents.cents)}` : ''}`,
          cents: null,
          figure: rule.max_county_cents ?? { unsourced: true },
          dataPath: 'registration.rule.county_overrides',
          relevant: PURCHASE,
          maxCents: rule.max_county_cents?.cents ?? null,
          county: ctx.county,
          reason: ctx.county
            ? `no amount for ${ctx.county} County in the fee data (not modelled)`
            : 'the county is not known',
        });
    items.push(local);
    noteUnknown(ctx, 'registration', local);
  }
  addNamedFees(ctx, 'registration', reg.additional_fees, 'registration.additional_fees', {
    feeType: 'RegistrationAdditionalFee',
    relevant: PURCHASE,
    baseCents: ctx.regValueCents,
    items,
  });
  latePenalty(ctx, 'registration', main.metadata.cents, items);
  return { items };
}
