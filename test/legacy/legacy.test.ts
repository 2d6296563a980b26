/**
 * The legacy interface (spec: POST /poa, POST /generate_forms) through HTTP:
 * every row of the /poa request table (each state rule, co-owner, pull_live
 * on and off), both date formats, the legacy error body, the own port.
 */
import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';

const NJ_ADDR = '12 Elm St, Newark, NJ 07102';

function vin(n: number, last = '1'): string {
  // 17 characters of the VIN alphabet; position 17 decides the sandbox outcome (docs/sandbox.md)
  return `1HGCV1F3${String(n).padStart(8, '0')}${last}`;
}

async function waitComplete(t: TestEngine, id: string) {
  for (let i = 0; i < 400; i++) {
    const r = await t.request('GET', `/title/${id}`);
    if (r.body.job_status === 'complete' || r.body.job_status === 'error') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`entry ${id} did not finish`);
}

function poaBody(state: string, extra: Record<string, unknown> = {}) {
  return {
    vin: vin(1),
    owner_email: 'owner@example.com',
    state,
    owner_full_name: 'Jane Q Doe',
    owner_address: NJ_ADDR,
    ...extra,
  };
}

for (const dialect of DIALECTS)
  describe(`legacy interface (${dialect})`, function () {
    this.timeout(120_000);
    let t: TestEngine;
    before(async () => {
      t = await startTestEngine({ dialect });
    });
    after(async () => {
      await t.stop();
    });

    describe('POST /legacy/poa: the request table', () => {
      const RULES: [string, string][] = [
        ['NJ', 'owner_ssn'],
        ['OH', 'owner_ssn'],
        ['AZ', 'owner_dob'],
        ['FL', 'owner_dob'],
        ['CO', 'owner_dob'],
        ['AL', 'plate'],
        ['AK', 'plate'],
        ['CA', 'plate'],
        ['KY', 'plate'],
        ['OR', 'plate'],
        ['VT', 'plate'],
      ];
      for (const [state, field] of RULES) {
        it(`${state}: ${field} is required (400 naming it, legacy body)`, async () => {
          const r = await t.request('POST', '/legacy/poa', { body: poaBody(state) });
          expect(r.status).to.equal(400);
          expect(r.body).to.have.all.keys('statusCode', 'message');
          expect(r.body.statusCode).to.equal('400');
          expect(r.body.message).to.match(new RegExp(`missing required fields for ${state}: .*\\b${field}\\b`));
        });
      }

      const VALUE: Record<string, string> = { owner_ssn: '123-45-6789', owner_dob: '04/05/1980', plate: 'ABC123' };
      for (const [field, states] of [
        ['owner_ssn', 'NJ OH'],
        ['owner_dob', 'AZ FL CO'],
        ['plate', 'AL AK CA KY OR VT'],
      ] as const) {
        it(`${field} outside ${states} is refused (400 naming it)`, async () => {
          const r = await t.request('POST', '/legacy/poa', { body: poaBody('TX', { [field]: VALUE[field] }) });
          expect(r.status).to.equal(400);
          expect(r.body.message).to.contain(`fields not allowed for TX: ${field}`);
        });
      }

      it('without pull_live, state, owner_full_name and owner_address are required', async () => {
        const r = await t.request('POST', '/legacy/poa', { body: { vin: vin(2), owner_email: 'o@example.com' } });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('missing required fields: state, owner_full_name, owner_address');
      });

      it('vin and owner_email are required; unknown members and bad values are named', async () => {
        const r = await t.request('POST', '/legacy/poa', {
          body: { state: 'TX', owner_email: 'not-mail', color: 'red' },
        });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.contain('vin: required');
        expect(r.body.message).to.contain('owner_email: must be an e-mail address');
        expect(r.body.message).to.contain('fields not allowed: color');
      });

      it('a co-owner: coowner_full_name and coowner_address required; coowner_* refused without has_coowner', async () => {
        let r = await t.request('POST', '/legacy/poa', { body: poaBody('TX', { has_coowner: true }) });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('missing required fields for TX: coowner_full_name, coowner_address');
        r = await t.request('POST', '/legacy/poa', {
          body: poaBody('TX', { coowner_full_name: 'John Doe', coowner_phone: '5125550100' }),
        });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('fields not allowed for TX: coowner_full_name, coowner_phone');
      });

      it('a co-owner in NJ needs coowner_ssn too', async () => {
        const r = await t.request('POST', '/legacy/poa', {
          body: poaBody('NJ', {
            owner_ssn: '123456789',
            has_coowner: true,
            coowner_full_name: 'John Doe',
            coowner_address: NJ_ADDR,
          }),
        });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('missing required fields for NJ: coowner_ssn');
      });

      it('an address that does not read "street, city, ST ZIP" is refused', async () => {
        const r = await t.request('POST', '/legacy/poa', {
          body: poaBody('TX', { owner_address: 'somewhere in Texas' }),
        });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.contain('owner_address: write the address as');
      });

      it('a bad credential answers 403 in the legacy body', async () => {
        const r = await t.request('POST', '/legacy/poa', { body: poaBody('TX'), key: 'nope' });
        expect(r.status).to.equal(403);
        expect(r.body).to.have.all.keys('statusCode', 'message');
        expect(r.body.statusCode).to.equal('403');
      });
    });

    describe('POST /legacy/poa: accepted', () => {
      it('NJ with owner_ssn and a co-owner: 201, one entry for the VIN, a power of attorney per owner', async () => {
        const v = vin(10);
        const body = poaBody('NJ', {
          vin: v,
          owner_ssn: '123-45-6789',
          has_coowner: true,
          coowner_full_name: 'John R Doe',
          coowner_address: '12 Elm St, Apt 2, Newark, NJ 07102',
          coowner_ssn: '987654321',
          account_id: 'LN-77',
          grantee: 'Acme Auto Finance',
        });
        const r = await t.request('POST', '/legacy/poa', { body });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        expect(r.body.statusCode).to.equal('201');
        expect(r.body.message).to.match(new RegExp(`power of attorney created for VIN ${v} \\(entry [0-9a-f-]{36}\\)`));
        const id = /entry ([0-9a-f-]{36})/.exec(r.body.message)![1]!;
        expect(r.headers.get('location')).to.equal(`/title/${id}`);
        const e = (await t.request('GET', `/title/${id}`)).body;
        expect(e.VIN).to.equal(v);
        expect(e.state).to.equal('NJ');
        expect(e.lenderLoanId).to.equal('LN-77');
        const owners = e.account_data.vehicle.title.owners;
        expect(owners.map((o: { name: string }) => o.name)).to.deep.equal(['Jane Q Doe', 'John R Doe']);
        expect(owners[0].ssn).to.equal('123-45-6789');
        expect(owners[1].addr).to.deep.include({
          street1: '12 Elm St',
          street2: 'Apt 2',
          city: 'Newark',
          state: 'NJ',
          zip: '07102',
        });
        expect(owners[0].contact_email).to.equal('owner@example.com');
        expect(e.account_data.loan.new_lienholder.name).to.equal('Acme Auto Finance');
        expect(e.forms_poa).to.have.length(2);
        // the signature request went out (signing plugin): both owners sign, the request is sent at once
        expect(r.body.message).to.match(
          /; signature request [0-9a-f-]{36} sent to owner@example\.com and the co-owner$/,
        );
        expect(e.signature_requests).to.have.length(1);
        expect(e.signature_requests[0].status).to.equal('SENT');
        expect(e.signature_requests[0].signers).to.have.length(2);
        expect(e.account_status).to.equal('poa_sent');
        // the same VIN again updates the one entry
        const again = await t.request('POST', '/legacy/poa', { body });
        expect(again.status).to.equal(201);
        expect(again.body.message).to.contain(`(entry ${id})`);
        // a retry returns the open request, never a second one
        expect(again.body.message).to.contain(`signature request ${e.signature_requests[0].id} sent`);
        const list = await t.request('GET', `/title?vin=${v}`);
        expect(list.body.items.filter((i: { entryId: string }) => i.entryId === id)).to.have.length(1);
      });

      it('account_id defaults to <web_domain>_<vin>; the dob of FL in both date formats', async () => {
        for (const [n, dob] of [
          [20, '04-05-1980'],
          [21, '04/05/1980'],
        ] as const) {
          const v = vin(n);
          const r = await t.request('POST', '/legacy/poa', {
            body: poaBody('FL', { vin: v, owner_dob: dob, owner_address: '1 Bay St, Tampa, FL 33602' }),
          });
          expect(r.status, JSON.stringify(r.body)).to.equal(201);
          const id = /entry ([0-9a-f-]{36})/.exec(r.body.message)![1]!;
          const e = (await t.request('GET', `/title/${id}`)).body;
          expect(e.account_data.vehicle.title.owners[0].dob).to.equal('1980-04-05');
          expect(e.lenderLoanId).to.equal(`${e.website}_${v}`);
        }
      });

      it('CA with the plate', async () => {
        const r = await t.request('POST', '/legacy/poa', {
          body: poaBody('CA', { vin: vin(30), plate: '8ABC123', owner_address: '1 Main St, Fresno, CA 93721' }),
        });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        const id = /entry ([0-9a-f-]{36})/.exec(r.body.message)![1]!;
        const e = (await t.request('GET', `/title/${id}`)).body;
        expect(e.account_data.vehicle.license_plate).to.equal('8ABC123');
      });

      it('pull_live: owners come from the providers; nothing found is a clear 422', async () => {
        const body: Record<string, unknown> = { vin: vin(40, '3'), owner_email: 'o@example.com', pull_live: true };
        let found = await t.request('POST', '/legacy/poa', { body });
        // the sandbox record decides the state; that state's rules then apply (e.g. FL asks owner_dob)
        const rule = /^missing required fields for ([A-Z]{2}): (owner_ssn|owner_dob|plate)$/.exec(
          found.body.message ?? '',
        );
        if (found.status === 400 && rule) {
          body[rule[2]!] = (
            { owner_ssn: '123456789', owner_dob: '01-02-1970', plate: 'XYZ1' } as Record<string, string>
          )[rule[2]!];
          found = await t.request('POST', '/legacy/poa', { body });
        }
        expect(found.status, JSON.stringify(found.body)).to.equal(201);
        const id = /entry ([0-9a-f-]{36})/.exec(found.body.message)![1]!;
        const e = (await t.request('GET', `/title/${id}`)).body;
        expect(e.account_data.vehicle.title.owners.length).to.be.greaterThan(0);
        expect(e.nmvtis_found_status).to.equal('found');
        expect(e.forms_poa.length).to.be.greaterThan(0);
        const none = await t.request('POST', '/legacy/poa', {
          body: { vin: vin(41, '0'), owner_email: 'o@example.com', pull_live: true },
        });
        expect(none.status).to.equal(422);
        expect(none.body).to.deep.equal({
          statusCode: '422',
          message: `pull_live: NMVTIS and the state's DMV records name no owner of VIN ${vin(41, '0')}; send state, owner_full_name and owner_address with pull_live false`,
        });
      });

      it('pull_live with a state: its rules apply before the pull', async () => {
        const r = await t.request('POST', '/legacy/poa', {
          body: { vin: vin(42, '3'), owner_email: 'o@example.com', pull_live: true, state: 'OH' },
        });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('missing required fields for OH: owner_ssn');
      });
    });

    describe('POST /legacy/generate_forms', () => {
      function transaction(v: string, dateSep: string) {
        const d = (m: string, day: string, y: string) => [m, day, y].join(dateSep);
        const person = {
          customer_id: 'C-1',
          full_name: 'Maria L Garcia',
          dob: d('02', '14', '1985'),
          dlid: { number: 'G1234567', state: 'TX', expiration_date: d('02', '14', '2030') },
          addr: { street1: '500 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
          contact_email: 'maria@example.com',
        };
        return {
          transaction: {
            request_date: d('11', '20', '2026'),
            id: 'LOAN-9',
            state: 'TX',
            pull_nmvtis: false,
            pull_state_data: false,
            borrower: [person],
            security_agreement_sign_date: d('11', '19', '2026'),
            loan_amount: 18250.5,
            new_lienholder: {
              name: 'Acme Auto Finance',
              address_org: { street1: '1 Lender Way', city: 'Dallas', state: 'TX', zip: '75201' },
              address_vault: { street1: 'PO Box 9', city: 'Dallas', state: 'TX', zip: '75202' },
              elt_id: 'E123',
              email: 'liens@acme.example',
            },
          },
          vehicle: {
            vin: v,
            year: '2020',
            make: 'HONDA',
            model: 'ACCORD',
            type: 'AUTO',
            date_of_sale: d('11', '18', '2026'),
            est_fees: [{ feeType: 'TitleFee', name: 'Title', value: 33 }],
            title: {
              number: '12345678',
              issuing_state: 'TX',
              issuance_date: d('05', '01', '2021'),
              odometer_reading: 41000,
              odometer_code_translation: 'ACTUAL',
              owners: [person],
              previous_title: [{ number: 'OLD-1', issuing_state: 'OK', issuance_date: d('01', '02', '2019') }],
            },
          },
        };
      }

      for (const sep of ['-', '/']) {
        it(`maps the legacy shapes (dates with "${sep}") and the entry completes with its forms`, async () => {
          const v = vin(sep === '-' ? 50 : 51);
          const r = await t.request('POST', '/legacy/generate_forms', { body: transaction(v, sep) });
          expect(r.status, JSON.stringify(r.body)).to.equal(201);
          expect(r.body).to.have.all.keys('entryId', 'statusCode');
          expect(r.body.statusCode).to.equal('pending');
          const e = await waitComplete(t, r.body.entryId);
          expect(e.job_status).to.equal('complete');
          expect(e.entryId).to.equal(r.body.entryId);
          const ad = e.account_data;
          expect(ad.loan.loan_id).to.equal('LOAN-9');
          expect(ad.loan.security_agreement_sign_date).to.equal('2026-11-19');
          expect(ad.loan.loan_amount).to.equal(18250.5);
          expect(ad.loan.new_lienholder).to.deep.include({
            name: 'Acme Auto Finance',
            elt_id: 'E123',
            contact_email: 'liens@acme.example',
          });
          expect(ad.loan.new_lienholder.addr).to.deep.include({ street1: '1 Lender Way', city: 'Dallas' });
          expect(ad.loan.new_lienholder.address_vault).to.deep.include({ street1: 'PO Box 9' });
          expect(ad.loan.borrower[0]).to.deep.include({ name: 'Maria L Garcia', dob: '1985-02-14', id: 'C-1' });
          expect(ad.loan.borrower[0].dlid).to.deep.include({ number: 'G1234567', expiration_date: '2030-02-14' });
          expect(ad.vehicle.year).to.equal(2020);
          expect(ad.vehicle.title.issuance_date).to.equal('2021-05-01');
          expect(ad.vehicle.title.odometer_reading).to.equal('41000');
          expect(ad.vehicle.title.previous_title[0]).to.deep.include({ number: 'OLD-1', issuance_date: '2019-01-02' });
          expect(ad.sale.date_of_sale).to.equal('2026-11-18');
          expect(ad.sale.additional_dues.feeEstimates[0]).to.deep.include({ feeType: 'TitleFee', value: 33 });
          expect(e.forms_status).to.be.oneOf(['generated', 'complete', 'partial']);
          expect(e.form_title_application, 'title application').to.be.a('string');
          expect(e.forms_poa.length).to.be.greaterThan(0);
        });
      }

      it('a bad date, an unknown member and a missing state are named', async () => {
        const body = transaction(vin(52), '-');
        (body.transaction as Record<string, unknown>).request_date = '2026.11.20';
        delete (body.transaction as Record<string, unknown>).state;
        (body.vehicle as Record<string, unknown>).colour = 'red';
        const r = await t.request('POST', '/legacy/generate_forms', { body });
        expect(r.status).to.equal(400);
        expect(r.body.statusCode).to.equal('400');
        expect(r.body.message).to.contain('transaction.request_date: must be a date as MM-DD-YYYY or MM/DD/YYYY');
        expect(r.body.message).to.contain('transaction.state: required');
        expect(r.body.message).to.contain('fields not allowed: vehicle.colour');
      });

      it('an invalid VIN is a 400 in the legacy body', async () => {
        const r = await t.request('POST', '/legacy/generate_forms', { body: transaction('SHORT', '-') });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.match(/^vehicle\.vin: /);
      });
    });
  });

describe('legacy interface on a port of its own', function () {
  this.timeout(60_000);
  it('serves /poa and /generate_forms at the root, with the legacy body for unknown routes', async () => {
    const t = await startTestEngine({ config: { plugins: { legacy: { port: 0 } } } });
    try {
      const listening = () =>
        t.logs.map((l) => JSON.parse(l) as { code?: string; port?: number }).find((l) => l.code === 'LEGACY_LISTENING');
      for (let i = 0; !listening() && i < 200; i++) await new Promise((r) => setTimeout(r, 10));
      const base = `http://127.0.0.1:${listening()!.port}`;
      const res = await fetch(`${base}/poa`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.org.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(poaBody('NJ')),
      });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({
        statusCode: '400',
        message: 'missing required fields for NJ: owner_ssn',
      });
      const nf = await fetch(`${base}/title`, { headers: { authorization: `Bearer ${t.org.key}` } });
      expect(nf.status).to.equal(404);
      expect(((await nf.json()) as { statusCode: string }).statusCode).to.equal('404');
    } finally {
      await t.stop();
    }
  });
});
