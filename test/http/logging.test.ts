import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import {
  accountData,
  basic,
  createEntry,
  makeVin,
  waitForIdle,
  waitForStatus,
  withWrongCheckDigit,
} from './support.js';

const SSN = '987-65-4329';
const DOB = '1957-11-29';
const DL = 'K8675309Z';

for (const dialect of DIALECTS) {
  describe(`logs carry no personal data or credentials (${dialect})`, () => {
    let t: TestEngine;

    before(async () => {
      t = await startTestEngine({ dialect, config: { log: { level: 'debug' } } });
    });
    after(async () => {
      await t?.stop();
    });

    it('SSN, DOB, driver license number and API key text never reach the logs', async () => {
      const secret = t.org.key.slice(t.org.key.indexOf('.') + 1);
      const wrongSecret = 'W'.repeat(43);
      const data = accountData(withWrongCheckDigit(makeVin()), { ssn: SSN, dob: DOB, dl: DL }) as any;
      data.loan.borrower[0].dlid.addr = { street1: '9 Elm', city: 'Austin', state: 'TX', zip: '78701' };
      data.vehicle.title.owners = [{ name: 'Jane Q Borrower', ssn: SSN, dob: DOB, dlid: { number: DL } }];
      data.sale = { seller: { name: 'S', ssn: SSN, dob: DOB, dlid: { number: DL } } };

      // Bearer key
      const id = await createEntry(t, { account_data: data, sync_private: true, dppa_exemption: 'DPPA-1' });
      await waitForStatus(t, id);
      // Basic
      const viaBasic = await t.request('GET', `/title/${id}`, {
        key: null,
        headers: { authorization: basic(t.org.keyId, secret) },
      });
      expect(viaBasic.status).to.equal(200);
      expect(viaBasic.body.account_data.loan.borrower[0].ssn).to.equal(SSN);
      // session cookie
      const login = await t.request('POST', '/auth/login');
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('titled_session='))!
        .split(';')[0]!;
      expect((await t.request('GET', '/title', { key: null, headers: { cookie } })).status).to.equal(200);
      // failures that carry the same data or credentials
      expect((await t.request('GET', '/title', { key: `${t.org.keyId}.${wrongSecret}` })).status).to.equal(403);
      expect(
        (await t.request('GET', '/title', { key: null, headers: { authorization: basic(t.org.keyId, wrongSecret) } }))
          .status,
      ).to.equal(403);
      const badPatch = await t.request('PATCH', `/title/${id}`, {
        body: {
          account_data: { loan: { borrower: [{ ssn: SSN, dob: DOB, dlid: { number: DL }, addr: { zip: SSN } }] } },
        },
      });
      expect(badPatch.status).to.equal(400);
      const badCreate = await t.request('POST', '/title', {
        body: { account_data: { vehicle: { vin: `${SSN}${DL}` }, loan: { borrower: [{ ssn: SSN, dob: 7 }] } } },
      });
      expect(badCreate.status).to.equal(400);
      expect((await t.request('POST', '/title', { rawBody: `{"ssn":"${SSN}", "dob": "${DOB}"` })).status).to.equal(400);
      // an update and a PATCH that succeed
      const patched = await t.request('PATCH', `/title/${id}`, {
        body: { account_data: { loan: { borrower: [{ name: 'New', ssn: SSN, dob: DOB, dlid: { number: DL } }] } } },
      });
      expect(patched.status).to.equal(200);
      await t.request('POST', '/title', { body: { account_data: data, sync_nmvtis: true } });
      await waitForIdle(t);
      expect((await t.request('GET', `/title?vin=${data.vehicle.vin}`)).body.count).to.equal(1);

      const text = t.logs.join('');
      // the test is strict only if debug lines were written (request lines and stage lines)
      expect(text).to.include('"msg":"request"');
      expect(text).to.include('STAGE_DONE');
      expect(text).to.include('VIN_CHECK_DIGIT_MISMATCH');
      for (const [what, value] of [
        ['SSN', SSN],
        ['SSN digits', SSN.replace(/-/g, '')],
        ['DOB', DOB],
        ['license number', DL],
        ['API key', t.org.key],
        ['API key secret', secret],
        ['attempted secret', wrongSecret],
        ['session cookie', cookie.split('=')[1]!],
        ['Basic credentials', basic(t.org.keyId, secret).slice(6)],
      ] as const) {
        expect(text.includes(value), `${what} appears in the logs`).to.equal(false);
      }
    });
  });
}
