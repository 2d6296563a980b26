import 'reflect-metadata';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { BUILTIN_PLUGINS } from '../../plugins/index.js';
import { DIALECTS, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { expectError, makeVin } from '../http/support.js';

/** A purchase financed with a new lien in Travis County, TX. */
function purchase(vin: string, price: number): Record<string, unknown> {
  return {
    vehicle: { vin, year: 2022, make: 'Honda', model: 'Accord', weight: '3,300 lbs', title: { issuing_state: 'TX' } },
    sale: { sale_price: price, state: 'TX', trade_in: 5_000 },
    loan: {
      new_lienholder: { name: 'First Example Bank' },
      borrower: [
        {
          type: 'PERSON',
          name: 'Jane Q Borrower',
          addr: { street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', county: 'Travis' },
        },
      ],
    },
  };
}

async function settled(t: TestEngine, id: string, what: string): Promise<any> {
  return eventually(
    async () => {
      const r = await t.request('GET', `/title/${id}`);
      return r.body?.job_status === 'complete' || r.body?.job_status === 'error' ? r.body : null;
    },
    { what },
  );
}

describe('fees stage: registered and in the default config', () => {
  it('is a built-in stage, listed after the enrichment stages and before forms', async () => {
    expect(await BUILTIN_PLUGINS.fees!.load()).to.be.a('function');
    const stages = (
      JSON.parse(readFileSync(join(packageRoot, 'config', 'default.json'), 'utf8')) as { stages: string[] }
    ).stages;
    const at = stages.indexOf('fees');
    expect(at, 'fees in config/default.json stages').to.be.greaterThan(stages.indexOf('intake'));
    for (const s of ['vin-decode', 'nmvtis', 'public-dmv', 'private-portal', 'insurance'])
      if (stages.includes(s)) expect(at, `after ${s}`).to.be.greaterThan(stages.indexOf(s));
    if (stages.includes('forms')) expect(at).to.be.lessThan(stages.indexOf('forms'));
  });
});

for (const dialect of DIALECTS) {
  describe(`fees end to end through the HTTP API (${dialect})`, () => {
    let t: TestEngine;
    before(async () => {
      t = await startTestEngine({ dialect, config: { stages: ['intake', 'fees'] } });
    });
    after(async () => {
      await t?.stop();
    });

    it('a create with a state and a sale price completes with fee_estimate; POST /fees recomputes it', async () => {
      const created = await t.request('POST', '/title', { body: { account_data: purchase(makeVin(), 25_000) } });
      expect(created.status).to.equal(200);
      expect(created.body.job_status).to.equal('pending');
      const id = created.body.entryId as string;

      const done = await settled(t, id, 'create job settles');
      expect(done.job_status, JSON.stringify(done.job_error)).to.equal('complete');
      const fe = done.fee_estimate;
      expect(Object.keys(fe).sort()).to.deep.equal([
        'metadata',
        'registration',
        'submission_instructions',
        'tax',
        'title',
      ]);
      expect(Object.keys(fe.tax).sort()).to.deep.equal(['items', 'submission_instructions', 'taxable_amount', 'total']);
      // TX: 6.25% of $25,000 less the $5,000 trade-in = $1,250; title $33 (Travis) + lien $0
      expect(fe.tax.taxable_amount).to.equal(20_000);
      expect(fe.tax.total).to.equal(1_250);
      expect(fe.title.total).to.equal(33);
      expect(fe.metadata.transactions).to.deep.equal(['new_lien']);
      expect(fe.metadata.county).to.equal('Travis');
      expect(fe.submission_instructions.address.state).to.equal('TX');
      expect(fe.tax.items[0]).to.include({ feeType: 'StateTax', value: 1_562.5 });

      // PATCH does not recompute; POST /title/{id}/fees does
      const patched = await t.request('PATCH', `/title/${id}`, {
        body: { account_data: { sale: { sale_price: 30_000 } } },
      });
      expect(patched.status).to.equal(200);
      expect(patched.body.fee_estimate.tax.total).to.equal(1_250);

      const fees = await t.request('POST', `/title/${id}/fees`);
      expect(fees.status).to.equal(200);
      expect(fees.body).to.deep.equal({ entryId: id, job_status: 'enriching' });

      const again = await eventually(
        async () => {
          const r = await t.request('GET', `/title/${id}`);
          return r.body?.job_status === 'complete' && r.body.fee_estimate.tax.total !== 1_250 ? r.body : null;
        },
        { what: 'fees job recomputes the estimate' },
      );
      // 6.25% of ($30,000 - $5,000) = $1,562.50
      expect(again.fee_estimate.tax.taxable_amount).to.equal(25_000);
      expect(again.fee_estimate.tax.total).to.equal(1_562.5);
      expect(again.fee_estimate.metadata.computed_at).to.be.a('string');
    });

    it('an entry without a state gets no estimate on create; POST /fees then fails the job, saying why', async () => {
      const created = await t.request('POST', '/title', {
        body: { account_data: { vehicle: { vin: makeVin(), year: 2020 } } },
      });
      const id = created.body.entryId as string;
      const done = await settled(t, id, 'create job settles');
      expect(done.job_status).to.equal('complete');
      expect(done).to.not.have.property('fee_estimate');

      const fees = await t.request('POST', `/title/${id}/fees`);
      expect(fees.body).to.deep.equal({ entryId: id, job_status: 'enriching' });
      const failed = await eventually(
        async () => {
          const r = await t.request('GET', `/title/${id}`);
          return r.body?.job_status === 'error' ? r.body : null;
        },
        { what: 'fees job fails' },
      );
      expect(failed.job_error.stage).to.equal('fees');
      expect(failed.job_error.message).to.match(/names no state/);
    });

    it('POST /title/{id}/fees on an unknown entry is 404', async () => {
      expectError(await t.request('POST', '/title/00000000-0000-0000-0000-000000000000/fees'), 404);
    });
  });
}
