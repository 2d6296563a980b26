/**
 * Title collection through POST /title/{id}/sign (issue 15, "done when"): an
 * enrolled organization's entry in a state that needs the original title gets
 * one collection however often and concurrently the signing request is asked
 * for; the SignatureRequest's `title_collection` equals the entry's. A
 * non-enrolled organization and a state that needs no original get none.
 */
import { expect } from 'chai';
import { DIALECTS, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { FACILITY, entryBody } from './support.js';

const id = (v: { collection_id?: string } | undefined) => v?.collection_id;

for (const dialect of DIALECTS) {
  describe(`title collection through POST /title/{id}/sign (${dialect})`, function () {
    this.timeout(120_000);
    let t: TestEngine;
    const base = dialect === 'postgres' ? 7600 : 7500;

    before(async () => {
      t = await startTestEngine({
        dialect,
        config: {
          stages: ['intake', 'forms', 'signing', 'title-collection'],
          plugins: { 'title-collection': { pollIntervalMs: 0 } },
          log: { level: 'warn' },
        },
      });
      const s = await t.request('PATCH', '/title-collection/settings', {
        body: { title_collection: true, physical_title_events: true, receiving_address: FACILITY },
      });
      expect(s.status, JSON.stringify(s.body)).to.equal(200);
    });
    after(async () => {
      await t?.stop();
    });

    const create = async (body: Record<string, unknown>, key?: string): Promise<string> => {
      const res = await t.request('POST', '/title', { body, key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const entryId = res.body.entryId as string;
      await eventually(
        async () => (await t.request('GET', `/title/${entryId}`, { key })).body.job_status === 'complete',
        {
          what: 'job complete',
        },
      );
      return entryId;
    };

    it('sign twice and concurrently: one collection_id, equal on the request and on the entry', async () => {
      const entryId = await create(entryBody(base));
      const first = await t.request('POST', `/title/${entryId}/sign`, { body: {} });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const tc = first.body.title_collection;
      expect(tc, 'title_collection on the SignatureRequest').to.be.an('object');
      expect(tc.collection_id).to.match(/^[0-9a-f-]{36}$/);
      const again = await Promise.all(
        [1, 2, 3, 4].map(() => t.request('POST', `/title/${entryId}/sign`, { body: {} })),
      );
      for (const r of again) {
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body.id, 'the same open request').to.equal(first.body.id);
        expect(id(r.body.title_collection)).to.equal(tc.collection_id);
      }
      const entry = (await t.request('GET', `/title/${entryId}`)).body;
      expect(id(entry.title_collection)).to.equal(tc.collection_id);
      expect(entry.signature_requests).to.have.length(1);
      expect(id(entry.signature_requests[0].title_collection)).to.equal(tc.collection_id);
    });

    it('no collection for a non-enrolled organization, nor for an electronic title', async () => {
      const other = await t.newOrg();
      const plain = await create(entryBody(base), other.key);
      const a = await t.request('POST', `/title/${plain}/sign`, { body: {}, key: other.key });
      expect(a.status, JSON.stringify(a.body)).to.equal(200);
      expect(a.body.title_collection ?? null).to.equal(null);
      expect((await t.request('GET', `/title/${plain}`, { key: other.key })).body.title_collection ?? null).to.equal(
        null,
      );
      const electronic = await create(entryBody(base, { electronic: true }));
      const b = await t.request('POST', `/title/${electronic}/sign`, { body: {} });
      expect(b.status, JSON.stringify(b.body)).to.equal(200);
      expect(b.body.title_collection ?? null).to.equal(null);
    });
  });
}
