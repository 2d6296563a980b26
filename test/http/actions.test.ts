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

const UNKNOWN = '00000000-0000-0000-0000-000000000000';

for (const dialect of DIALECTS) {
  describe(`HTTP: entry actions with no such stage enabled (${dialect})`, () => {
    let t: TestEngine;
    let id: string;
    let docsOnly: string;

    before(async () => {
      t = await startTestEngine({ dialect, config: CORE_ONLY });
      id = await createEntry(t, { account_data: accountData(makeVin()) });
      docsOnly = await createEntry(t, { attachments: ['https://docs.example.test/title.pdf'] });
      await waitForStatus(t, id);
      await waitForIdle(t);
    });
    after(async () => {
      await t?.stop();
    });

    describe('POST /title/{id}/data', () => {
      it('no sync flag is 400 (empty body, {}, all flags false, only dppa_exemption)', async () => {
        for (const body of [
          undefined,
          {},
          { sync_nmvtis: false, sync_public: false, sync_private: false },
          { dppa_exemption: 'X' },
        ]) {
          expectError(await t.request('POST', `/title/${id}/data`, { body }), 400, { match: /sync_/ });
        }
      });

      it('an unknown entry is 400 (spec: same status as no flag)', async () => {
        expectError(await t.request('POST', `/title/${UNKNOWN}/data`, { body: { sync_nmvtis: true } }), 400, {
          match: /not found/,
        });
      });

      it('an entry with empty account_data (created from documents only) is 409', async () => {
        expectError(await t.request('POST', `/title/${docsOnly}/data`, { body: { sync_public: true } }), 409);
      });

      it('with no enrichment stage enabled: 501 with the error body, and the entry is unchanged', async () => {
        const before = await storedRow(t, id);
        for (const flag of ['sync_nmvtis', 'sync_public', 'sync_private']) {
          expectError(await t.request('POST', `/title/${id}/data`, { body: { [flag]: true } }), 501);
        }
        const after = await storedRow(t, id);
        expect(after.doc).to.equal(before.doc);
        expect(after.version).to.equal(before.version);
        expect(await t.engine.db.query('SELECT id FROM jobs WHERE "entryId" = ?', [id])).to.deep.equal([]);
      });

      it('wrong flag types are 400 naming the flag', async () => {
        expectError(await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: 'yes' } }), 400, {
          match: /sync_nmvtis/,
        });
        expectError(await t.request('POST', `/title/${id}/data`, { body: [true] }), 400);
      });
    });

    for (const action of ['fees', 'forms', 'sign', 'submit']) {
      it(`POST /title/{id}/${action}: 501 for an existing entry, 404 for an unknown id`, async () => {
        const before = await storedRow(t, id);
        expectError(await t.request('POST', `/title/${id}/${action}`), 501);
        expectError(await t.request('POST', `/title/${UNKNOWN}/${action}`), 404);
        const after = await storedRow(t, id);
        expect(after.doc).to.equal(before.doc);
      });
    }

    it('GET /title/{id}/submit/{submissionId}: 501 for an existing entry, 404 for an unknown id', async () => {
      expectError(await t.request('GET', `/title/${id}/submit/sub-1`), 501);
      expectError(await t.request('GET', `/title/${UNKNOWN}/submit/sub-1`), 404);
    });
  });
}
