/** Which forms an entry gets: transactions, statuses, the odometer exemption, UCC-1 for untitled types. */
import { expect } from 'chai';
import type { TitleEntry } from '../../core/model/entry.js';
import { odometerExempt } from '../../plugins/forms/odometer.js';
import { planForms } from '../../plugins/forms/select.js';
import { detectTransactions, filingState } from '../../core/model/domain.js';
import { buildValues, formatDate, formatMoney, personValues } from '../../plugins/forms/values.js';
import { fixtureEntry } from '../support/fixtures.js';
import { loadStatePlugins } from '../../states/registry.js';
import { defineState } from '../../states/standard.js';
import tx from '../../states/tx/forms.js';

const ALL = loadStatePlugins();

function entry(code: string, mutate: (e: TitleEntry) => void): TitleEntry {
  const e = fixtureEntry(code, 'trailer');
  e.account_data.vehicle!.type = 'AUTO';
  mutate(e);
  return e;
}

describe('forms: deciding the forms', () => {
  it('detects each transaction from the entry', () => {
    expect(detectTransactions(fixtureEntry('WY', 'full'))).to.deep.equal([
      'new_lien',
      'refinance',
      'add_owner',
      'drop_owner',
      'purchase',
      'duplicate_title',
      'lien_release',
      'out_of_state_transfer',
    ]);
    expect(detectTransactions(fixtureEntry('WY', 'repossession'))).to.deep.equal([
      'new_lien',
      'repossession',
      'out_of_state_transfer',
    ]);
    for (const [fx, t] of [
      ['ohv', 'ohv'],
      ['low_speed', 'low_speed'],
      ['trailer', 'trailer'],
      ['boat', 'boat'],
    ] as const) {
      expect(detectTransactions(fixtureEntry('WY', fx))).to.deep.equal(['new_lien', t]);
    }
    // lien release from account_status; duplicate from the title's status text
    expect(
      detectTransactions(
        entry('WY', (e) => {
          e.account_status = 'account_paid';
        }),
      ),
    ).to.include('lien_release');
    expect(
      detectTransactions(
        entry('WY', (e) => {
          e.account_data.vehicle!.title!.status_raw_text = 'TITLE REPORTED STOLEN';
        }),
      ),
    ).to.include('duplicate_title');
    expect(
      detectTransactions(
        entry('WY', (e) => {
          e.account_data.txn_quick_reference = 'repo';
        }),
      ),
    ).to.include('repossession');
  });

  it('files in sale.state when given, else the entry state; out-of-state when the title was issued elsewhere', () => {
    const e = fixtureEntry('TX', 'full');
    expect(e.state).to.equal('NV');
    expect(filingState(e)).to.equal('TX');
    delete e.account_data.sale!.state;
    expect(filingState(e)).to.equal('NV');
    expect(detectTransactions(e)).to.not.include('out_of_state_transfer');
  });

  it('skipped_no_state: no state, or a state not enabled', () => {
    const none = entry('WY', (e) => {
      e.state = '';
      delete e.account_data.sale!.state;
    });
    expect(planForms(none, ALL)).to.include({ skipped: 'skipped_no_state', reason: 'the entry has no state' });
    expect(planForms(fixtureEntry('WY', 'full'), loadStatePlugins(['TX'])).skipped).to.equal('skipped_no_state');
  });

  it('skipped_no_spec: the state declares no forms for the entry', () => {
    const bare = defineState({
      code: 'WY',
      name: 'Wyoming',
      agency: 'x',
      forms: Object.fromEntries(['always', 'new_lien', 'trailer'].map((k) => [k, []])),
    });
    expect(planForms(fixtureEntry('WY', 'trailer'), new Map([['WY', bare]])).skipped).to.equal('skipped_no_spec');
  });

  it('skipped_no_data: no VIN, or no declared form has its data', () => {
    const noVin = entry('WY', (e) => {
      delete e.account_data.vehicle!.vin;
      e.VIN = '';
    });
    expect(planForms(noVin, ALL).skipped).to.equal('skipped_no_data');
    const onlyRelease = defineState({
      code: 'WY',
      name: 'Wyoming',
      agency: 'x',
      forms: { always: ['form_instructions'], new_lien: ['form_lien_release_letter'], trailer: [] },
    });
    const e = fixtureEntry('WY', 'trailer');
    e.account_data.vehicle!.title!.active_liens = [];
    expect(planForms(e, new Map([['WY', onlyRelease]])).skipped).to.equal('skipped_no_data');
  });

  it('a state replaces the standard list where it says so (Texas: the 130-U records a new lien)', () => {
    const plan = planForms(fixtureEntry('TX', 'ohv'), ALL);
    expect(plan.forms).to.include('form_title_application').and.not.include('form_lien_add');
    expect(planForms(fixtureEntry('WY', 'ohv'), ALL).forms).to.include('form_lien_add');
  });

  it("adds a state's bill of sale to a purchase (KS, MT, ND), and leaves out a form that exists only as its template when its flag fails (CO DR 2116)", () => {
    for (const st of ['KS', 'MT', 'ND'])
      expect(planForms(fixtureEntry(st, 'full'), ALL).forms, st).to.include('form_bill_of_sale');
    expect(planForms(fixtureEntry('WY', 'full'), ALL).forms).to.not.include('form_bill_of_sale');
    expect(planForms(fixtureEntry('KS', 'ohv'), ALL).forms, 'no sale').to.not.include('form_bill_of_sale');
    // DR 2116 re-establishes a lost Colorado title: a lost title from Nevada gets no bill of sale, not a drawn one
    expect(planForms(fixtureEntry('CO', 'full'), ALL).forms).to.not.include('form_bill_of_sale');
    expect(planForms(fixtureEntry('CO', 'full', { issuingState: 'CO' }), ALL).forms).to.include('form_bill_of_sale');
  });

  it('perfects a lien on a type the state does not title with a UCC-1', () => {
    const noBoats = defineState({ code: 'WY', name: 'Wyoming', agency: 'x', rules: { untitledTypes: ['BOAT'] } });
    const plan = planForms(fixtureEntry('WY', 'boat'), new Map([['WY', noBoats]]));
    expect(plan.forms)
      .to.include('form_ucc1')
      .and.not.include('form_lien_add')
      .and.not.include('form_title_application');
  });

  it('leaves out the odometer disclosure where 49 CFR 580.17 exempts the vehicle', () => {
    const today = new Date('2026-11-20T00:00:00Z');
    expect(odometerExempt({ type: 'AUTO', year: 2019 }, today)).to.equal(false);
    expect(odometerExempt({ type: 'AUTO', year: 2010 }, today)).to.equal(true); // model year 2010 or older: 10 years
    expect(odometerExempt({ type: 'AUTO', year: 2011 }, today)).to.equal(false); // 2011 or newer: 20 years
    expect(odometerExempt({ type: 'AUTO', year: 2006 }, new Date('2026-01-01T00:00:00Z'))).to.equal(true);
    expect(odometerExempt({ type: 'TRAILER', year: 2024 }, today)).to.equal(true);
    expect(odometerExempt({ type: 'AUTO', year: 2024, gvwr: '16,001' }, today)).to.equal(true);
    expect(planForms(fixtureEntry('WY', 'trailer'), ALL).forms).to.not.include('form_odometer_disclosure');
    expect(planForms(fixtureEntry('WY', 'repossession'), ALL).forms).to.include('form_odometer_disclosure');
    expect(planForms(fixtureEntry('WY', 'ohv'), ALL).forms, 'no ownership change').to.not.include(
      'form_odometer_disclosure',
    );
  });

  it('computes the values forms print', () => {
    expect(formatDate('2026-11-01')).to.equal('11/01/2026');
    expect(formatDate('3-7-2025')).to.equal('03/07/2025');
    expect(formatMoney(18250.5)).to.equal('18,250.50');
    const p = personValues({ name: 'Mary Ann Smith Jr', contact_phone: '+1 512 555 0100' });
    expect(p).to.include({ name_lfm: 'Smith, Mary Ann Jr', phone_area: '512', phone_local: '555-0100' });
    const { values, signers } = buildValues(
      fixtureEntry('TX', 'full'),
      tx,
      detectTransactions(fixtureEntry('TX', 'full')),
    );
    // applicants: owners of record minus the dropped one plus the added one, with the borrower's current data
    expect([values.owner1.name, values.owner2.name, values.owner3.present]).to.deep.equal([
      'Jane Q Borrower',
      'Carlos Added',
      false,
    ]);
    expect(values.owner1.addr.city).to.equal('Springfield');
    expect(values.record_owner1.addr.city).to.equal('Reno');
    expect(signers.map((s) => [s.person.name, s.role, s.person.non_obligor])).to.deep.equal([
      ['Jane Q Borrower', 'Owner and borrower', false],
      ['Carlos Added', 'Owner being added', true],
      ['Robert T Coowner', 'Owner being removed', true],
    ]);
    expect(values.txn).to.include({ ownership_change: true, new_title: true, lien_only: false, duplicate_only: false });
    expect(values.title.odometer_6).to.equal(' 45210');
  });
});
