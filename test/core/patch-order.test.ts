import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createEngine, computeCheckDigit } from '../../index.js';
import { eventually } from '../helpers/engine.js';

const vinWith = (body: string) =>
  body.slice(0, 8) + computeCheckDigit(body.slice(0, 8) + '0' + body.slice(9))! + body.slice(9);

describe('PATCH after a create whose job is still queued', () => {
  it('the later PATCH wins over the earlier create when intake finally runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'titled-order-'));
    const quiet = { log: { level: 'silent' }, stages: ['intake'] };
    const vinA = vinWith('1HGCM82603A004352');
    const vinB = vinWith('2HGCM82603A004353');
    try {
      // no workers: the create's job stays queued
      const a = await createEngine({ dataDir, ...quiet, workers: { enabled: false } });
      await a.orgs.create('acme');
      const p = await a.principalFor('acme');
      const { entryId } = await a.service.create(p, {
        account_data: { vehicle: { vin: vinA, make: 'HONDA' }, loan: { loan_id: 'L-1' } },
      });
      const patched = await a.service.patch(p, entryId, {
        account_data: { vehicle: { vin: vinB }, loan: { loan_id: 'L-2' } },
      });
      expect(patched.VIN).to.equal(vinB);
      await a.stop();

      const b = await createEngine({ dataDir, ...quiet, workers: { pollIntervalMs: 20 } });
      await b.start();
      const pb = await b.principalFor('acme');
      const done = await eventually(
        async () => {
          const e = await b.service.get(pb, entryId);
          return e.job_status === 'complete' && e;
        },
        { what: 'job complete' },
      );
      await b.stop();
      expect(done.VIN).to.equal(vinB);
      expect(done.lenderLoanId).to.equal('L-2');
      expect(done.account_data.vehicle?.make).to.equal('HONDA');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
