/**
 * Fixture entries for the state plugin tester and the forms tests: one
 * "full" entry that is as many transactions at once as can go together
 * (refinance with a new lien, owners added and dropped, a purchase, a lost
 * title, a lien release, a title from another state), one repossession, and
 * one lean new-lien entry per special vehicle type (in-state, one owner).
 */
import type { TitleEntry } from '../../core/plugin-api.js';

export type FixtureName = 'full' | 'repossession' | 'ohv' | 'low_speed' | 'trailer' | 'boat' | 'minimal';
export const FIXTURES: readonly FixtureName[] = ['full', 'repossession', 'ohv', 'low_speed', 'trailer', 'boat'];

/** A VIN with a valid check digit. */
export const FIXTURE_VIN = '1HGCM82633A004352';

/** A name long enough to overflow any single field (tests check that it wraps or shrinks). */
export const LONG_NAME =
  'Maximiliana Alexandrina Evangelina Bartholomew-Fitzgerald de la Vega-Santisteban y Montenegro-Wolfeschlegelsteinhausen-Bergerdorff Castellanos-Ortiz III';

const addr = (street1: string, city: string, state: string, zip: string, county?: string) => ({
  street1,
  city,
  state,
  zip,
  ...(county ? { county } : {}),
});

export interface FixtureOptions {
  /** Replace the first borrower's (and owner's) name. */
  borrowerName?: string;
  /** The title's issuing state (default: another state than `code`). */
  issuingState?: string;
  /** Account status (lien release is detected from `account_paid`). */
  accountStatus?: TitleEntry['account_status'];
}

