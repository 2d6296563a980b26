/**
 * The state plugin tester, fee part: every `test/states/fees/<code>.test.ts`
 * calls `testStateFees(code, { goldens })`, which defines the mocha suite:
 *
 * - the fee data validates against the schema, and its rates fit the calculator's arithmetic;
 * - every FeeItem has every spec member, and a source or `metadata.unsourced`;
 * - totals add up (items, with `subtract` items subtracted, equal each total) for random inputs;
 * - an unknown amount is `null` and listed in `metadata.unknown`, never 0;
 * - county overrides apply (tax, title, registration), and an unlisted county gets none;
 * - each transaction prices the sections it should;
 * - golden cases: expected figures derived by hand from the cited pages (a comment next to each case).
 *
 * (The forms part of the state tester is states/tester.ts.)
 */
import { expect } from 'chai';
import { estimateFees } from '../../plugins/fees/calculator.js';
import { applyRate, isMicroRate } from '../../plugins/fees/money.js';
import type { EstFees, FeeInput, FeeItemOut, FeeType } from '../../plugins/fees/types.js';
import {
  FEE_TRANSACTIONS,
  loadStateFeeSchedule,
  STATE_CODES,
  type FeeTransaction,
  type StateFeeSchedule,
} from '../../states/fee-schema.js';
import { prng } from './fixtures.js';

/** The day golden cases and random cases are computed for (the date the fee data was read). */
export const GOLDEN_AS_OF = '2026-11-20';

export interface GoldenItem {
  section: 'tax' | 'registration' | 'title';
  feeType: FeeType;
  /** Matches the item's name when several items share a feeType. */
  name?: RegExp;
  /** Dollars; null for an amount that must show as unknown. */
  value: number | null;
  county?: string;
  /** The item's city ('' for a county-wide or statewide figure). */
  city?: string;
}

export interface GoldenCase {
  name: string;
  /** The estimate's input; `state` is the tester's, `as_of` defaults to GOLDEN_AS_OF. */
  input: Omit<FeeInput, 'state' | 'as_of'> & { as_of?: string };
  expect: {
    tax?: { taxable_amount?: number; total?: number };
    registration?: { total?: number };
    title?: { total?: number };
    /** Grand total (tax + registration + title), dollars. */
    total?: number;
    /** Items that must be present with these values. */
    items?: GoldenItem[];
    complete?: boolean;
    /** Each must match one line of `metadata.unknown`; the number of lines must equal the list's length. */
    unknown?: RegExp[];
  };
}

export interface StateFeeTestOptions {
  goldens?: GoldenCase[];
  /** Random inputs for the totals check (default 300). */
  randomCases?: number;
  seed?: number;
}

const SPEC_MEMBERS = [
  'feeType',
  'value',
  'name',
  'description',
  'metadata',
  'relevant_transactions',
  'max',
  'county',
  'city',
  'subtract',
  'src',
  'late_conditions',
  'last_updated',
].sort();
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const cents = (dollars: number): number => Math.round(dollars * 100);

/** County names the data has overrides for (tax, title, registration), as a client would write them. */
export function overrideCounties(s: StateFeeSchedule): string[] {
  const keys = [
    ...Object.keys(s.tax.county_overrides ?? {}),
    ...Object.keys(s.title.county_overrides ?? {}),
    ...(s.registration.rule.kind === 'county' ? Object.keys(s.registration.rule.county_overrides) : []),
  ];
  return [...new Set(keys.map((k) => k.replace(/\s*\(.*\)\s*$/, '')))];
}

