import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTitledClient } from '../../client/index.js';
import { packageRoot } from '../../core/paths.js';
import { VALID_VIN, eventually, startTestEngine } from '../helpers/engine.js';

describe('typed client (openapi-fetch over the generated types)', function () {
  this.timeout(120_000);

  it('creates, reads, patches, lists and deletes an entry; errors come back as the error body', async () => {
    const t = await startTestEngine();
    try {
      const titled = createTitledClient(t.url, { apiKey: t.org.key, headers: { 'x-request-id': 'client-flow' } });
      const created = await titled.POST('/title', {
        body: { account_data: { vehicle: { vin: VALID_VIN, year: 2003, make: 'HONDA' } } },
      });
      expect(created.error).to.equal(undefined);
      expect(created.response.headers.get('x-request-id')).to.equal('client-flow');
      const entryId = created.data!.entryId;
      expect(created.data!.job_status).to.equal('pending');
      const done = await eventually(
        async () => {
          const r = await titled.GET('/title/{id}', { params: { path: { id: entryId } } });
          return r.data?.job_status === 'complete' ? r.data : undefined;
        },
        { what: 'job complete' },
      );
      expect(done.VIN).to.equal(VALID_VIN);
      const patched = await titled.PATCH('/title/{id}', {
        params: { path: { id: entryId } },
        body: { account_data: { vehicle: { color: 'BLUE' } } },
      });
      expect(patched.data!.account_data.vehicle?.color).to.equal('BLUE');
      const list = await titled.GET('/title', { params: { query: { vin: VALID_VIN, limit: 10 } } });
      expect(list.data!.count).to.equal(1);
      const bad = await titled.PATCH('/title/{id}', {
        params: { path: { id: entryId } },
        body: { job_status: 'complete' } as never,
      });
      expect(bad.response.status).to.equal(403);
      expect(bad.error).to.deep.include({ statusCode: 403, disallowedFields: ['job_status'] });
      const del = await titled.DELETE('/title/{id}', { params: { path: { id: entryId } } });
      expect(del.data!.deletedCount).to.equal(1);
      const gone = await titled.GET('/title/{id}', { params: { path: { id: entryId } } });
      expect(gone.error?.statusCode).to.equal(404);
    } finally {
      await t.stop();
    }
  });

  it('client/openapi.json is the document of the default configuration (run `npm run client` after changing routes)', async () => {
    const t = await startTestEngine({ listen: false });
    try {
      const committed = JSON.parse(readFileSync(join(packageRoot, 'client', 'openapi.json'), 'utf8'));
      expect(committed).to.deep.equal(JSON.parse(JSON.stringify(t.engine.openapi())));
    } finally {
      await t.stop();
    }
  });
});