/** A title entry as the pipeline leaves it before the forms stage. */
export function fixtureEntry(code: string, name: FixtureName, o: FixtureOptions = {}): TitleEntry {
  const st = code.toUpperCase();
  const lean = name !== 'full' && name !== 'repossession';
  const other = o.issuingState ?? (lean ? st : st === 'NV' ? 'AZ' : 'NV');
  const jane = o.borrowerName ?? 'Jane Q Borrower';
  const janeTitle = {
    type: 'PERSON',
    name: jane,
    ownership_type: 'registered_owner',
    addr: addr('77 Old Mill Rd', 'Reno', other, '89501'),
  };
  const janeNow = {
    type: 'PERSON',
    name: jane,
    id: 'borrower-1',
    name_first: o.borrowerName ? undefined : 'Jane',
    name_middle: o.borrowerName ? undefined : 'Q',
    name_last: o.borrowerName ? undefined : 'Borrower',
    oats_names: ['Jane Borrower', 'J. Q. Borrower'],
    dob: '1980-02-03',
    ssn: '111-22-3333',
    dlid: { number: 'D1234567', state: st },
    contact_phone: '(512) 555-0100',
    contact_email: 'jane@example.com',
    addr: addr('1 Main St', 'Springfield', st, '78701', 'Travis'),
    addr_mailing: addr('PO Box 99', 'Springfield', st, '78702'),
    insurance: { provider_name: 'Safe Mutual', policy_number: 'POL-42' },
  };
  const robert = {
    type: 'PERSON',
    name: 'Robert T Coowner',
    id: 'owner-2',
    addr: addr('77 Old Mill Rd', 'Reno', other, '89501'),
    dlid: { number: 'C7654321', state: other },
  };
  const carlos = {
    type: 'PERSON',
    name: 'Carlos Added',
    id: 'owner-3',
    dlid: { number: 'A5550001', state: st },
    addr: addr('1 Main St', 'Springfield', st, '78701'),
  };
  const acme = {
    type: 'LIENHOLDER',
    name: 'Acme Auto Finance LLC',
    elt_id: 'E12',
    feid: '12-3456789',
    contact_phone: '8005550199',
    addr: addr('500 Lender Way, Suite 200', 'Dallas', 'TX', '75201'),
    signatory: { type: 'PERSON', name: 'Pat Signer', id: 'sig-1' },
  };
  const oldBank = {
    type: 'LIENHOLDER',
    name: 'Old Bank NA',
    addr: addr('9 Vault St', 'Phoenix', 'AZ', '85001'),
    signatory: { type: 'PERSON', name: 'Lee Officer' },
  };
  const type =
    name === 'ohv'
      ? 'OHV'
      : name === 'low_speed'
        ? 'LOW_SPEED'
        : name === 'trailer'
          ? 'TRAILER'
          : name === 'boat'
            ? 'BOAT'
            : 'AUTO';

  const vehicle: Record<string, unknown> = {
    vin: FIXTURE_VIN,
    year: 2019,
    make: 'Honda',
    model: 'Accord',
    body: '4D SEDAN',
    type,
    color: 'Blue',
    color_secondary: 'Black',
    license_plate: 'ABC1234',
    weight_unladen: '3131',
    weight_rating: '4400',
    fuel_type: 'Gasoline',
    motorcycle_engine_number: '',
    title: {
      number: 'T-100200',
      issuing_state: other,
      issuance_date: '2021-06-15',
      odometer_reading: '45,210',
      odometer_reading_unit: 'MI',
      odometer_code_translation: 'ACTUAL',
      conjunction: 'AND',
      is_and: true,
      has_liens: true,
      status: name === 'full' ? 'LOST' : 'active',
      owners: name === 'minimal' ? [] : lean ? [{ ...janeTitle, addr: janeNow.addr }] : [janeTitle, robert],
      active_liens: [
        {
          lienholder: oldBank,
          lien_date: '2021-06-10',
          lien_amount: '15000',
          lien_id: 'OB-998',
          lien_release_signed: name === 'full',
          lien_release_date: '2026-10-01',
        },
      ],
    },
  };
  const loan: Record<string, unknown> = {
    loan_id: 'LN-0001',
    borrower: [janeNow],
    new_lienholder: acme,
    security_agreement_sign_date: '2026-11-01',
    loan_amount: 18250.5,
    payoff_amount: 9120.33,
    per_diem: 2.15,
    release_title_to_address: addr('1 Main St', 'Springfield', st, '78701'),
  };
  if (name === 'full') {
    loan.prior_lien = { lienholder: oldBank, lien_date: '2021-06-10', lien_amount: '15000', lien_id: 'OB-998' };
    loan.add_owner = [carlos];
    loan.drop_owner = [robert];
  }
  const sale: Record<string, unknown> =
    name === 'repossession'
      ? { type: 'REPOSSESSION', date_of_sale: '2026-10-20', state: st }
      : lean
        ? { state: st }
        : {
            type: 'USED',
            sale_type: 'USED',
            sale_price: 21500,
            date_of_sale: '10/28/2026',
            state: st,
            seller: { type: 'PERSON', name: 'Sam Seller', addr: addr('3 Elm St', 'Reno', other, '89502') },
          };
  const ad = { vehicle, loan, sale, txn_quick_reference: name === 'repossession' ? 'repossession' : 'refinance' };
  const entryId = `fixture-${st.toLowerCase()}-${name}`;
  return {
    website: 'fixture-org',
    entryId,
    userId: 'tk_fixture',
    job_status: 'generating_forms',
    createdAt: '2026-11-20T00:00:00.000Z',
    last_modified: 0,
    storeIndex: `org-fixture/${entryId}`,
    VIN: FIXTURE_VIN,
    state: other,
    Borrower: jane,
    lenderLoanId: 'LN-0001',
    attachment: [],
    loanData: structuredClone(ad) as TitleEntry['loanData'],
    account_data: ad as TitleEntry['account_data'],
    account_status: o.accountStatus ?? 'originated',
    tracking_url_provider: '',
    bdaJobs: {},
    ...(name === 'full' ? { physical_title_status: 'unavailable' } : {}),
  };
}

/** mulberry32: a small seeded PRNG, so random test inputs and bench batches are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
