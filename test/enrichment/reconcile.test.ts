import { expect } from 'chai';
import type { AccountData } from '../../core/index.js';
import type { TitleEntry } from '../../core/model/entry.js';
import { computeAccountFacts } from '../../plugins/account-facts/facts.js';
import { reconcile, type PullRecord } from '../support/merge.js';
import { applyInsuranceHold } from '../../plugins/enrichment/insurance/holds.js';

const VIN = '1HGCV1F31LA000111';
const pull = (
  source: PullRecord['source'],
  title: Record<string, unknown>,
  vehicle: Record<string, unknown> = {},
): PullRecord => ({
  source,
  ref_id: `${source}:T-${source}`,
  record: { vehicle: { vin: VIN, ...vehicle, title } } as AccountData,
});

describe('enrichment: reconciliation (precedence, title chain, provenance, discrepancies)', () => {
  it('owner and lien facts: client > private (state, portal) > public > NMVTIS, each group from one source', () => {
    const pulls = [
      pull('nmvtis', { owners: [{ name: 'N OWNER' }], has_liens: false }),
      pull('public', { has_liens: true }),
      pull('portal', {
        owners: [{ name: 'OWNER, PORTAL' }],
        number_of_owners: 1,
        has_liens: true,
        active_liens: [{ lienholder: { name: 'PORTAL BANK' } }],
      }),
      pull('state', {
        owners: [{ name: 'STATE OWNER' }],
        has_liens: true,
        active_liens: [{ lienholder: { name: 'STATE BANK' } }],
      }),
    ];
    const r = reconcile({ account_data: { vehicle: { vin: VIN } }, pulls });
    const t = r.account_data.vehicle!.title!;
    expect(t.owners).to.deep.equal([{ name: 'STATE OWNER' }]);
    expect(t.number_of_owners, 'the group comes from one source: state had no number_of_owners').to.equal(undefined);
    expect(t.active_liens![0]!.lienholder!.name).to.equal('STATE BANK');
    expect(r.provenance['/vehicle/title/owners']).to.equal('pull:state');

    const client = reconcile({
      account_data: { vehicle: { vin: VIN, title: { owners: [{ name: 'CLIENT OWNER' }] } } },
      pulls,
    });
    expect(client.account_data.vehicle!.title!.owners).to.deep.equal([{ name: 'CLIENT OWNER' }]);
    expect(client.provenance).to.not.have.property('/vehicle/title/owners');
    // without private pulls: public, then NMVTIS
    const lower = reconcile({ account_data: {}, pulls: pulls.slice(0, 2) });
    expect(lower.account_data.vehicle!.title!.has_liens).to.equal(true);
    expect(lower.account_data.vehicle!.title!.owners).to.deep.equal([{ name: 'N OWNER' }]);
  });

  it('without a client title, the newest title issuance date wins the title chain; older titles become previous_title, newest first', () => {
    const pulls = [
      pull('state', {
        issuing_state: 'TX',
        number: 'TX-2',
        issuance_date: '2021-05-01',
        odometer_reading: '40000',
        previous_title: [{ issuing_state: 'TX', number: 'TX-1', issuance_date: '2019-01-01' }],
      }),
      pull('nmvtis', {
        issuing_state: 'GA',
        number: 'GA-3',
        issuance_date: '2024-02-02',
        odometer_reading: '61000',
        brand: 'SALVAGE',
        brands: [{ brand: 'SALVAGE', nmvtis_code: '11' }],
      }),
      pull('public', { issuing_state: 'GA', issuance_date: '2024-02-02', status: 'active' }),
    ];
    const r = reconcile({ account_data: { vehicle: { vin: VIN } }, pulls });
    const t = r.account_data.vehicle!.title!;
    expect(t).to.include({
      issuing_state: 'GA',
      number: 'GA-3',
      issuance_date: '2024-02-02',
      odometer_reading: '61000',
      brand: 'SALVAGE',
      status: 'active',
    });
    expect((t.previous_title as { number: string }[]).map((p) => p.number)).to.deep.equal(['TX-2', 'TX-1']);
    expect(
      r.provenance['/vehicle/title/status'],
      'the public record describes the same title (state and date)',
    ).to.equal('pull:public');

    // the client's title is the same as the newest pulled one: the client's values stay, the pulls fill the rest
    const same = reconcile({
      account_data: { vehicle: { title: { issuing_state: 'GA', number: 'GA 3', odometer_reading: '60999' } } },
      pulls,
    });
    expect(same.account_data.vehicle!.title).to.include({
      number: 'GA 3',
      odometer_reading: '60999',
      issuance_date: '2024-02-02',
      brand: 'SALVAGE',
    });
  });

  it('a client title is never replaced: a newer title is reported in the review, the same title fills gaps, older ones go to previous_title', () => {
    const pulls = [
      pull('state', {
        issuing_state: 'TX',
        number: 'TX-2',
        issuance_date: '2021-05-01',
        odometer_reading: '40000',
        previous_title: [{ issuing_state: 'TX', number: 'TX-1', issuance_date: '2019-01-01' }],
      }),
      pull('nmvtis', {
        issuing_state: 'GA',
        number: 'GA-3',
        issuance_date: '2024-02-02',
        odometer_reading: '61000',
        brand: 'SALVAGE',
      }),
    ];
    const r = reconcile({
      account_data: { vehicle: { vin: VIN, title: { issuing_state: 'TX', number: 'TX-2' } } },
      pulls,
    });
    const t = r.account_data.vehicle!.title!;
    expect(t).to.include({
      issuing_state: 'TX',
      number: 'TX-2',
      issuance_date: '2021-05-01',
      odometer_reading: '40000',
    });
    expect(t.brand, "nothing of the newer title is mixed into the client's").to.equal(undefined);
    expect((t.previous_title as { number: string }[]).map((p) => p.number)).to.deep.equal(['TX-1']);
    expect(r.review!.other_titles).to.deep.equal([
      {
        source: 'pull:nmvtis',
        relation: 'newer',
        title: {
          issuing_state: 'GA',
          number: 'GA-3',
          issuance_date: '2024-02-02',
          odometer_reading: '61000',
          brand: 'SALVAGE',
        },
      },
    ]);
    expect(r.review!.summary.join('\n')).to.match(
      /NMVTIS reports a newer title \(GA title GA-3 issued 2024-02-02\).*submitted title was kept/,
    );
  });

  it('the odometer case: a client title without a date is kept against a dated NMVTIS title, and the disagreement is recorded', () => {
    const pulls = [
      pull('nmvtis', { issuing_state: 'TX', number: '20240001', issuance_date: '2020-03-01', odometer_reading: '20' }),
    ];
    const r = reconcile({
      account_data: {
        vehicle: { vin: VIN, title: { issuing_state: 'TX', number: '99887766', odometer_reading: '61220' } },
      },
      pulls,
    });
    const t = r.account_data.vehicle!.title!;
    expect(t).to.include({ number: '99887766', odometer_reading: '61220' });
    expect(t.previous_title, 'the submitted title is not moved to previous_title').to.equal(undefined);
    const odo = r.discrepancies.find((d) => d.field_path === '/vehicle/title/odometer_reading')!;
    expect(odo.observations.map((o) => [o.from.kind, o.value])).to.deep.equal([
      ['submitted_account_data', '61220'],
      ['nmvtis_pull', '20'],
    ]);
    expect(r.review!.other_titles![0]).to.include({ source: 'pull:nmvtis', relation: 'undated' });
    expect(r.review!.summary).to.include(
      'vehicle.title.odometer_reading: the submitted account data says 61220; NMVTIS says 20; the submitted value was kept',
    );
  });

  it("sources are recomputed on each merge; the client's values stay; a withdrawn source takes its values with it", () => {
    const pulls = [pull('state', { owners: [{ name: 'A' }] }, { model: 'CIVIC', color: 'RED' })];
    const first = reconcile({ account_data: { vehicle: { vin: VIN } }, pulls });
    expect(first.account_data.vehicle).to.include({ model: 'CIVIC', color: 'RED' });
    const client: AccountData = { vehicle: { vin: VIN, color: 'BLUE' } };
    const later = [pull('state', { owners: [{ name: 'B' }] }, { model: 'ACCORD', color: 'GREEN' })];
    const second = reconcile({ account_data: client, pulls: later });
    expect(second.account_data.vehicle).to.include({ model: 'ACCORD', color: 'BLUE' });
    expect(second.account_data.vehicle!.title!.owners).to.deep.equal([{ name: 'B' }]);
    const third = reconcile({ account_data: client, pulls: [] });
    expect(third.account_data.vehicle).to.deep.equal({ vin: VIN, color: 'BLUE' });
  });

  it('loose client JSON (nulls and scalars inside previous_title, liens and holds) merges without throwing (found by the fuzzer)', () => {
    const client = {
      vehicle: {
        vin: VIN,
        reg_title_holds: [null],
        title: {
          number: 'T-9',
          previous_title: [null, 'x', { number: 'T-1', issuance_date: '2019-01-01' }],
          active_liens: [null],
        },
      },
    } as unknown as AccountData;
    const pulls = [pull('nmvtis', { number: 'N-1', issuance_date: '2020-01-01', previous_title: [null, 7] })];
    const r = reconcile({ account_data: client, pulls, insurance: { policy_number: 'P1' } });
    expect(r.account_data.vehicle!.title!.number).to.equal('T-9');
    expect(r.discrepancies.map((d) => d.field_path)).to.include('/vehicle/title/number');
  });

  it('the VIN decode fills last; insurance fills vehicle.insurance only when the client has none', () => {
    const r = reconcile({
      account_data: { vehicle: { vin: VIN } },
      pulls: [pull('nmvtis', {}, { make: 'HONDA' })],
      decoded: { year: 2020, make: 'HONDA MOTOR', body: 'Sedan' },
      insurance: { policy_number: 'P1' },
    });
    expect(r.account_data.vehicle).to.include({ make: 'HONDA', year: 2020, body: 'Sedan' });
    expect(r.provenance['/vehicle/year']).to.equal('vin_decode');
    expect(r.account_data.vehicle!.insurance).to.deep.equal({ policy_number: 'P1' });
  });

  it('records agreements and disagreements in the deprecated shapes, documents included', () => {
    const pulls = [
      pull(
        'state',
        { number: '123', has_liens: true, owners: [{ name: 'JANE Q DOE' }] },
        { make: 'HONDA', year: 2020 },
      ),
      pull('portal', { number: '123', has_liens: true, owners: [{ name: 'DOE, JANE' }] }, { make: 'Honda' }),
      pull('public', { has_liens: false }),
    ];
    const documents = [
      {
        ref_id: 'org/e/docs/title.pdf',
        doc_type: 'VEHICLE_TITLE',
        record: { vehicle: { year: 2019, title: { number: '123' } } } as AccountData,
      },
    ];
    const r = reconcile({ account_data: {}, pulls, documents });
    const d = Object.fromEntries(r.discrepancies.map((x) => [x.field_path, x]));
    expect(Object.keys(d).sort()).to.deep.equal(['/vehicle/title/has_liens', '/vehicle/year']);
    expect(d['/vehicle/year']!.observations).to.deep.equal([
      { from: { kind: 'document_upload', ref_id: 'org/e/docs/title.pdf', doc_type: 'VEHICLE_TITLE' }, value: 2019 },
      { from: { kind: 'state_portal_pull', ref_id: 'state:T-state', doc_type: 'STATE_RECORD' }, value: 2020 },
    ]);
    const m = Object.fromEntries(r.matches.map((x) => [x.field_path, x]));
    expect(m['/vehicle/title/number']!.agreed_value).to.equal('123');
    expect(m['/vehicle/title/number']!.sources.map((s) => s.kind)).to.deep.equal([
      'document_upload',
      'state_portal_pull',
      'state_portal_pull',
    ]);
    expect(m['/vehicle/make'], 'case does not make a disagreement').to.not.equal(undefined);
    expect(m['/vehicle/title/owners'], 'names compared with the tolerant rules').to.not.equal(undefined);
  });
});

