/**
 * Filing through an online portal, end to end through the HTTP API: the
 * worker drives the shipped fake state portal in headless Chromium. Every
 * submission status is reached; a follow-up round; retries after injected
 * failures file once; a lost answer is found by reference; a CAPTCHA and a
 * validation error end in ERROR; account_status webhooks arrive in order.
 * SQLite only (the store parts run on both databases in mail.test.ts).
 */
import { expect } from 'chai';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually } from '../helpers/engine.js';
import type { Receiver } from '../webhook/support.js';
import type { FakePortal } from '../../plugins/submission/index.js';
import { chromiumExecutable } from '../../plugins/submission/portal/browser.js';
import {
  accountEvents,
  accountStatusHooks,
  readyEntry,
  startSubmissionEngine,
  waitSubmission,
  type SubTestEngine,
} from './support.js';

const CHROMIUM = '/usr/bin/chromium';
const FINAL = ['ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR'];
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'submission');

describe('submission: ONLINE_PORTAL against the fake state portal (sqlite)', function () {
  this.timeout(300_000);
  let t: SubTestEngine;
  let portal: FakePortal;
  let hooks: Receiver;
  let docs: Server;
  let docsUrl = '';

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: ${CHROMIUM} is missing (the project's setup installs Debian's chromium)`);
      this.skip();
    }
    t = await startSubmissionEngine({
      webhook: true,
      submission: { fakePortal: { start: true }, maxAttempts: 3, chromiumPath: CHROMIUM },
    });
    portal = t.plugin.fakePortal!;
    hooks = await accountStatusHooks(t);
    docs = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 driver license'),
    );
    await new Promise<void>((ok) => docs.listen(0, '127.0.0.1', ok));
    docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await t?.stop();
    await hooks?.close();
    docs?.close();
  });

  const control = (c: Record<string, unknown>) =>
    fetch(`${portal.url}/__control`, { method: 'POST', body: JSON.stringify(c) });
  const appsOf = (sid: string) => [...portal.applications.values()].filter((a) => a.reference === sid);
  const statuses = (s: any) => s.history.map((h: any) => h.to);
  const submit = async (entryId: string, body: unknown = { method: 'ONLINE_PORTAL' }) => {
    const r = await t.request('POST', `/title/${entryId}/submit`, { body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.status).to.equal('PENDING');
    return r.body.submissionId as string;
  };
  const final = (entryId: string, sid: string) =>
    waitSubmission(t, entryId, sid, (s) => FINAL.includes(s.status), `${sid} final`);
  const hookEvents = (entryId: string) =>
    hooks.ok
      .filter((r) => r.body?.entryId === entryId)
      .flatMap((r) => r.body.webhook_events as string[])
      .map((n) => n.replace('title.account_status.', ''));

  it('SUBMITTED -> UNDER_REVIEW -> ACCEPTED with an applicationNumber and a confirmationImg PNG; webhooks in order', async () => {
    const e = await readyEntry(t, 'TX');
    const sid = await submit(e.entryId, {});
    const s = await final(e.entryId, sid);
    expect(s.status, JSON.stringify(s)).to.equal('ACCEPTED');
    expect(s.method).to.equal('ONLINE_PORTAL');
    expect(statuses(s)).to.deep.equal(['PENDING', 'SUBMITTED', 'UNDER_REVIEW', 'ACCEPTED']);
    expect(s.applicationNumber).to.match(/^APP-\d{6}$/);
    const img = await fetch(s.confirmationImg);
    expect(img.status).to.equal(200);
    const png = Buffer.from(await img.arrayBuffer());
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    writeFileSync(join(ARTIFACTS, 'confirmation.png'), png);
    const apps = appsOf(sid);
    expect(apps).to.have.length(1);
    expect(apps[0]!.no).to.equal(s.applicationNumber);
    expect(apps[0]!.fields).to.include({
      vin: e.VIN,
      year: '2019',
      make: 'Honda',
      lienholder_name: 'Acme Auto Finance LLC',
    });
    expect(apps[0]!.documents.length).to.be.greaterThan(0);
    expect(apps[0]!.documents.map((d) => d.filename)).to.include('form_title_application.pdf');
    const order = ['filing_en_route', 'filing_received', 'lien_filed', 'lien_perfected'];
    expect(await accountEvents(t, e.entryId)).to.deep.equal(order);
    await eventually(async () => hookEvents(e.entryId).length === order.length, { what: 'webhooks', tries: 2000 });
    expect(hookEvents(e.entryId)).to.deep.equal(order);
  });

  it('ACTION_REQUIRED, a follow-up round through the public API, then ACCEPTED', async () => {
    const e = await readyEntry(t, 'TX');
    await control({ scenarios: { [e.VIN]: 'followup' } });
    const sid = await submit(e.entryId);
    const asked = await waitSubmission(
      t,
      e.entryId,
      sid,
      (x) => x.status === 'ACTION_REQUIRED' || FINAL.includes(x.status),
      'ACTION_REQUIRED',
    );
    expect(asked.status).to.equal('ACTION_REQUIRED');
    expect(asked.feedbackMessage).to.equal("Upload a copy of the owner's driver license.");
    const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/documents`, {
      body: { documents: [{ url: `${docsUrl}/dl.pdf` }] },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.status).to.equal('SUBMITTED');
    const s = await final(e.entryId, sid);
    expect(s.status).to.equal('ACCEPTED');
    expect(statuses(s)).to.deep.equal([
      'PENDING',
      'SUBMITTED',
      'UNDER_REVIEW',
      'ACTION_REQUIRED',
      'SUBMITTED',
      'UNDER_REVIEW',
      'ACCEPTED',
    ]);
    expect(s.followUpRounds).to.have.length(1);
    expect(s.followUpRounds[0].feedbackMessage).to.equal("Upload a copy of the owner's driver license.");
    expect(s.followUpRounds[0].sentAt).to.be.a('string');
    const [app] = appsOf(sid);
    expect(app!.rounds).to.equal(1);
    expect(app!.followUps[0]!.map((f) => f.filename)).to.deep.equal(['dl.pdf']);
    expect(appsOf(sid)).to.have.length(1);
    expect(await accountEvents(t, e.entryId)).to.deep.equal([
      'filing_en_route',
      'filing_received',
      'lien_filed',
      'lien_perfected',
    ]);
  });

  it('REJECTED with error and feedbackMessage; account_status lien_error', async () => {
    const e = await readyEntry(t, 'TX');
    await control({ scenarios: { [e.VIN]: 'reject' } });
    const s = await final(e.entryId, await submit(e.entryId));
    expect(s).to.include({
      status: 'REJECTED',
      error: 'the state rejected the application',
      feedbackMessage: 'The lienholder name does not match the title record.',
    });
    expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route', 'filing_received', 'lien_error']);
  });

  it('injected failures are retried and the application is filed once; a lost answer is found by reference', async () => {
    const e = await readyEntry(t, 'TX');
    await control({ failNext: 2 });
    const s = await final(e.entryId, await submit(e.entryId));
    expect(s.status).to.equal('ACCEPTED');
    expect(appsOf(s.submissionId)).to.have.length(1);

    const e2 = await readyEntry(t, 'TX');
    await control({ failAfterSubmit: 1 });
    const s2 = await final(e2.entryId, await submit(e2.entryId));
    expect(s2.status).to.equal('ACCEPTED');
    expect(appsOf(s2.submissionId)).to.have.length(1);
    expect(s2.applicationNumber).to.equal(appsOf(s2.submissionId)[0]!.no);
    expect(s2.history[1]).to.include({ to: 'SUBMITTED', note: 'found by reference after a lost answer' });
  });

  it("ERROR with error: after the worker's retries, on a CAPTCHA, on a validation error", async () => {
    const e = await readyEntry(t, 'TX');
    await control({ failNext: 1000 });
    const s = await final(e.entryId, await submit(e.entryId));
    expect(s.status).to.equal('ERROR');
    expect(s.error).to.match(/portal answered 503/);
    expect(s.history.at(-1).note).to.equal('after 3 tries');
    await control({ failNext: 0, captcha: true });
    const e2 = await readyEntry(t, 'TX');
    const s2 = await final(e2.entryId, await submit(e2.entryId));
    expect(s2).to.include({ status: 'ERROR' });
    expect(s2.error).to.match(/CAPTCHA/);
    await control({ captcha: false });
    const e3 = await readyEntry(t, 'TX', (ad) => {
      delete ad.vehicle.year;
    });
    const s3 = await final(e3.entryId, await submit(e3.entryId));
    expect(s3.status).to.equal('ERROR');
    expect(s3.error).to.match(/Model year must be a 4-digit year/);
    for (const x of [s, s2, s3]) expect(appsOf(x.submissionId)).to.have.length(0);
    expect(await accountEvents(t, e.entryId)).to.deep.equal([]);
  });

  it('MANAGED with the portal: nothing is filed until an operator marks it ready', async () => {
    const e = await readyEntry(t, 'TX');
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { intakeMode: 'MANAGED' } });
    const sid = r.body.submissionId as string;
    await t.plugin.tick();
    expect(appsOf(sid)).to.have.length(0);
    const asOp = (path: string, body?: unknown) => t.request('POST', path, { body, key: t.opKey });
    expect((await asOp(`/submissions/${sid}/review`)).status).to.equal(409);
    expect((await asOp(`/submissions/${sid}/method`, { method: 'ONLINE_PORTAL' })).body.method).to.equal(
      'ONLINE_PORTAL',
    );
    const dry = await asOp(`/submissions/${sid}/review`);
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    expect(dry.body.review).to.include({ vin: e.VIN, reference: sid, lienholder_name: 'Acme Auto Finance LLC' });
    expect(dry.body.review.documents).to.include('form_title_application.pdf');
    expect(appsOf(sid), 'a dry run files nothing').to.have.length(0);
    const ready = await t.request('POST', `/submissions/${sid}/ready`, {
      body: { method: 'ONLINE_PORTAL' },
      key: t.opKey,
    });
    expect(ready.body).to.include({ status: 'PENDING', method: 'ONLINE_PORTAL', intakeMode: 'MANAGED' });
    const s = await final(e.entryId, sid);
    expect(s.status).to.equal('ACCEPTED');
    expect(appsOf(sid)).to.have.length(1);
  });

  it('lien_delay when a review takes longer than lienDelayAfterMs; CANCELED by the client while under review', async () => {
    const e = await readyEntry(t, 'TX');
    await control({ scenarios: { [e.VIN]: 'hold' } });
    const sid = await submit(e.entryId);
    await waitSubmission(t, e.entryId, sid, (x) => x.status === 'UNDER_REVIEW', 'UNDER_REVIEW');
    const saved = t.plugin.options.lienDelayAfterMs;
    t.plugin.options.lienDelayAfterMs = 0;
    try {
      await eventually(
        async () => (await t.request('GET', `/title/${e.entryId}`)).body.account_status === 'lien_delay',
        { what: 'lien_delay' },
      );
    } finally {
      t.plugin.options.lienDelayAfterMs = saved;
    }
    const c = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, {
      body: { reason: 'filed in person' },
    });
    expect(c.status, JSON.stringify(c.body)).to.equal(200);
    expect(c.body.status).to.equal('CANCELED');
    await t.plugin.tick();
    expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body.status).to.equal('CANCELED');
    expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route', 'filing_received', 'lien_delay']);
    expect(appsOf(sid)).to.have.length(1);
  });
});

describe('submission: ONLINE_PORTAL with the default browser (the headless shell when installed)', function () {
  this.timeout(300_000);
  let t: SubTestEngine;

  before(async function () {
    if (!existsSync(chromiumExecutable())) {
      console.log(`      skipped: no Chromium is installed (bin/setup installs chromium and chromium-headless-shell)`);
      this.skip();
    }
    t = await startSubmissionEngine({ submission: { fakePortal: { start: true } } });
  });
  after(async () => {
    await t?.stop();
  });

  it('files to ACCEPTED with a confirmation PNG through the browser chromiumExecutable() picks', async () => {
    const e = await readyEntry(t, 'TX');
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'ONLINE_PORTAL' } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const sid = r.body.submissionId as string;
    const s = await waitSubmission(t, e.entryId, sid, (x) => FINAL.includes(x.status), `${sid} final`);
    expect(s.status, JSON.stringify(s)).to.equal('ACCEPTED');
    expect(s.applicationNumber).to.match(/^APP-\d{6}$/);
    const png = Buffer.from(await (await fetch(s.confirmationImg)).arrayBuffer());
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
  });
});
