/**
 * Filing by MAIL and MANAGED intake through the HTTP API, on both databases:
 * the packet downloads and is addressed to the right office (pdftotext), the
 * operator records the state's answers, the account_status events follow in
 * order, a follow-up round, cancellation, and the 4xx answers.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIALECTS } from '../helpers/engine.js';
import {
  accountEvents,
  pdfText,
  readyEntry,
  startSubmissionEngine,
  waitSubmission,
  type SubTestEngine,
} from './support.js';

for (const dialect of DIALECTS) {
  describe(`submission: MAIL and MANAGED through HTTP (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    let docs: Server;
    let docsUrl = '';
    const op = (method: string, path: string, body?: unknown) => t.request(method, path, { body, key: t.opKey });

    before(async () => {
      t = await startSubmissionEngine({ dialect });
      docs = createServer((req, res) => {
        res.writeHead(req.url === '/license.pdf' ? 200 : 404, { 'content-type': 'application/pdf' });
        res.end(req.url === '/license.pdf' ? '%PDF-1.4 license copy' : '');
      });
      await new Promise<void>((ok) => docs.listen(0, '127.0.0.1', ok));
      docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    });
    after(async () => {
      await t?.stop();
      docs?.close();
    });

    it('MAIL: a packet addressed to the county office, then the operator records the answers; account_status in order', async () => {
      const e = await readyEntry(t, 'TX');
      const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body).to.have.keys('submissionId', 'status');
      expect(r.body.status).to.equal('PENDING');
      const sid = r.body.submissionId as string;
      const again = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(again.status).to.equal(409);
      expect(again.body.error).to.include(sid);

      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(s).to.include({ submissionId: sid, status: 'PENDING', method: 'MAIL' });
      expect(s).not.to.have.property('intakeMode');
      expect((await t.request('GET', `/title/${e.entryId}`)).body.submission_id).to.equal(sid);
      const pdf = Buffer.from(await (await fetch(s.packet)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      const text = pdfText(pdf);
      expect(text, 'pdftotext').to.be.a('string');
      expect(text)
        .to.include('Travis County Tax Office')
        .and.include('PO Box 149328')
        .and.include('Austin, TX 78714-9328');
      expect(text).to.include('Make the check payable to: Travis County Tax Office');
      expect(text)
        .to.include(e.VIN)
        .and.include('SIGNATURE REQUIRED - NOT SIGNED')
        .and.include('form_title_application');

      expect(
        (await t.request('POST', `/submissions/${sid}/record`, { body: { status: 'SUBMITTED' } })).status,
      ).to.equal(403);
      for (const status of ['SUBMITTED', 'UNDER_REVIEW']) {
        const rec = await op('POST', `/submissions/${sid}/record`, {
          status,
          ...(status === 'UNDER_REVIEW' ? { applicationNumber: 'TX-998' } : {}),
        });
        expect(rec.status, JSON.stringify(rec.body)).to.equal(200);
        expect(rec.body.status).to.equal(status);
      }
      const acc = await op('POST', `/submissions/${sid}/record`, { status: 'ACCEPTED' });
      expect(acc.body).to.include({ status: 'ACCEPTED', applicationNumber: 'TX-998' });
      expect((await t.request('GET', `/title/${e.entryId}`)).body.account_status).to.equal('lien_filed');
      expect((await op('POST', `/submissions/${sid}/record`, { status: 'LIEN_PERFECTED' })).status).to.equal(200);
      expect(await accountEvents(t, e.entryId)).to.deep.equal([
        'filing_en_route',
        'filing_received',
        'lien_filed',
        'lien_perfected',
      ]);
      const late = await op('POST', `/submissions/${sid}/cancel`, {});
      expect(late.status).to.equal(409);
      expect(late.body.error).to.match(/cannot move from ACCEPTED to CANCELED/);
    });

    it('MAIL in a state that files with the state: addressed to the state office (CA DMV)', async () => {
      const e = await readyEntry(t, 'CA');
      const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      const s = await waitSubmission(t, e.entryId, r.body.submissionId, (x) => !!x.packet, 'packet');
      const text = pdfText(Buffer.from(await (await fetch(s.packet)).arrayBuffer()))!;
      expect(text)
        .to.include('PO Box 942869')
        .and.include('Sacramento, CA 94269')
        .and.include('Department of Motor Vehicles');
      expect(text).not.to.include('Travis County');
    });

    it('MANAGED: AWAITING_READINESS until an operator acts; a follow-up round; REJECTED -> lien_error', async () => {
      const e = await readyEntry(t, 'TX');
      const r = await t.request('POST', `/title/${e.entryId}/submit`, {
        body: { intakeMode: 'MANAGED', note: 'rush' },
      });
      expect(r.body).to.deep.equal({ submissionId: r.body.submissionId, status: 'AWAITING_READINESS' });
      const sid = r.body.submissionId as string;
      await t.plugin.tick();
      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(s).to.include({ status: 'AWAITING_READINESS', intakeMode: 'MANAGED' });
      expect(s).not.to.have.property('method');
      expect(s).not.to.have.property('packet');
      const listed = await op('GET', '/submissions?status=AWAITING_READINESS');
      expect(listed.body.submissions.map((x: any) => x.submissionId)).to.include(sid);
      expect((await op('POST', `/submissions/${sid}/ready`, {})).status).to.equal(409);
      expect((await op('POST', `/submissions/${sid}/method`, { method: 'FAX' })).status).to.equal(400);
      expect((await op('POST', `/submissions/${sid}/method`, { method: 'MAIL' })).body).to.include({
        method: 'MAIL',
        status: 'AWAITING_READINESS',
      });
      const ready = await op('POST', `/submissions/${sid}/ready`, {});
      expect(ready.body).to.include({ status: 'PENDING', method: 'MAIL', intakeMode: 'MANAGED' });
      expect(ready.body.packet).to.be.a('string');
      expect((await op('POST', `/submissions/${sid}/follow-up`, { feedbackMessage: 'x' })).status).to.equal(409);
      await op('POST', `/submissions/${sid}/record`, { status: 'SUBMITTED' });

      const early = await t.request('POST', `/title/${e.entryId}/submit/${sid}/documents`, {
        body: { documents: [{ url: `${docsUrl}/license.pdf` }] },
      });
      expect(early.status).to.equal(409);
      const ask = await op('POST', `/submissions/${sid}/follow-up`, {
        feedbackMessage: "Send the owner's driver license",
      });
      expect(ask.body).to.include({ status: 'ACTION_REQUIRED', feedbackMessage: "Send the owner's driver license" });
      const blocked = await t.request('POST', `/title/${e.entryId}/submit/${sid}/documents`, {
        body: { documents: [{ url: 'http://169.254.169.254/x.pdf' }] },
      });
      expect(blocked.status).to.equal(400);
      const missing = await t.request('POST', `/title/${e.entryId}/submit/${sid}/documents`, {
        body: { documents: [{ url: `${docsUrl}/nope.pdf` }] },
      });
      expect(missing.status).to.equal(400);
      const sent = await t.request('POST', `/title/${e.entryId}/submit/${sid}/documents`, {
        body: { documents: [{ url: `${docsUrl}/license.pdf`, filename: 'dl.pdf' }] },
      });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body.status).to.equal('SUBMITTED');
      expect(sent.body).not.to.have.property('feedbackMessage');
      expect(sent.body.followUpRounds).to.have.length(1);
      const round = sent.body.followUpRounds[0];
      expect(round).to.include({ feedbackMessage: "Send the owner's driver license", sentAt: null });
      expect(round.attachments[0]).to.include({ filename: 'dl.pdf', bytes: 21 });
      expect(await (await fetch(round.attachments[0].url)).text()).to.equal('%PDF-1.4 license copy');

      const rej = await op('POST', `/submissions/${sid}/record`, {
        status: 'REJECTED',
        feedbackMessage: 'Lien already recorded',
      });
      expect(rej.body).to.include({
        status: 'REJECTED',
        error: 'the state rejected the filing',
        feedbackMessage: 'Lien already recorded',
      });
      expect(rej.body.followUpRounds[0].sentAt).to.be.a('string');
      expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route', 'lien_error']);
    });

    it('CANCELED by the client before a final status; 4xx for bad requests', async () => {
      const e = await readyEntry(t, 'TX');
      expect((await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'FAX' } })).status).to.equal(400);
      expect(
        (await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL', extra: 1 } })).status,
      ).to.equal(400);
      expect(
        (await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'ONLINE_PORTAL' } })).status,
      ).to.equal(409);
      expect(
        (await t.request('POST', '/title/00000000-0000-0000-0000-000000000000/submit', { body: {} })).status,
      ).to.equal(404);
      const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: {} });
      expect(r.body.status).to.equal('PENDING');
      const sid = r.body.submissionId as string;
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body.method).to.equal('MAIL');
      expect((await t.request('GET', `/title/${e.entryId}/submit/nope`)).status).to.equal(404);
      const other = await t.newOrg();
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`, { key: other.key })).status).to.equal(404);
      const c = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, {
        body: { reason: 'wrong state' },
      });
      expect(c.body.status).to.equal('CANCELED');
      expect(c.body.history.at(-1)).to.include({ from: 'PENDING', to: 'CANCELED', note: 'wrong state' });
      expect((await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`)).status).to.equal(409);
      expect(await accountEvents(t, e.entryId)).to.deep.equal([]);
      const next = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(next.status).to.equal(200);
      expect((await t.request('GET', `/title/${e.entryId}`)).body.submission_id).to.equal(next.body.submissionId);
    });
  });
}