describe('enrichment: INSURANCE holds', () => {
  it('adds one hold when coverage lapsed, clears it (keeping it) when coverage is active again', () => {
    const ad: AccountData = {
      vehicle: { reg_title_holds: [{ hold_type: 'REGISTRATION', hold_code: 'X', source: 'client' }] },
    };
    expect(
      applyInsuranceHold(ad, { status: 'LAPSED', lapse_date: '2026-02-01', provider_name: 'ACME' }, '2026-03-04'),
    ).to.equal('hold_added');
    expect(applyInsuranceHold(ad, { status: 'LAPSED', lapse_date: '2026-02-01' }, '2026-03-04')).to.equal('unchanged');
    expect(ad.vehicle!.reg_title_holds).to.have.length(2);
    expect(ad.vehicle!.reg_title_holds![1]).to.include({
      hold_type: 'INSURANCE',
      hold_code: 'INSURANCE_LAPSED',
      issue_date: '2026-02-01',
      source: 'insurance',
    });
    expect(ad.vehicle!.has_reg_title_holds).to.equal(true);
    expect(applyInsuranceHold(ad, { status: 'ACTIVE' }, '2026-03-10')).to.equal('hold_cleared');
    expect(ad.vehicle!.reg_title_holds![1]!.clear_date).to.equal('2026-03-10');
    expect(ad.vehicle!.reg_title_holds![0], 'holds of others are untouched').to.deep.equal({
      hold_type: 'REGISTRATION',
      hold_code: 'X',
      source: 'client',
    });
    expect(ad.vehicle!.has_reg_title_holds, "the client's hold is still open").to.equal(true);
  });
});

