import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import {
  accountData,
  createEntry,
  expectError,
  makeVin,
  storedRow,
  waitForIdle,
  waitForStatus,
  CORE_ONLY,
} from './support.js';

for (const dialect of DIALECTS) {
  describe(`HTTP: PATCH /title/{id} (${dialect})`, () => {
    let t: TestEngine;

    before(async () => {
      t = await startTestEngine({ dialect, config: CORE_ONLY });
    });
    after(async () => {
      await t?.stop();
    });

    async function processed(data: Record<string, unknown>): Promise<string> {
      const id = await createEntry(t, { account_data: data });
      await waitForStatus(t, id);
      return id;
    }

    it('a top-level member other than account_data is 403 with disallowedFields listing exactly those; nothing changes', async () => {
      const id = await processed(accountData(makeVin()));
      const before = await storedRow(t, id);
      const res = await t.request('PATCH', `/title/${id}`, {
        body: {
          account_data: { vehicle: { color: 'Red' } },
          job_status: 'complete',
          website: 'other-org',
          VIN: makeVin(),
        },
      });
      expectError(res, 403, { disallowedFields: ['job_status', 'website', 'VIN'] });
      const only = await t.request('PATCH', `/title/${id}`, { body: { account_status: 'lien_perfected' } });
      expectError(only, 403, { disallowedFields: ['account_status'] });
      const after = await storedRow(t, id);
      expect(after.doc).to.equal(before.doc);
      expect(after.version).to.equal(before.version);
    });

    it('{} (and an empty body) returns the current entry unchanged', async () => {
      const id = await processed(accountData(makeVin()));
      const before = await storedRow(t, id);
      const current = await t.request('GET', `/title/${id}`);
      for (const o of [{ body: {} }, {}, { body: { account_data: {} } }]) {
        const res = await t.request('PATCH', `/title/${id}`, o);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal(current.body);
      }
      const after = await storedRow(t, id);
      expect(after.doc).to.equal(before.doc);
      expect(after.version).to.equal(before.version);
    });

    it('merges as RFC 7396: objects merge, arrays replace, null removes; derived members follow', async () => {
      const data = accountData(makeVin(), { borrower: 'First Borrower', loanId: 'L-1' }) as any;
      data.loan.borrower.push({ type: 'PERSON', name: 'Second Borrower' });
      data.vehicle.fee_history = [
        { feeType: 'StateTax', value: 10 },
        { feeType: 'Title', value: 33 },
      ];
      const id = await processed(data);
      const res = await t.request('PATCH', `/title/${id}`, {
        body: {
          account_data: {
            vehicle: {
              color: 'Red',
              model: null,
              fee_history: [{ feeType: 'Registration', value: 5 }],
              title: { number: 'T-2' },
            },
            loan: { borrower: [{ type: 'PERSON', name: 'New Borrower' }], loan_id: 'L-2' },
            txn_quick_reference: 'ref-1',
          },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const ad = res.body.account_data;
      expect(ad.vehicle.color).to.equal('Red');
      expect(ad.vehicle).to.not.have.property('model');
      expect(ad.vehicle.make).to.equal('Honda');
      expect(ad.vehicle.year).to.equal(2019);
      expect(ad.vehicle.fee_history).to.deep.equal([{ feeType: 'Registration', value: 5 }]);
      expect(ad.vehicle.title).to.deep.equal({ number: 'T-2', issuing_state: 'TX' });
      expect(ad.loan.borrower).to.deep.equal([{ type: 'PERSON', name: 'New Borrower' }]);
      expect(ad.loan.loan_amount).to.equal(12000);
      expect(ad.txn_quick_reference).to.equal('ref-1');
      expect(res.body.Borrower).to.equal('New Borrower');
      expect(res.body.lenderLoanId).to.equal('L-2');
      expect(res.body.loanData).to.deep.equal(ad);
      // the response is the full entry, as GET returns it
      const got = await t.request('GET', `/title/${id}`);
      expect(got.body).to.deep.equal(res.body);
      // null removes a whole subtree
      const removed = await t.request('PATCH', `/title/${id}`, { body: { account_data: { loan: null } } });
      expect(removed.status).to.equal(200);
      expect(removed.body.account_data).to.not.have.property('loan');
      expect(removed.body.loanData).to.deep.equal(removed.body.account_data);
    });

    it('PATCH through a duplicate pointer id changes the canonical entry', async () => {
      const vin = makeVin();
      const id = await processed(accountData(vin));
      const pointer = await createEntry(t, { account_data: { vehicle: { vin } } });
      await waitForStatus(t, id);
      const res = await t.request('PATCH', `/title/${pointer}`, {
        body: { account_data: { vehicle: { color: 'Teal' } } },
      });
      expect(res.status).to.equal(200);
      expect(res.body.entryId).to.equal(id);
      expect((await t.request('GET', `/title/${id}`)).body.account_data.vehicle.color).to.equal('Teal');
    });

    it("changing the VIN to another entry's VIN is 409 and changes nothing; to a free VIN it moves the entry", async () => {
      const vinA = makeVin();
      const vinB = makeVin();
      const a = await processed(accountData(vinA));
      const b = await processed(accountData(vinB));
      const before = await storedRow(t, a);
      expectError(await t.request('PATCH', `/title/${a}`, { body: { account_data: { vehicle: { vin: vinB } } } }), 409);
      expectError(
        await t.request('PATCH', `/title/${a}`, { body: { account_data: { vehicle: { vin: vinB.toLowerCase() } } } }),
        409,
      );
      const after = await storedRow(t, a);
      expect(after.doc).to.equal(before.doc);
      expect(after.version).to.equal(before.version);
      expect((await t.request('GET', `/title/${b}`)).body.VIN).to.equal(vinB);
      const vinC = makeVin();
      const moved = await t.request('PATCH', `/title/${a}`, { body: { account_data: { vehicle: { vin: vinC } } } });
      expect(moved.status).to.equal(200);
      expect(moved.body.VIN).to.equal(vinC);
      expect(
        (await t.request('GET', `/title?vin=${vinC}`)).body.items.map((e: { entryId: string }) => e.entryId),
      ).to.deep.equal([a]);
      expect((await t.request('GET', `/title?vin=${vinA}`)).body.items).to.deep.equal([]);
      // a new create of the old VIN is a new entry now
      const fresh = await t.request('POST', '/title', { body: { account_data: { vehicle: { vin: vinA } } } });
      expect(fresh.body.job_status).to.equal('pending');
      expect((await t.request('GET', `/title/${fresh.body.entryId}`)).body.entryId).to.equal(fresh.body.entryId);
    });

    it('a malformed VIN, wrong types or a non-object body are 400; an unknown id is 404', async () => {
      const id = await processed(accountData(makeVin()));
      expectError(
        await t.request('PATCH', `/title/${id}`, { body: { account_data: { vehicle: { vin: 'ABC' } } } }),
        400,
        { match: /account_data\.vehicle\.vin/ },
      );
      expectError(
        await t.request('PATCH', `/title/${id}`, { body: { account_data: { vehicle: { year: 'x' } } } }),
        400,
        { match: /account_data\.vehicle\.year/ },
      );
      expectError(
        await t.request('PATCH', `/title/${id}`, {
          body: { account_data: { loan: { borrower: { name: 'not an array' } } } },
        }),
        400,
        { match: /account_data\.loan\.borrower/ },
      );
      expectError(await t.request('PATCH', `/title/${id}`, { body: { account_data: 'x' } }), 400, {
        match: /account_data/,
      });
      expectError(await t.request('PATCH', `/title/${id}`, { body: [1] }), 400);
      expectError(await t.request('PATCH', `/title/${id}`, { body: 'x' }), 400);
      expectError(
        await t.request('PATCH', '/title/00000000-0000-0000-0000-000000000000', {
          body: { account_data: { vehicle: { color: 'Red' } } },
        }),
        404,
      );
    });
  });

  describe(`HTTP: DELETE /title/{id} (${dialect})`, () => {
    let t: TestEngine;

    before(async () => {
      t = await startTestEngine({ dialect, config: CORE_ONLY });
    });
    after(async () => {
      await t?.stop();
    });

    it('deletes the entry and its pointers: {statusCode: 200, message, entryId, deletedCount}; afterwards every id is 404', async () => {
      const vin = makeVin();
      const id = await createEntry(t, { account_data: accountData(vin) });
      const p1 = await createEntry(t, { account_data: { vehicle: { vin } } });
      const p2 = await createEntry(t, { account_data: { vehicle: { vin } }, sync_nmvtis: true });
      await waitForStatus(t, id);
      const other = await createEntry(t, { account_data: accountData(makeVin()) });
      await waitForIdle(t);
      const org = (await t.engine.orgs.byName(t.org.name))!;
      await t.engine.objects.put(`${org.id}/${id}/docs/title.pdf`, 'pdf bytes');
      const res = await t.request('DELETE', `/title/${id}`);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(['deletedCount', 'entryId', 'message', 'statusCode']);
      expect(res.body.statusCode).to.equal(200);
      expect(res.body.message).to.be.a('string').and.not.equal('');
      expect(res.body.entryId).to.equal(id);
      expect(res.body.deletedCount).to.equal(3);
      for (const gone of [id, p1, p2]) {
        expectError(await t.request('GET', `/title/${gone}`), 404);
        expectError(await t.request('DELETE', `/title/${gone}`), 404);
      }
      expect(await t.engine.objects.get(`${org.id}/${id}/docs/title.pdf`)).to.equal(null);
      expect((await t.request('GET', `/title/${other}`)).status).to.equal(200);
      expect((await t.request('GET', `/title?vin=${vin}`)).body.items).to.deep.equal([]);
      // the VIN is free again: a create makes a new entry
      const again = await t.request('POST', '/title', { body: { account_data: { vehicle: { vin } } } });
      expect(again.body.job_status).to.equal('pending');
      const fresh = await t.request('GET', `/title/${again.body.entryId}`);
      expect(fresh.body.entryId).to.equal(again.body.entryId);
    });

    it('DELETE through a pointer id deletes the canonical entry; without pointers deletedCount is 1', async () => {
      const vin = makeVin();
      const id = await createEntry(t, { account_data: accountData(vin) });
      const p = await createEntry(t, { account_data: { vehicle: { vin } } });
      await waitForIdle(t);
      const res = await t.request('DELETE', `/title/${p}`);
      expect(res.status).to.equal(200);
      expect(res.body.entryId).to.equal(id);
      expect(res.body.deletedCount).to.equal(2);
      expectError(await t.request('GET', `/title/${id}`), 404);
      const solo = await createEntry(t, { account_data: accountData(makeVin()) });
      await waitForIdle(t);
      const r2 = await t.request('DELETE', `/title/${solo}`);
      expect(r2.body.deletedCount).to.equal(1);
    });

    it('an unknown id is 404', async () => {
      expectError(await t.request('DELETE', '/title/00000000-0000-0000-0000-000000000000'), 404);
      expectError(await t.request('DELETE', '/title/not-an-id'), 404);
    });

    it('deleting while a job is queued removes the job and leaves no entry behind', async () => {
      const q = await startTestEngine({ dialect, config: { ...CORE_ONLY, workers: { enabled: false } } });
      try {
        const id = await createEntry(q, { account_data: accountData(makeVin()) });
        const res = await q.request('DELETE', `/title/${id}`);
        expect(res.status).to.equal(200);
        expect(res.body.deletedCount).to.equal(1);
        expect(await q.engine.db.query('SELECT id FROM jobs WHERE "entryId" = ?', [id])).to.deep.equal([]);
      } finally {
        await q.stop();
      }
    });
  });
}