/** A random estimate input for `code` (deterministic for a given `rnd`). */
export function randomInput(code: string, s: StateFeeSchedule, rnd: () => number): FeeInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const maybe = <T>(p: number, v: () => T): T | undefined => (rnd() < p ? v() : undefined);
  const money = (max: number) => Math.round(rnd() * max * 100) / 100;
  const counties = [...overrideCounties(s), 'Nowhere', 'Jefferson'];
  const tx: FeeTransaction[] = [pick(FEE_TRANSACTIONS)];
  if (rnd() < 0.15) tx.push(pick(FEE_TRANSACTIONS));
  const year = 1990 + Math.floor(rnd() * 38);
  const daysAgo = Math.floor(rnd() * 200);
  return {
    state: code,
    county: maybe(0.7, () => pick(counties)),
    city: maybe(0.3, () => pick(['Springfield', 'New York', 'Philadelphia'])),
    transaction: tx,
    vehicle: {
      type: rnd() < 0.9 ? 'AUTO' : pick(['MOTORCYCLE', 'TRAILER', 'OHV'] as const),
      year: maybe(0.85, () => year),
      weight_lbs: maybe(0.7, () => 1500 + Math.floor(rnd() * 7000)),
      gross_weight_lbs: maybe(0.4, () => 3000 + Math.floor(rnd() * 7000)),
      value: maybe(0.4, () => money(80_000)),
      msrp: maybe(0.4, () => 15_000 + money(90_000)),
      fuel: maybe(0.5, () => pick(['electric', 'hybrid', 'plug_in_hybrid', 'other'] as const)),
      new: maybe(0.3, () => rnd() < 0.5),
      title_state: maybe(0.4, () => (rnd() < 0.7 ? code : pick(['TX', 'CA', 'NY', 'FL']))),
    },
    sale: {
      price: maybe(0.9, () => (rnd() < 0.05 ? 0 : money(150_000))),
      trade_in: maybe(0.3, () => money(40_000)),
      date: maybe(0.6, () =>
        new Date(Date.parse(`${GOLDEN_AS_OF}T00:00:00Z`) - daysAgo * 86_400_000).toISOString().slice(0, 10),
      ),
    },
    fee_history: maybe(0.2, () => [
      { feeType: 'RegistrationFee', name: 'Registration renewal', value: money(400), last_updated: '2025-06-01' },
    ]),
    as_of: GOLDEN_AS_OF,
  };
}

const allItems = (e: EstFees): { section: string; item: FeeItemOut }[] => [
  ...e.tax.items.map((item) => ({ section: 'tax', item })),
  ...e.registration.items.map((item) => ({ section: 'registration', item })),
  ...e.title.items.map((item) => ({ section: 'title', item })),
];

/** The checks every estimate must pass (members, units, sources, unknowns, totals). */
export function checkEstimate(e: EstFees, label: string): void {
  const items = allItems(e);
  for (const { section, item } of [
    ...items,
    ...e.metadata.not_included.map((item) => ({ section: 'not_included', item })),
  ]) {
    const where = `${label} ${section} '${item.name}'`;
    expect(Object.keys(item).sort(), `${where}: members`).to.deep.equal(SPEC_MEMBERS);
    expect(item.feeType, where).to.be.a('string').and.not.equal('');
    expect(item.name, where).to.be.a('string').and.not.equal('');
    expect(item.description, where).to.be.a('string').and.not.equal('');
    expect(item.relevant_transactions, where).to.be.an('array').that.is.not.empty;
    expect(item.subtract, where).to.be.a('boolean');
    expect(item.county, where).to.be.a('string');
    expect(item.city, where).to.be.a('string');
    expect(item.late_conditions, where).to.be.an('array');
    expect(item.last_updated, where).to.match(ISO_DATE);
    // a source, or marked unsourced
    if (item.src === null) expect(item.metadata.unsourced, `${where}: no src, so metadata.unsourced`).to.equal(true);
    else {
      expect(item.src.url, `${where}: src.url`).to.match(/^https?:\/\/[^\s/]+\.[^\s/]+/);
      expect(item.src.date, `${where}: src.date`).to.match(ISO_DATE);
    }
    // units: dollars, a whole number of cents, equal to metadata.cents
    if (item.value === null) {
      expect(item.metadata.cents, where).to.equal(null);
      expect(item.metadata.amount_unknown, `${where}: unknown amount is flagged`).to.equal(true);
      expect(item.metadata.reason, `${where}: unknown amount says why`).to.be.a('string').and.not.equal('');
    } else {
      expect(item.value, where).to.be.at.least(0);
      expect(Number.isInteger(item.metadata.cents), `${where}: integer cents`).to.equal(true);
      expect(item.value, `${where}: value = cents / 100`).to.equal(item.metadata.cents! / 100);
    }
    if (item.max !== null)
      expect(Number.isInteger(cents(item.max)) && item.max >= (item.value ?? 0), `${where}: max ${item.max}`).to.equal(
        true,
      );
  }
  // totals: items (credits subtracted, unknowns left out) add up to each total, exactly
  const sums = { tax: 0, registration: 0, title: 0 };
  for (const { section, item } of items)
    if (item.metadata.cents !== null)
      sums[section as keyof typeof sums] += item.subtract ? -item.metadata.cents : item.metadata.cents;
  for (const k of ['tax', 'registration', 'title'] as const) {
    expect(cents(e[k].total), `${label} ${k} total`).to.equal(sums[k]);
    expect(e.metadata.totals_cents[k], `${label} ${k} totals_cents`).to.equal(sums[k]);
    expect(sums[k], `${label} ${k} total is not negative`).to.be.at.least(0);
  }
  expect(e.metadata.totals_cents.total).to.equal(sums.tax + sums.registration + sums.title);
  expect(cents(e.metadata.total)).to.equal(e.metadata.totals_cents.total);
  expect(e.tax.taxable_amount).to.be.at.least(0);
  expect(Number.isInteger(cents(e.tax.taxable_amount))).to.equal(true);
  // unknowns are visible
  const unknownItems = items.filter(({ item }) => item.value === null);
  expect(e.metadata.unknown.length, `${label}: every unknown amount is listed`).to.be.at.least(unknownItems.length);
  expect(e.metadata.complete, `${label}: complete`).to.equal(e.metadata.unknown.length === 0);
  // submission instructions
  for (const si of [e.submission_instructions, e.tax.submission_instructions]) {
    expect(si.payable_to).to.be.a('string').and.not.equal('');
    expect(si.address.street1).to.be.a('string').and.not.equal('');
    expect(si.address.zip).to.match(/^\d{5}(-\d{4})?$/);
  }
}

