import { expect } from 'chai';
import { estimateFees } from '../../plugins/fees/calculator.js';
import { feeInputFromEntry } from '../../plugins/fees/input.js';
import { resolveCounty } from '../../plugins/fees/local.js';
import { feeSchedule, localSchedule } from '../../plugins/fees/schedules.js';
import { newEntry, type TitleEntry } from '../../core/model/entry.js';
import { STATE_CODES } from '../../states/fee-schema.js';
import {
  loadStateLocalData,
  lookupPlace,
  placeKey,
  StateLocalDataSchema,
  type StateLocalData,
  zipTableClashes,
} from '../../states/local-schema.js';
import { checkEstimate } from '../support/tester-fees.js';

const AS_OF = '2026-11-20';
const SRC = { url: 'https://example.gov/rates', date: '2026-11-25' };

function entry(account_data: Record<string, unknown>, state = ''): TitleEntry {
  const e = newEntry({ orgId: 'o', orgName: 'org', userId: 'u' });
  e.account_data = account_data as TitleEntry['account_data'];
  e.state = state;
  return e;
}

/** A local table fixture for OH (state rate 5.75% sourced): Franklin combined 8%, city Bexley 8.5% (fixture). */
const fixture = (o: Partial<StateLocalData> = {}): StateLocalData =>
  StateLocalDataSchema.parse({
    state: 'OH',
    last_updated: '2026-11-25',
    sales_tax: {
      kind: 'table',
      rates_are: 'combined',
      city_rule: 'exceptions',
      effective: '2025-04-01',
      src: SRC,
      counties: {
        Franklin: {
          rate: 0.08,
          cities: { Bexley: { rate: 0.085, src: { url: 'https://example.gov/bexley', date: '2026-11-25' } } },
        },
      },
    },
    ...o,
  });

