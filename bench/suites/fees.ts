import { estimateFees } from '../../plugins/fees/calculator.js';
import { feeSchedule } from '../../plugins/fees/schedules.js';
import type { FeeInput } from '../../plugins/fees/types.js';
import { FEE_TRANSACTIONS, STATE_CODES, type StateFeeSchedule } from '../../states/fee-schema.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';
import { prng } from '../../test/support/fixtures.js';

const PER_STATE = 40;
const ROUNDS = 3;
const TARGET_PER_S = 20_000;
const AS_OF = '2026-11-20';

/** A mixed batch: every state, every transaction, with and without county, trade-in, weight, MSRP, sale date. */
function batch(): FeeInput[] {
  const rnd = prng(20261120);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: FeeInput[] = [];
  for (const state of STATE_CODES) {
    const s = feeSchedule(state);
    const counties = [
      ...Object.keys(s.tax.county_overrides ?? {}),
      ...Object.keys(s.title.county_overrides ?? {}),
      'Jefferson',
    ];
    for (let i = 0; i < PER_STATE; i++) {
      out.push({
        state,
        county: rnd() < 0.7 ? pick(counties) : undefined,
        transaction: rnd() < 0.7 ? pick(['new_lien', 'transfer'] as const) : pick(FEE_TRANSACTIONS),
        vehicle: {
          year: 2005 + Math.floor(rnd() * 22),
          weight_lbs: 2_000 + Math.floor(rnd() * 5_000),
          msrp: rnd() < 0.5 ? 20_000 + Math.floor(rnd() * 60_000) : undefined,
          title_state: rnd() < 0.6 ? state : undefined,
        },
        sale: {
          price: 3_000 + Math.floor(rnd() * 80_000),
          trade_in: rnd() < 0.3 ? Math.floor(rnd() * 15_000) : undefined,
          date: rnd() < 0.4 ? '2026-09-15' : undefined,
        },
        as_of: AS_OF,
      });
    }
  }
  return out;
}

/**
 * The baseline: a trivial flat-rate estimate over the same inputs (state rate x
 * price, flat title and registration fees, the three sections and their
 * totals), i.e. what any estimator must at least do. The ratio shows what the
 * real rules cost on top of it.
 */
function flatRate(
  input: FeeInput,
  s: StateFeeSchedule,
): { tax: { total: number }; registration: { total: number }; title: { total: number } } {
  const price = Math.round((input.sale?.price ?? 0) * 100);
  const tax = Math.round(price * s.tax.rate.rate);
  const reg = s.registration.rule.kind === 'flat' ? s.registration.rule.cents : 5_000;
  const title = s.title.transfer?.cents ?? s.title.original.cents ?? 0;
  return { tax: { total: tax / 100 }, registration: { total: reg / 100 }, title: { total: title / 100 } };
}

/** Runs `fn` over the batch for about `seconds`, in whole passes; returns estimates per second. */
function measure(
  inputs: FeeInput[],
  seconds: number,
  fn: (i: FeeInput) => { tax: { total: number } },
): { perS: number; n: number; sink: number } {
  let n = 0;
  let sink = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  do {
    for (const input of inputs) sink += fn(input).tax.total;
    n += inputs.length;
  } while (performance.now() < until);
  return { perS: n / ((performance.now() - t0) / 1000), n, sink };
}

/** Fee estimates per second over a mixed batch of all 51 states (pure computation, one thread). */
export const fees: Suite = {
  name: 'fees',
  description:
    'fee estimates per second over a mixed batch of the 51 states vs a flat-rate baseline (pure computation)',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const schedules = new Map<string, StateFeeSchedule>(STATE_CODES.map((c) => [c, feeSchedule(c)]));
    const inputs = batch();
    const seconds = Math.max(0.5, 2 * ctx.scale);
    const real = (i: FeeInput) => estimateFees(i, schedules.get(i.state));
    const base = (i: FeeInput) => flatRate(i, schedules.get(i.state)!);
    // warm up both, then alternate: drift on a shared machine hits both sides alike
    measure(inputs, 0.5, real);
    measure(inputs, 0.5, base);
    const runs = { real: [] as number[], base: [] as number[] };
    let n = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const a = measure(inputs, seconds, real);
      const b = measure(inputs, seconds, base);
      runs.real.push(a.perS);
      runs.base.push(b.perS);
      n += a.n;
      ctx.log(
        `round ${r + 1}: ${Math.round(a.perS).toLocaleString('en-US')} estimates/s (baseline ${Math.round(b.perS).toLocaleString('en-US')}/s)`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const perS = median(runs.real);
    const sample = estimateFees(inputs[0]!);
    return [
      {
        name: 'fee_estimates_per_s',
        label: `fee estimates/s, ${STATE_CODES.length} states x ${PER_STATE} mixed inputs (target >= ${TARGET_PER_S.toLocaleString('en-US')}/s)`,
        value: Math.round(perS),
        unit: 'estimates/s',
        baseline: { label: 'flat-rate estimate over the same inputs', value: Math.round(median(runs.base)) },
        target: { op: '>=', value: TARGET_PER_S, on: 'value' },
        detail: {
          rounds: runs.real.map(Math.round),
          baseline_rounds: runs.base.map(Math.round),
          estimates: n,
          batch: inputs.length,
          microseconds_per_estimate: Math.round((1e6 / perS) * 10) / 10,
          sample_items: sample.tax.items.length + sample.registration.items.length + sample.title.items.length,
        },
      },
    ];
  },
};
