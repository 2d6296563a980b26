/**
 * Late fees: every late rule of a section is described on the section's main
 * item (`late_conditions`); a penalty item is added only for a rule counted
 * from the sale (`days_after_sale` > 0) when the sale date is known and the
 * estimate's date is past the deadline. Steps of one section replace each
 * other (TX tax: 5 % after 30 days, 10 % after 60): the latest step passed applies.
 * Rules counted from a registration's expiry (`days_after_sale: 0`) are
 * described, never applied: a purchase estimate has no expiry date.
 */
import type { LateFee } from '../../states/fee-schema.js';
import { hasAny, makeItem, noteUnknown, PURCHASE, type Ctx } from './context.js';
import { applyRate, clamp, daysBetween, formatUsd, toDollars } from './money.js';
import type { FeeItemOut, LateCondition } from './types.js';

type Section = LateFee['applies_to'];

type Rule = { fee: LateFee; index: number; condition: LateCondition };

/**
 * A section's late rules with their index in `late_fees` and their `late_conditions` entry,
 * worked out once per (read-only) `late_fees` list: every estimate asks for them up to four times.
 */
const rulesByList = new WeakMap<readonly LateFee[], Partial<Record<Section, Rule[]>>>();
function rules(ctx: Ctx, section: Section): Rule[] {
  const list = ctx.s.late_fees;
  let bySection = rulesByList.get(list);
  if (!bySection) rulesByList.set(list, (bySection = {}));
  return (bySection[section] ??= list
    .map((fee, index) => ({ fee, index, condition: condition(fee) }))
    .filter((r) => r.fee.applies_to === section));
}

function condition(fee: LateFee): LateCondition {
  return {
    after_days: fee.days_after_sale,
    amount: fee.cents === undefined ? null : toDollars(fee.cents),
    rate: fee.rate ?? null,
    every_days: fee.per_days ?? null,
    increment: fee.per_days ? toDollars(fee.increment_cents ?? fee.cents ?? 0) : null,
    max: fee.max_cents === undefined ? null : toDollars(fee.max_cents),
    description:
      fee.note ??
      (fee.days_after_sale > 0
        ? `late after ${fee.days_after_sale} days from the sale`
        : 'late after the registration due date'),
    src: fee.src ? { url: fee.src.url, date: fee.src.date } : null,
  };
}

/** The late rules of a section, as FeeItem `late_conditions` (fresh copies: the estimate is the caller's to change). */
export function lateConditions(ctx: Ctx, section: Section): LateCondition[] {
  const out: LateCondition[] = [];
  for (const { condition: c } of rules(ctx, section)) {
    const src = c.src ? { url: c.src.url, date: c.src.date } : null;
    out.push({ ...c, src });
  }
  return out;
}

/**
 * The penalty item for a section, if the sale is past a deadline on the
 * estimate's date. `baseCents` is what a rate-based penalty is a rate of (the
 * tax due, the title fee, the registration fee); null when unknown.
 */
export function latePenalty(ctx: Ctx, section: Section, baseCents: number | null, items: FeeItemOut[]): void {
  const saleDate = ctx.input.sale?.date;
  if (!saleDate || !hasAny(ctx, PURCHASE)) return;
  const days = daysBetween(saleDate, ctx.input.as_of);
  if (days === null) return;
  const passed = rules(ctx, section).filter((r) => r.fee.days_after_sale > 0 && days > r.fee.days_after_sale);
  if (!passed.length) return;
  const { fee, index } = passed.reduce((a, b) => (b.fee.days_after_sale > a.fee.days_after_sale ? b : a));
  const late = days - fee.days_after_sale;
  let cents: number | null;
  let how: string;
  if (fee.cents !== undefined) {
    const periods = fee.per_days ? Math.ceil(late / fee.per_days) : 1;
    cents = fee.cents + (periods - 1) * (fee.increment_cents ?? fee.cents);
    how = fee.per_days
      ? `${formatUsd(fee.cents)} plus ${formatUsd(fee.increment_cents ?? fee.cents)} per further ${fee.per_days} days`
      : formatUsd(fee.cents);
  } else {
    cents = baseCents === null ? null : applyRate(baseCents, fee.rate!);
    how = `${(fee.rate! * 100).toFixed(2).replace(/\.?0+$/, '')}% of ${baseCents === null ? `the ${section} amount (unknown)` : formatUsd(baseCents)}`;
  }
  if (cents !== null) cents = clamp(cents, undefined, fee.max_cents);
  const item = makeItem(ctx, {
    feeType: 'LateFee',
    name: `Late ${section} penalty`,
    description: `${days} days after the sale (${saleDate}), ${late} past the ${fee.days_after_sale}-day deadline: ${how}`,
    cents,
    figure: fee,
    dataPath: `late_fees[${index}]`,
    relevant: PURCHASE,
    maxCents: cents === null ? (fee.max_cents ?? null) : undefined,
    reason: cents === null ? `the ${section} amount it is a rate of is unknown` : undefined,
    meta: { days_late: late, ...(fee.rate !== undefined ? { rate: fee.rate } : {}) },
  });
  items.push(item);
  noteUnknown(ctx, section, item);
}
