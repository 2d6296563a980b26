import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine, type TestOrg } from '../helpers/engine.js';
import {
  accountData,
  createEntry,
  expectError,
  makeVin,
  storedRow,
  waitForIdle,
  waitForStatus,
  CORE_ONLY,
} from '../http/support.js';

for (const dialect of DIALECTS) {
  describe(`tenancy: organization B never reaches organization A's entries (${dialect})`, () => {
    let t: TestEngine;
    let B: TestOrg;
    const vin = makeVin();
    let aId: string;
    let aPointer: string;
    let aRow: { doc: string; version: number };
    let aGet: string;

    before(async () => {
      t = await startTestEngine({ dialect, config: CORE_ONLY });
      B = await t.newOrg();
      aId = await createEntry(t, {
        account_data: accountData(vin, { state: 'TX', borrower: 'Alice A', loanId: 'A-1' }),
        groupId: 'team-a',
      });
      await waitForStatus(t, aId);
      // a second create of the same VIN by A: a duplicate pointer to A's entry
      aPointer = await createEntry(t, { account_data: { vehicle: { vin }, loan: { loan_id: 'A-1' } } });
      expect(aPointer).to.not.equal(aId);
      await waitForIdle(t);
      aRow = await storedRow(t, aId);
      const got = await t.request('GET', `/title/${aId}`);
      expect(got.status).to.equal(200);
      aGet = JSON.stringify(got.body);
    });
    after(async () => {
      await t?.stop();
    });

    const asB = (o: { body?: unknown } = {}) => ({ ...o, key: B.key });

    it('GET /title/{id}: 404 for the entry and for its duplicate pointer', async () => {
      for (const id of [aId, aPointer]) expectError(await t.request('GET', `/title/${id}`, asB()), 404);
    });

    it('GET /title: B lists nothing of A, with and without filters', async () => {
      const empty = { items: [], count: 0, nextToken: null, hasMore: false };
      for (const q of [
        '',
        '?limit=500',
        `?vin=${vin}`,
        '?groupId=team-a',
        '?state=TX',
        '?job_status=complete',
        '?account_status=originated',
      ]) {
        const res = await t.request('GET', `/title${q}`, asB());
        expect(res.status, q).to.equal(200);
        expect(res.body, q).to.deep.equal(empty);
      }
      const map = await t.request('GET', '/title?stateMap=true', asB());
      expect(map.status).to.equal(200);
      expect(map.body).to.deep.equal({ items: [], count: 0, nextToken: null, hasMore: false, stateMap: {} });
      const mapVin = await t.request('GET', `/title?stateMap=true&vin=${vin}`, asB());
      expect(mapVin.body.stateMap).to.deep.equal({});
    });

    it('PATCH, DELETE and every action: 404 (POST /data: 400, spec), for the entry and the pointer', async () => {
      for (const id of [aId, aPointer]) {
        expectError(
          await t.request('PATCH', `/title/${id}`, asB({ body: { account_data: { loan: { loan_id: 'B-STOLE' } } } })),
          404,
        );
        expectError(await t.request('PATCH', `/title/${id}`, asB({ body: {} })), 404);
        expectError(await t.request('DELETE', `/title/${id}`, asB()), 404);
        expectError(
          await t.request('POST', `/title/${id}/data`, asB({ body: { sync_nmvtis: true, sync_public: true } })),
          400,
        );
        for (const action of ['fees', 'forms', 'sign', 'submit'])
          expectError(await t.request('POST', `/title/${id}/${action}`, asB({ body: {} })), 404);
        expectError(await t.request('GET', `/title/${id}/submit/x`, asB()), 404);
      }
    });

    it("A's entry is unchanged byte for byte afterwards (stored document, version, GET body)", async () => {
      await waitForIdle(t);
      const row = await storedRow(t, aId);
      expect(row.doc).to.equal(aRow.doc);
      expect(row.version).to.equal(aRow.version);
      const got = await t.request('GET', `/title/${aId}`);
      expect(JSON.stringify(got.body)).to.equal(aGet);
      const jobs = await t.engine.db.query('SELECT id FROM jobs WHERE "entryId" = ?', [aId]);
      expect(jobs).to.deep.equal([]);
    });

    it("POST /title with A's VIN makes B its own entry (one entry per VIN per organization)", async () => {
      const res = await t.request(
        'POST',
        '/title',
        asB({
          body: {
            account_data: accountData(vin, { state: 'CA', borrower: 'Bob B', loanId: 'B-1' }),
            sync_nmvtis: true,
          },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // a new entry, not a duplicate pointer of A's: pending, not enriching
      expect(res.body).to.deep.equal({ entryId: res.body.entryId, job_status: 'pending' });
      const bId = res.body.entryId as string;
      expect(bId).to.not.equal(aId);
      expect(bId).to.not.equal(aPointer);
      const bEntry = await waitForStatus(t, bId, 'complete', B.key);
      expect(bEntry.entryId).to.equal(bId);
      expect(bEntry.website).to.equal(B.name);
      expect(bEntry.VIN).to.equal(vin);
      expect(bEntry.Borrower).to.equal('Bob B');
      expect(bEntry.state).to.equal('CA');
      expect(bEntry.storeIndex).to.not.equal(JSON.parse(aGet).storeIndex);
      // A cannot see B's entry either
      expectError(await t.request('GET', `/title/${bId}`), 404);
      // B's second create of the VIN points at B's entry, not A's
      const again = await t.request('POST', '/title', asB({ body: { account_data: { vehicle: { vin } } } }));
      expect(again.status).to.equal(200);
      expect(again.body.entryId).to.not.equal(bId);
      const viaPointer = await t.request('GET', `/title/${again.body.entryId}`, asB());
      expect(viaPointer.body.entryId).to.equal(bId);
      const pointerRows = await t.engine.db.query<{ canonicalId: string }>(
        'SELECT "canonicalId" FROM duplicate_pointers WHERE id = ?',
        [again.body.entryId],
      );
      expect(pointerRows.map((r) => r.canonicalId)).to.deep.equal([bId]);
      // each organization lists exactly its own entry for the VIN
      const listA = await t.request('GET', `/title?vin=${vin}`);
      expect(listA.body.items.map((e: { entryId: string }) => e.entryId)).to.deep.equal([aId]);
      const listB = await t.request('GET', `/title?vin=${vin}`, asB());
      expect(listB.body.items.map((e: { entryId: string }) => e.entryId)).to.deep.equal([bId]);
      const rows = await t.engine.db.query('SELECT id FROM entries WHERE vin = ?', [vin]);
      expect(rows).to.have.length(2);
      await waitForIdle(t);
      // B deleting its entry removes its entry and its pointer only
      const del = await t.request('DELETE', `/title/${bId}`, asB());
      expect(del.status).to.equal(200);
      expect(del.body.deletedCount).to.equal(2);
      expect(del.body.entryId).to.equal(bId);
    });

    it("A's entry is still unchanged after B created, updated and deleted its own entry of the same VIN", async () => {
      const row = await storedRow(t, aId);
      expect(row.doc).to.equal(aRow.doc);
      expect(row.version).to.equal(aRow.version);
      const got = await t.request('GET', `/title/${aId}`);
      expect(JSON.stringify(got.body)).to.equal(aGet);
      expect((await t.request('GET', `/title/${aPointer}`)).body.entryId).to.equal(aId);
    });
  });
}