describe('enrichment: account_facts', () => {
  const entry = (ad: AccountData): TitleEntry =>
    ({ account_data: ad, last_modified: Date.UTC(2026, 2, 4), job_status: 'complete' }) as unknown as TitleEntry;
  const borrower = { loan: { borrower: [{ name: 'Robert T. Smith Jr.', id: 'B1' }, { name: 'Alice Smith' }] } };

  it('borrower on title with a nickname and suffix; co-owner joined by OR or AND', () => {
    const or = computeAccountFacts(
      entry({
        ...borrower,
        vehicle: { title: { owners: [{ name: 'SMITH, BOB JR' }, { name: 'CAROL KING' }], conjunction: 'OR' } },
      }),
    );
    expect(or.borrower_on_title.value).to.equal(true);
    expect(or.borrower_on_title.summary).to.match(/SMITH, BOB JR/);
    expect(or.borrower_signature_only_needed_for_title.value).to.equal(true);
    const ref = or.borrower_on_title.references.find((r) => r.from.kind === 'submitted_borrower')!;
    expect(ref).to.deep.equal({
      field_path: '/account_data/loan/borrower/0/name',
      value: 'Robert T. Smith Jr.',
      from: { kind: 'submitted_borrower', ref_id: 'B1' },
    });
    const and = computeAccountFacts(
      entry({
        ...borrower,
        vehicle: { title: { owners: [{ name: 'BOB SMITH' }, { name: 'CAROL KING' }], is_and: true } },
      }),
    );
    expect(and.borrower_signature_only_needed_for_title.value).to.equal(false);
    expect(and.borrower_signature_only_needed_for_title.summary).to.match(/CAROL KING/);
    const both = computeAccountFacts(
      entry({
        ...borrower,
        vehicle: { title: { owners: [{ name: 'BOB SMITH' }, { name: 'ALICE SMITH' }], is_and: true } },
      }),
    );
    expect(both.borrower_signature_only_needed_for_title.value, 'every owner is a borrower').to.equal(true);
    const sr = computeAccountFacts(
      entry({
        loan: { borrower: [{ name: 'Robert Smith Jr' }] },
        vehicle: { title: { owners: [{ name: 'ROBERT SMITH SR' }] } },
      }),
    );
    expect(sr.borrower_on_title.value, 'Jr is not Sr').to.equal(false);
    const none = computeAccountFacts(entry({ ...borrower, vehicle: { title: {} } }));
    expect(none.borrower_on_title.value).to.equal(false);
    expect(none.borrower_on_title.summary).to.match(/no owners/);
    const oneLine = computeAccountFacts(
      entry({ ...borrower, vehicle: { title: { owner_names_one_line: 'ROBERT SMITH AND CAROL KING' } } }),
    );
    expect(oneLine.borrower_on_title.value).to.equal(true);
    expect(oneLine.borrower_signature_only_needed_for_title.value).to.equal(false);
  });

  it('problematic brands by name, by NMVTIS code, and the odometer brand; active liens', () => {
    const f = computeAccountFacts(
      entry({
        vehicle: {
          title: {
            brands: [{ nmvtis_code: '02', brand: 'FIRE' }],
            odometer_code_translation: 'NOT_ACTUAL',
            active_liens: [
              { lienholder: { name: 'ALLY BANK' } },
              { lienholder: { name: 'OLD BANK' }, lien_release_date: '2020-01-01' },
            ],
          },
        },
      }),
    );
    expect(f.has_problematic_brands.value).to.equal(true);
    expect(f.has_problematic_brands.summary)
      .to.match(/FIRE/)
      .and.match(/odometer/);
    expect(f.are_there_active_liens.value).to.equal(true);
    expect(f.are_there_active_liens.summary).to.equal('The title shows 1 active lien (ALLY BANK).');
    const clean = computeAccountFacts(
      entry({ vehicle: { title: { brands: [], has_liens: false, odometer_code_translation: 'ACTUAL' } } }),
    );
    expect(clean.has_problematic_brands.value).to.equal(false);
    expect(clean.are_there_active_liens).to.deep.equal({
      value: false,
      summary: 'The title shows no active liens.',
      references: [
        { field_path: '/account_data/vehicle/title/has_liens', value: false, from: { kind: 'reconciled_title' } },
      ],
    });
    expect(clean.computed_at).to.equal('2026-03-04T00:00:00.000Z');
    expect(clean.source).to.equal('reconcile');
  });
});