describe('fees: county and local data (states/<code>/local.json)', () => {
  it('every local.json of the states validates, names its state, and every county office payee is a name', () => {
    let n = 0;
    for (const code of STATE_CODES) {
      const l = loadStateLocalData(code);
      if (!l) continue;
      n++;
      expect(l.state).to.equal(code);
      for (const [county, o] of Object.entries(l.offices?.counties ?? {})) {
        expect(o.payable_to, `${code} ${county}`).to.not.match(/[.;:(]|\bof the\b|\bexample\b/i);
        expect(o.payable_to.length, `${code} ${county}`).to.be.below(60);
      }
      for (const [zip, z] of Object.entries(l.zip_counties ?? {}))
        expect(placeKey(z.county), `${code} ${zip}`).to.not.equal('');
    }
    expect(n, 'states with local.json').to.be.at.least(6);
  });

  it('the schema refuses a payee that is a sentence, a key with "County", and a rate above 1', () => {
    const office = {
      payable_to: 'County Tax Collector of the county of residence (example: Jane Doe, Tax Collector).',
      address: { street1: '1 Main St', city: 'X', state: 'FL', zip: '33128' },
      src: SRC,
    };
    expect(
      StateLocalDataSchema.safeParse({
        state: 'FL',
        last_updated: '2026-11-25',
        offices: { note: 'n', counties: { Dade: office } },
      }).success,
    ).to.equal(false);
    expect(
      StateLocalDataSchema.safeParse({
        state: 'FL',
        last_updated: '2026-11-25',
        zip_counties: { '33128': { county: 'Miami-Dade County', src: SRC } },
      }).success,
    ).to.equal(false);
    expect(() =>
      fixture({
        sales_tax: {
          kind: 'table',
          rates_are: 'local',
          city_rule: 'exceptions',
          effective: '2025-01-01',
          src: SRC,
          counties: { A: { rate: 1.5 } },
        },
      }),
    ).to.throw();
  });

  it('a broken local.json fails validation at the member path', () => {
    const parsed = StateLocalDataSchema.safeParse(JSON.parse('{"state": "OH", "last_updated": "soon"}'));
    expect(parsed.success).to.equal(false);
    expect(parsed.error!.issues[0]!.path).to.deep.equal(['last_updated']);
  });

  it('lookups ignore case, dots, apostrophes and a trailing "County"', () => {
    expect(lookupPlace({ 'Miami-Dade': 1 }, 'miami-dade county')?.key).to.equal('Miami-Dade');
    expect(lookupPlace({ "St. Mary's": 1 }, 'st marys')?.key).to.equal("St. Mary's");
    expect(lookupPlace({ Franklin: 1 }, '')).to.equal(undefined);
  });

  it('the county comes from the input, else from the ZIP table; a ZIP not in the table says so', () => {
    const fl = localSchedule('FL');
    expect(resolveCounty({ state: 'FL', county: ' Broward ', as_of: AS_OF }, fl)).to.deep.equal({
      county: 'Broward',
      source: 'given',
    });
    expect(resolveCounty({ state: 'FL', zip: '33128-1234', as_of: AS_OF }, fl)).to.deep.equal({
      county: 'Miami-Dade',
      source: 'zip',
    });
    expect(resolveCounty({ state: 'FL', zip: '99999', as_of: AS_OF }, fl).why).to.match(
      /ZIP 99999 is not in FL's ZIP-to-county table/,
    );
    expect(resolveCounty({ state: 'FL', zip: 'abc', as_of: AS_OF }, fl).why).to.match(/not a ZIP code/);
    expect(resolveCounty({ state: 'GA', zip: '30303', as_of: AS_OF }, localSchedule('GA')).county).to.equal('');
    expect(resolveCounty({ state: 'IL', zip: '60601', as_of: AS_OF }, localSchedule('IL'))).to.deep.equal({
      county: 'Cook',
      source: 'zip',
    });
  });

  it('the Census ZIP table (zip_table): a listed ZIP finds its county, a ZIP split between counties is not listed', () => {
    const ny = localSchedule('NY');
    expect(ny!.zip_table!.src.url).to.match(/^https:\/\/www2\.census\.gov\//);
    expect(resolveCounty({ state: 'NY', zip: '11215', as_of: AS_OF }, ny)).to.deep.equal({
      county: 'Kings',
      source: 'zip',
    });
    expect(resolveCounty({ state: 'NY', zip: '10001', as_of: AS_OF }, ny)).to.deep.equal({
      county: 'New York',
      source: 'zip',
    });
    expect(resolveCounty({ state: 'NY', zip: '11375', as_of: AS_OF }, ny)).to.deep.equal({
      county: 'Queens',
      source: 'zip',
    });
    // 10463 is 87.55% Bronx, 12.45% New York in the 2010 file: not listed, so the county stays unknown
    expect(resolveCounty({ state: 'NY', zip: '10463', as_of: AS_OF }, ny).why).to.match(
      /ZIP 10463 is not in NY's ZIP-to-county table/,
    );
    expect(resolveCounty({ state: 'PA', zip: '19104', as_of: AS_OF }, localSchedule('PA')).county).to.equal(
      'Philadelphia',
    );
    expect(resolveCounty({ state: 'PA', zip: '15213', as_of: AS_OF }, localSchedule('PA')).county).to.equal(
      'Allegheny',
    );
    expect(resolveCounty({ state: 'PA', zip: '15241', as_of: AS_OF }, localSchedule('PA')).why).to.match(/not in PA's/);
    expect(resolveCounty({ state: 'OH', zip: '45202', as_of: AS_OF }, localSchedule('OH')).county).to.equal('Hamilton');
    expect(resolveCounty({ state: 'OH', zip: '45241', as_of: AS_OF }, localSchedule('OH')).why).to.match(/not in OH's/);
    const e = estimateFees({
      state: 'NY',
      zip: '11215',
      transaction: 'transfer',
      sale: { price: 10_000 },
      vehicle: { weight_lbs: 3_300 },
      as_of: AS_OF,
    });
    expect(e.metadata.county).to.equal('Kings');
    expect(e.tax.items.find((i) => i.feeType === 'LocalTax')!.value).to.equal(487.5);
  });

  it('a ZIP put in two counties is refused', () => {
    const two = fixture({
      zip_table: { src: SRC, rule: 'fixture', counties: { Franklin: ['43215'], Delaware: ['43215'] } },
    });
    expect(zipTableClashes(two)).to.deep.equal(['ZIP 43215 is put in both Franklin and Delaware']);
    const vsPage = fixture({
      zip_counties: { 43207: { county: 'Franklin', src: SRC } },
      zip_table: { src: SRC, rule: 'fixture', counties: { Pickaway: ['43207'] } },
    });
    expect(zipTableClashes(vsPage)).to.deep.equal(['ZIP 43207 is put in both Franklin and Pickaway']);
    expect(
      zipTableClashes(
        fixture({ zip_table: { src: SRC, rule: 'fixture', counties: { Franklin: ['43215', '43201'] } } }),
      ),
    ).to.deep.equal([]);
  });

  it("an entry's borrower address: its county, else its ZIP; the title's issuing county only when the address has neither", () => {
    const zipOnly = feeInputFromEntry(
      entry({
        sale: { state: 'FL', sale_price: 10_000 },
        loan: { borrower: [{ addr: { street1: '1 A St', city: 'Miami', state: 'FL', zip: '33128' } }] },
        vehicle: { title: { issuing_county: 'Broward' } },
      }),
      AS_OF,
    )!;
    expect(zipOnly.zip).to.equal('33128');
    expect(zipOnly.county).to.equal(undefined);
    const e = estimateFees(zipOnly);
    expect(e.metadata.county).to.equal('Miami-Dade');
    expect(e.metadata.county_source).to.equal('zip');
    expect(e.submission_instructions.payable_to).to.equal('Miami-Dade County Tax Collector');
    const given = feeInputFromEntry(
      entry({
        sale: { state: 'FL' },
        loan: { borrower: [{ addr: { city: 'Fort Lauderdale', state: 'FL', zip: '33128', county: 'Broward' } }] },
      }),
      AS_OF,
    )!;
    expect(given.county).to.equal('Broward');
    const neither = feeInputFromEntry(
      entry({ sale: { state: 'FL' }, vehicle: { title: { issuing_county: 'Duval' } } }),
      AS_OF,
    )!;
    expect(neither.county).to.equal('Duval');
  });

  it("FL packets go to the borrower's county tax collector; a county not in the data says so instead of borrowing another county's office", () => {
    const to = (county: string) => estimateFees({ state: 'FL', county, transaction: 'transfer', as_of: AS_OF });
    expect(to('Palm Beach').submission_instructions).to.deep.equal({
      payable_to: 'Tax Collector, Palm Beach County',
      address: { street1: 'P.O. Box 3715', city: 'West Palm Beach', state: 'FL', zip: '33402-3715' },
    });
    expect(to('Broward').submission_instructions.payable_to).to.equal('Broward County Tax Collector');
    const m = to('Miami-Dade County');
    expect(m.submission_instructions.payable_to).to.equal('Miami-Dade County Tax Collector');
    expect(m.tax.submission_instructions).to.deep.equal(m.submission_instructions);
    expect(m.metadata.submission).to.include({ processed_by: 'county', county: 'Miami-Dade' });
    expect(m.metadata.submission.src!.url).to.match(/^https:\/\/www\.miamidade\.gov\//);
    const other = to('Leon');
    expect(
      other.metadata.not_modelled.some((l) => /^submission: Leon County's filing office is not modelled/.test(l)),
    ).to.equal(true);
    expect(other.metadata.submission.county).to.equal(null);
    // a state that files centrally has no such line
    expect(
      estimateFees({ state: 'NY', county: 'Kings', transaction: 'transfer', as_of: AS_OF }).metadata.not_modelled.some(
        (l) => l.startsWith('submission'),
      ),
    ).to.equal(false);
  });

  it("OH: Franklin County's filing office; TX: Travis County's", () => {
    const oh = estimateFees({ state: 'OH', zip: '43207', transaction: 'transfer', as_of: AS_OF });
    expect(oh.submission_instructions).to.deep.equal({
      payable_to: 'Franklin County Clerk of Courts',
      address: {
        street1: '45 Great Southern Blvd.',
        street2: 'Auto Title South',
        city: 'Columbus',
        state: 'OH',
        zip: '43207',
      },
    });
    const tx = estimateFees({ state: 'TX', county: 'Travis', transaction: 'transfer', as_of: AS_OF });
    expect(tx.submission_instructions.payable_to).to.equal('Travis County Tax Office');
  });

  it("a combined-rate table: local part = combined - state rate, a listed city's own rate, its own source; the trade-in reduces it too", () => {
    const s = feeSchedule('OH');
    const run = (o: { county?: string; city?: string; trade_in?: number }, l = fixture()) =>
      estimateFees(
        {
          state: 'OH',
          county: o.county,
          city: o.city,
          transaction: 'transfer',
          sale: { price: 10_000, trade_in: o.trade_in },
          as_of: AS_OF,
        },
        s,
        l,
      );
    const county = run({ county: 'Franklin', city: 'Columbus' });
    checkEstimate(county, 'franklin');
    const li = county.tax.items.find((i) => i.feeType === 'LocalTax')!;
    expect([li.value, li.metadata.rate, li.county, li.city, li.src]).to.deep.equal([225, 0.0225, 'Franklin', '', SRC]);
    const city = run({ county: 'Franklin', city: 'bexley' }).tax.items.find((i) => i.feeType === 'LocalTax')!;
    expect([city.value, city.city, city.src!.url]).to.deep.equal([275, 'Bexley', 'https://example.gov/bexley']);
    const none = run({ county: 'Hamilton' });
    checkEstimate(none, 'hamilton');
    const unk = none.tax.items.find((i) => i.feeType === 'LocalTax')!;
    expect(unk.value).to.equal(null);
    expect(unk.metadata.reason).to.match(
      /Hamilton County is not in the local rate table shipped for OH \(not modelled\)/,
    );
    expect(none.metadata.not_modelled.some((l) => /Hamilton/.test(l))).to.equal(true);
    expect(run({}).tax.items.find((i) => i.feeType === 'LocalTax')!.metadata.reason).to.match(/county is not known/);
  });

  it("a city_required table: an unlisted or missing city leaves the local tax unknown, never the county's rate", () => {
    const s = feeSchedule('CA');
    const ca = localSchedule('CA')!;
    const li = (county: string, city?: string) =>
      estimateFees(
        { state: 'CA', county, city, transaction: 'transfer', sale: { price: 10_000 }, as_of: AS_OF },
        s,
        ca,
      ).tax.items.find((i) => i.feeType === 'LocalTax')!;
    expect(li('Alameda', 'Albany').value).to.equal(350); // 10.75% - 7.25% = 3.5%
    expect(li('Alameda').value).to.equal(null);
    expect(li('Alameda').metadata.reason).to.match(/depends on the city/);
    // Pasadena is an incorporated city in CDTFA's file (10.500%); Altadena, an unincorporated community, is not
    expect(li('Los Angeles', 'Pasadena').value).to.equal(325); // 10.5% - 7.25% = 3.25%
    expect(li('Los Angeles', 'Altadena').value).to.equal(null);
    expect(li('Los Angeles', 'Altadena').metadata.reason).to.match(
      /rate of Altadena \(Los Angeles County\) is not in the local rate table/,
    );
  });

  it('a combined rate split by an unsourced state rate is itself unsourced: shown, not counted', () => {
    const s = feeSchedule('OH');
    const unsourcedState = {
      ...s,
      tax: { ...s.tax, rate: { rate: 0.0575, unsourced: true as const, note: 'fixture' } },
    };
    const e = estimateFees(
      { state: 'OH', county: 'Franklin', transaction: 'transfer', sale: { price: 10_000 }, as_of: AS_OF },
      unsourcedState,
      fixture(),
    );
    const li = e.tax.items.find((i) => i.feeType === 'LocalTax')!;
    expect(li.value).to.equal(null);
    expect(li.metadata.unsourced_cents).to.equal(22_500);
    expect(e.tax.total).to.equal(0);
    expect(
      e.metadata.unsourced.some((l) =>
        /^LocalTax: Local sales tax \(Franklin County\) \(\$225\.00 not counted\)/.test(l),
      ),
    ).to.equal(true);
  });

  it('a "none" fact: a sourced statewide $0 local tax that names no county, whatever county is given', () => {
    for (const state of ['GA', 'NC', 'TX']) {
      const e = estimateFees({
        state,
        county: 'Nowhere',
        city: 'Springfield',
        transaction: 'transfer',
        sale: { price: 10_000 },
        as_of: AS_OF,
      });
      const li = e.tax.items.find((i) => i.feeType === 'LocalTax')!;
      expect([li.value, li.county, li.city, li.metadata.for_county], state).to.deep.equal([0, '', '', 'Nowhere']);
      expect(li.src, state).to.not.equal(null);
    }
  });

  it('a state without local.json keeps its fees.json rules and says its local rates are not modelled', () => {
    expect(localSchedule('CO')).to.equal(null);
    const e = estimateFees({
      state: 'CO',
      county: 'Denver',
      transaction: 'transfer',
      sale: { price: 10_000 },
      vehicle: { weight_lbs: 3_000 },
      as_of: AS_OF,
    });
    expect(e.metadata.not_modelled).to.deep.equal([
      'tax: local sales tax: county and city rates are not modelled for CO',
    ]);
    expect(e.tax.items.find((i) => i.feeType === 'LocalTax')!.value).to.equal(null);
  });

  it("county fees (county_fees): the county's amount with its source, an unlisted county unknown", () => {
    const l = fixture({
      county_fees: [
        { name: 'County road fee', section: 'registration', counties: { Franklin: { cents: 1000, src: SRC } } },
      ],
    });
    const run = (county: string) =>
      estimateFees(
        { state: 'OH', county, transaction: 'transfer', sale: { price: 1_000 }, as_of: AS_OF },
        feeSchedule('OH'),
        l,
      );
    const f = run('Franklin');
    checkEstimate(f, 'fee franklin');
    expect(f.registration.items.find((i) => i.feeType === 'RegistrationLocalFee')).to.include({
      value: 10,
      county: 'Franklin',
    });
    const h = run('Hamilton').registration.items.find((i) => i.feeType === 'RegistrationLocalFee')!;
    expect(h.value).to.equal(null);
    expect(h.metadata.reason).to.match(/Hamilton County's amount is not in the data shipped \(not modelled\)/);
    // not priced for a duplicate (no registration)
    expect(
      estimateFees({ state: 'OH', county: 'Franklin', transaction: 'duplicate', as_of: AS_OF }, feeSchedule('OH'), l)
        .registration.items,
    ).to.deep.equal([]);
  });
});
