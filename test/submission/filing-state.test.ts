/**
 * A submission goes to the portal (and the packet to the office) of the state the entry is filed in, core's
 * filingState: the sale's state when given, not the state of the title the client holds. The fixture is a TX sale
 * of a vehicle with a Nevada title; only a TX portal is configured.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { FakePortal } from '../../plugins/submission/index.js';
import { chromiumExecutable } from '../../plugins/submission/portal/browser.js';
import { readyEntry, startSubmissionEngine, waitSubmission, type SubTestEngine } from './support.js';

describe('submission: the filing state picks the portal (a TX sale of a Nevada-titled vehicle)', function () {
  this.timeout(180_000);
  let t: SubTestEngine;
  let portal: FakePortal;

  before(async function () {
    if (!existsSync(chromiumExecutable())) {
      console.log('      skipped: no Chromium is installed (bin/setup installs chromium and chromium-headless-shell)');
      this.skip();
    }
    portal = new FakePortal();
    const url = await portal.start();
    t = await startSubmissionEngine({
      submission: { portals: { TX: { driver: 'fake-portal', url, username: 'titled', password: 'titled' } } },
    });
  });
  after(async () => {
    await t?.stop();
    await portal?.stop();
  });

  it("files with the TX portal although the entry's title (and `state`) is Nevada's", async () => {
    const e = await readyEntry(t, 'TX');
    expect(e.state).to.equal('NV');
    expect(e.account_data.sale.state).to.equal('TX');
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: {} });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const s = await waitSubmission(t, e.entryId, r.body.submissionId, (x) => !!x.applicationNumber, 'filed');
    expect(s.method).to.equal('ONLINE_PORTAL');
    expect([...portal.applications.values()].map((a) => a.reference)).to.include(r.body.submissionId);
  });

  it('a sale in a state without a portal is refused ONLINE_PORTAL (409 naming the state) and goes by MAIL', async () => {
    const e = await readyEntry(t, 'TX', (ad) => {
      ad.sale.state = 'NV';
    });
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'ONLINE_PORTAL' } });
    expect(r.status).to.equal(409);
    expect(r.body.error).to.include('no online portal is configured for NV');
    const auto = await t.request('POST', `/title/${e.entryId}/submit`, { body: {} });
    expect(auto.status, JSON.stringify(auto.body)).to.equal(200);
    const s = (await t.request('GET', `/title/${e.entryId}/submit/${auto.body.submissionId}`)).body;
    expect(s.method).to.equal('MAIL');
  });
});