function numbersUnder(
  node: unknown,
  keys: Set<string>,
  out: { path: string; v: number }[] = [],
  path = '',
): { path: string; v: number }[] {
  if (Array.isArray(node)) node.forEach((x, i) => numbersUnder(x, keys, out, `${path}[${i}]`));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'number' && keys.has(k)) out.push({ path: `${path}.${k}`, v });
      else numbersUnder(v, keys, out, `${path}.${k}`);
    }
  }
  return out;
}

/**
 * What is wrong with a state's golden cases, as RuleTester checks a rule's cases:
 * a state must have at least MIN_GOLDEN_CASES golden cases (a suite with none
 * proves nothing about that state's figures; issue 19 asks three of every
 * state), every case a unique non-empty name and at least one expectation.
 * Empty when the cases are acceptable.
 */
export const MIN_GOLDEN_CASES = 3;
export function goldenCaseProblems(code: string, goldens: readonly GoldenCase[] | undefined): string[] {
  const problems: string[] = [];
  if (!(STATE_CODES as readonly string[]).includes(code.toUpperCase()))
    problems.push(`${code} is not one of the 50 states + DC`);
  if (!goldens?.length)
    return [
      ...problems,
      `${code.toUpperCase()} has no golden case: add cases derived by hand from the cited pages (docs/fees.md, "Tests")`,
    ];
  if (goldens.length < MIN_GOLDEN_CASES)
    problems.push(
      `${code.toUpperCase()} has ${goldens.length} golden case(s); at least ${MIN_GOLDEN_CASES} are needed`,
    );
  const seen = new Set<string>();
  for (const g of goldens) {
    if (!g.name?.trim()) problems.push('a golden case without a name');
    else if (seen.has(g.name)) problems.push(`duplicate golden case name '${g.name}'`);
    seen.add(g.name);
    const x = g.expect ?? {};
    const checks =
      [
        x.tax?.taxable_amount,
        x.tax?.total,
        x.registration?.total,
        x.title?.total,
        x.total,
        x.complete,
        x.unknown,
      ].filter((v) => v !== undefined).length + (x.items?.length ?? 0);
    if (checks === 0) problems.push(`golden case '${g.name}' expects nothing`);
  }
  return problems;
}

/** Defines the fee suite of one state. */
export function testStateFees(code: string, o: StateFeeTestOptions = {}): void {
  const upper = code.toUpperCase();
  describe(`${upper} fees (state plugin tester)`, () => {
    it('has acceptable golden cases (at least three; unique names; each expects something)', () => {
      expect(goldenCaseProblems(upper, o.goldens)).to.deep.equal([]);
    });

    let s: StateFeeSchedule;
    const run = (input: Partial<FeeInput>): EstFees =>
      estimateFees({ state: upper, as_of: GOLDEN_AS_OF, ...input } as FeeInput, s);

    before(() => {
      s = loadStateFeeSchedule(upper);
    });

    it('fee data validates against the schema; rates and factors have at most six decimals', () => {
      expect(s.state).to.equal(upper);
      for (const { path, v } of numbersUnder(s, new Set(['rate', 'factor', 'base_factor'])))
        expect(isMicroRate(v), `${path} = ${v}`).to.equal(true);
    });

    it('every FeeItem has every spec member, a source or metadata.unsourced, and totals add up (random inputs)', () => {
      const rnd = prng(o.seed ?? upper.charCodeAt(0) * 31 + upper.charCodeAt(1));
      const n = o.randomCases ?? 300;
      for (let i = 0; i < n; i++) {
        const input = randomInput(upper, s, rnd);
        checkEstimate(run(input), `${upper} random #${i} ${JSON.stringify(input)}`);
      }
    });

    it("a purchase prices tax, registration and title; sourced items carry the data's own source", () => {
      const e = run({
        transaction: 'new_lien',
        sale: { price: 20_000 },
        vehicle: { year: 2024, weight_lbs: 3300, msrp: 32_000 },
      });
      checkEstimate(e, 'purchase');
      expect(e.tax.items.length, 'tax items').to.be.greaterThan(0);
      expect(e.registration.items.length, 'registration items').to.be.greaterThan(0);
      expect(e.title.items.map((i) => i.feeType)).to.include.members(['TitleFee', 'LienFee']);
      const title = e.title.items.find((i) => i.feeType === 'TitleFee')!;
      const fig = s.title.transfer ?? s.title.original;
      // an unsourced figure is shown but not counted (docs/fees.md, "Unsourced and unknown figures")
      expect(title.metadata.cents).to.equal(fig.unsourced ? null : fig.cents);
      expect(title.src).to.deep.equal(fig.src ? { url: fig.src.url, date: fig.src.date } : null);
      expect(e.submission_instructions.payable_to).to.equal(s.submission_instructions.payable_to);
    });

    it('an unknown amount is null and listed, never 0', () => {
      const e = run({ transaction: ['new_lien', 'duplicate', 'lien_release'], vehicle: { type: 'MOTORCYCLE' } });
      checkEstimate(e, 'unknowns');
      const release = e.title.items.find((i) => i.feeType === 'LienReleaseFee')!;
      expect(release.value).to.equal(null);
      expect(release.metadata.amount_unknown).to.equal(true);
      expect(e.metadata.complete).to.equal(false);
      expect(e.metadata.unknown.some((l) => l.startsWith('title: Lien release'))).to.equal(true);
      for (const [k, fig] of Object.entries({
        original: s.title.original,
        duplicate: s.title.duplicate,
        lien_recording: s.title.lien_recording,
      })) {
        if (fig.cents !== null) continue;
        const it = run({ transaction: ['new_lien', 'duplicate'], vehicle: { new: true } }).title.items.find(
          (i) => i.metadata.data_path === `title.${k}`,
        )!;
        expect(it.value, `title.${k} has no amount`).to.equal(null);
        expect(it.metadata.unsourced).to.equal(true);
      }
    });

    it('county overrides apply, and a county without one gets none', () => {
      const price = 30_000;
      const t = s.tax;
      for (const [key, fig] of Object.entries(t.county_overrides ?? {})) {
        const county = key.replace(/\s*\(.*\)\s*$/, '');
        const e = run({ county, transaction: 'transfer', sale: { price } });
        checkEstimate(e, `county ${county}`);
        const want = t.county_overrides_mode === 'replace' ? 'StateTax' : 'LocalTax';
        const it = e.tax.items.find((i) => i.feeType === want && i.county === key);
        expect(it, `${want} item for ${key}`).to.not.equal(undefined);
        expect(it!.metadata.rate).to.equal(fig.rate);
        const cap = t.county_overrides_mode === 'replace' ? Infinity : (t.local?.max_taxable_cents?.cents ?? Infinity);
        expect(it!.metadata.cents).to.equal(fig.unsourced ? null : applyRate(Math.min(price * 100, cap), fig.rate));
      }
      for (const [key, ov] of Object.entries(s.title.county_overrides ?? {})) {
        const e = run({ county: key, transaction: 'transfer', vehicle: { title_state: upper } });
        const it = e.title.items.find((i) => i.feeType === 'TitleFee')!;
        const fig = ov.transfer ?? ov.original;
        if (fig) {
          expect(it.county, `title override for ${key}`).to.equal(key);
          expect(it.metadata.cents).to.equal(fig.unsourced ? null : fig.cents);
        }
      }
      const rule = s.registration.rule;
      if (rule.kind === 'county') {
        for (const [key, fig] of Object.entries(rule.county_overrides)) {
          const e = run({ county: key, transaction: 'transfer', sale: { price } });
          const it = e.registration.items.find((i) => i.county === key)!;
          expect(it.metadata.cents, `registration override for ${key}`).to.equal(fig.unsourced ? null : fig.cents);
        }
      }
      const none = run({ county: 'Nowhere Such', transaction: 'transfer', sale: { price } });
      checkEstimate(none, 'county Nowhere Such');
      for (const { item } of allItems(none)) {
        if (item.county) expect(item.value, `${item.name}: no figure for an unlisted county`).to.equal(null);
      }
      if (t.local?.applies.value)
        expect(
          none.tax.items.some((i) => i.feeType === 'LocalTax' && i.value === null),
          'local tax shows as unknown',
        ).to.equal(true);
    });

    it('each transaction prices its sections: refinance and repossession no tax or registration; duplicate only title', () => {
      for (const tx of ['refinance', 'repossession', 'duplicate_title', 'lien_release'] as const) {
        const e = run({ transaction: tx, sale: { price: 18_000 }, vehicle: { year: 2020, weight_lbs: 3200 } });
        checkEstimate(e, tx);
        expect(e.tax.items, `${tx}: tax`).to.deep.equal([]);
        expect(e.registration.items, `${tx}: registration`).to.deep.equal([]);
        for (const i of e.title.items) expect(i.relevant_transactions, `${tx}: ${i.name}`).to.include(tx);
      }
      expect(run({ transaction: 'refinance' }).title.items.map((i) => i.feeType)).to.include.members([
        'TitleFee',
        'LienFee',
      ]);
      expect(run({ transaction: 'duplicate_title' }).title.items.map((i) => i.feeType))
        .to.include('DuplicateTitleFee')
        .and.not.include('TitleFee');
      expect(run({ transaction: 'purchase' }).title.items.map((i) => i.feeType)).to.not.include('LienFee');
      // the fee input's old names are still taken, and give what the one vocabulary gives
      expect(run({ transaction: 'transfer' })).to.deep.equal(run({ transaction: 'purchase' }));
      expect(run({ transaction: 'duplicate' })).to.deep.equal(run({ transaction: 'duplicate_title' }));
    });

    if (o.goldens?.length) {
      describe('golden cases', () => {
        for (const g of o.goldens!) {
          it(g.name, () => {
            const e = run({ ...g.input, as_of: g.input.as_of ?? GOLDEN_AS_OF });
            checkEstimate(e, g.name);
            const x = g.expect;
            if (x.tax?.taxable_amount !== undefined)
              expect(e.tax.taxable_amount, 'tax.taxable_amount').to.equal(x.tax.taxable_amount);
            if (x.tax?.total !== undefined) expect(e.tax.total, 'tax.total').to.equal(x.tax.total);
            if (x.registration?.total !== undefined)
              expect(e.registration.total, 'registration.total').to.equal(x.registration.total);
            if (x.title?.total !== undefined) expect(e.title.total, 'title.total').to.equal(x.title.total);
            if (x.total !== undefined) expect(e.metadata.total, 'grand total').to.equal(x.total);
            for (const want of x.items ?? []) {
              const found = e[want.section].items.filter(
                (i) => i.feeType === want.feeType && (!want.name || want.name.test(i.name)),
              );
              expect(
                found.length,
                `${want.section} ${want.feeType} ${want.name ?? ''}: exactly one item (got ${found.map((i) => i.name).join(', ')})`,
              ).to.equal(1);
              expect(found[0]!.value, `${want.section} ${want.feeType} ${found[0]!.name}`).to.equal(want.value);
              if (want.county !== undefined) expect(found[0]!.county).to.equal(want.county);
              if (want.city !== undefined) expect(found[0]!.city).to.equal(want.city);
            }
            if (x.complete !== undefined)
              expect(e.metadata.complete, `complete (unknown: ${e.metadata.unknown.join('; ')})`).to.equal(x.complete);
            if (x.unknown) {
              expect(e.metadata.unknown.length, `unknown: ${e.metadata.unknown.join('; ')}`).to.equal(x.unknown.length);
              for (const re of x.unknown)
                expect(
                  e.metadata.unknown.some((l) => re.test(l)),
                  `an unknown line matching ${re} in ${e.metadata.unknown.join('; ')}`,
                ).to.equal(true);
            }
          });
        }
      });
    }
  });
}
