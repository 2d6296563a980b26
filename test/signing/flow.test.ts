/**
 * The "done when" of issue 14, through the HTTP API and the signing page as a
 * new user would: a TX title with two AND owners, POST /title/{id}/sign,
 * activate, each signer's link (from the email the local SMTP catcher got),
 * sign without JavaScript, and see COMPLETED, poa_signed, both webhooks,
 * sealed PDFs pdfsig reports valid and unmodified, and the certificate.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { receiver, settled, type Receiver } from '../webhook/support.js';
import { SmtpCatcher, signWithoutJs, startSigningEngine, txEntry, type SigningTestEngine } from './support.js';

function pdfsig(file: string): string {
  try {
    return execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

function zipNames(buf: Buffer): Promise<string[]> {
  return new Promise((res, rej) =>
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, z) => {
      if (err || !z) return rej(err);
      const names: string[] = [];
      z.on('entry', (e: { fileName: string }) => {
        names.push(e.fileName);
        z.readEntry();
      });
      z.on('end', () => res(names));
      z.readEntry();
    }),
  );
}

for (const dialect of DIALECTS) {
  describe(`signing: the done-when flow through HTTP and the page (${dialect})`, function () {
    this.timeout(180_000);
    let t: SigningTestEngine;
    let smtp: SmtpCatcher;
    let hooks: Receiver;
    let dir = '';
    let id = '';
    let first: any;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'titled-signing-'));
      smtp = await new SmtpCatcher().listen();
      hooks = await receiver();
      t = await startSigningEngine({
        dialect,
        signing: { smtp: { host: '127.0.0.1', port: smtp.port, from: 'titled <sign@example.com>' } },
      });
      await t.wh.setProfile(t.org.name, {
        url: `${hooks.url}/hook`,
        events: ['title.account_status.*'],
        auth: { scheme: 'none' },
      });
      ({ id } = await txEntry(t));
    });
    after(async () => {
      await t?.stop();
      await hooks?.close();
      await smtp?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('POST /title/{id}/sign makes a DRAFT request: both AND owners sign, each his own POA; retries and concurrent calls give one', async () => {
      const body = {
        redirect_url: { url: 'https://lender.example/done', message: 'Thanks, all set' },
        requester_email: 'ops@lender.example',
      };
      const res = await t.request('POST', `/title/${id}/sign`, { body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      first = res.body;
      expect(first.status).to.equal('DRAFT');
      expect(first.type).to.equal('E_SIGN');
      expect(first.signers.map((s: any) => s.name)).to.deep.equal(['Jane Q Borrower', 'Robert T Coowner']);
      for (const s of first.signers)
        expect(s.transaction_access_url).to.match(/^http:\/\/.+\/sign\/[A-Za-z0-9_-]{40,}$/);
      expect(first.signers[0].transaction_access_url).to.not.equal(first.signers[1].transaction_access_url);
      const poas = first.documents_to_sign.filter((d: any) => d.filename.startsWith('forms_poa'));
      expect(poas.map((d: any) => d.signer_id)).to.deep.equal([['owner-1'], ['owner-2']]);
      const again = await Promise.all([1, 2, 3].map(() => t.request('POST', `/title/${id}/sign`, { body: {} })));
      for (const a of again) expect(a.body.id).to.equal(first.id);
      const rows = await t.engine.db.query('SELECT id FROM signing_requests WHERE "entryId" = ?', [id]);
      expect(rows).to.have.length(1);
    });

    it('ACTIVATE sends it: SENT, poa_sent, an email with his own link to each signer; no link in GET', async () => {
      const res = await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`);
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('SENT');
      const got = (await t.request('GET', `/title/${id}`)).body;
      expect(got.account_status).to.equal('poa_sent');
      expect(got.signature_requests).to.have.length(1);
      expect(got.signature_requests[0].status).to.equal('SENT');
      expect(JSON.stringify(got.signature_requests)).to.not.match(/\/sign\/[A-Za-z0-9_-]{40,}/);
      const list = (await t.request('GET', '/title')).body;
      expect(JSON.stringify(list)).to.not.match(/\/sign\/[A-Za-z0-9_-]{40,}/);
      await eventually(async () => smtp.mails.length >= 2, { what: 'two emails' });
      const byTo = Object.fromEntries(smtp.mails.map((m) => [m.to, m.link]));
      expect(byTo['jane@example.com']).to.equal(first.signers[0].transaction_access_url);
      expect(byTo['robert@example.com']).to.equal(first.signers[1].transaction_access_url);
    });

    it('each signer opens his link and signs without JavaScript; lands on redirect_url with its message', async () => {
      for (const [i, s] of first.signers.entries()) {
        const page = await fetch(s.transaction_access_url);
        expect(page.status).to.equal(200);
        const html = await page.text();
        expect(html).to.contain('E-SIGN Act').and.contain(s.name).and.contain('name="consent"');
        expect(html).to.not.contain(first.signers[1 - i].transaction_access_url.split('/sign/')[1]);
        const img = /src="(\/sign\/[^"]+\.png)"/.exec(html)![1]!;
        const png = await fetch(new URL(img, s.transaction_access_url));
        expect(png.headers.get('content-type')).to.equal('image/png');
        const res = await signWithoutJs(s.transaction_access_url, s.name);
        expect(res.status).to.equal(303);
        const to = new URL(res.headers.get('location')!);
        expect(to.origin + to.pathname).to.equal('https://lender.example/done');
        expect(to.searchParams.get('message')).to.equal('Thanks, all set');
        if (i === 0)
          expect((await t.request('GET', `/title/${id}`)).body.signature_requests[0].status).to.equal(
            'PARTIALLY_SIGNED',
          );
      }
    });

    it('COMPLETED and poa_signed; sealed copies and the certificate pdfsig reports valid and unmodified; the export ZIP', async () => {
      const got = (await t.request('GET', `/title/${id}`)).body;
      expect(got.account_status).to.equal('poa_signed');
      const sr = got.signature_requests[0];
      expect(sr.status).to.equal('COMPLETED');
      for (const d of [...sr.documents_to_sign.map((x: any) => x.signed_copy), sr.sign_cert]) {
        expect(d).to.match(/\/files\/.+\?expires=\d+&signature=/);
        const file = join(dir, `f${Math.random().toString(36).slice(2)}.pdf`);
        writeFileSync(file, Buffer.from(await (await fetch(d)).arrayBuffer()));
        const out = pdfsig(file);
        expect(out, out).to.contain('Signature Validation: Signature is Valid.');
        expect(out, out).to.contain('Total document signed');
      }
      const poa = join(dir, 'poa.pdf');
      const poaBytes = Buffer.from(await (await fetch(sr.documents_to_sign[0].signed_copy)).arrayBuffer());
      writeFileSync(poa, poaBytes);
      expect(execFileSync('pdftotext', [poa, '-'], { encoding: 'utf8' })).to.contain(
        'Signed electronically by Jane Q Borrower',
      );
      // the title application: the official 130-U when the template folder has it (signed on its own lines), else drawn
      const app = sr.documents_to_sign.find((d: any) => d.filename === 'form_title_application.pdf');
      const appFile = join(dir, 'app.pdf');
      writeFileSync(appFile, Buffer.from(await (await fetch(app.signed_copy)).arrayBuffer()));
      const appText = execFileSync('pdftotext', [appFile, '-'], { encoding: 'utf8' });
      expect(appText)
        .to.contain('Signed electronically by Jane Q Borrower')
        .and.contain('Signed electronically by Robert T Coowner');
      expect(appText).to.not.contain('Signature page:');
      const cert = join(dir, 'cert.pdf');
      writeFileSync(cert, Buffer.from(await (await fetch(sr.sign_cert)).arrayBuffer()));
      const text = execFileSync('pdftotext', [cert, '-'], { encoding: 'utf8' });
      expect(text)
        .to.contain(sr.id)
        .and.contain('Jane Q Borrower')
        .and.contain('Robert T Coowner')
        .and.contain('SHA-256 before signing');
      expect(text).to.contain('curl/8.5').and.contain('Consent to electronic signature');
      expect(text.replace(/\s+/g, '')).to.contain(createHash('sha256').update(poaBytes).digest('hex'));
      const names = await zipNames(Buffer.from(await (await fetch(sr.full_export)).arrayBuffer()));
      expect(names).to.include('certificate-of-completion.pdf');
      expect(names.length).to.equal(sr.documents_to_sign.length + 1);
      expect(await t.signing.service.store.verifyChain(sr.id)).to.deep.include({ ok: true });
    });

    it('webhooks: title.account_status.poa_sent and .poa_signed, each body carrying signature_requests', async () => {
      await settled(t.wh);
      const bodies = hooks.forEntry(id).map((r) => r.body);
      const sent = bodies.find((b) => b.webhook_events.includes('title.account_status.poa_sent'));
      const signed = bodies.find((b) => b.webhook_events.includes('title.account_status.poa_signed'));
      expect(sent?.signature_requests?.[0]?.status).to.be.oneOf(['SENT', 'PARTIALLY_SIGNED', 'COMPLETED']);
      expect(signed?.signature_requests?.[0]?.status).to.equal('COMPLETED');
      expect(JSON.stringify(bodies)).to.not.match(/\/sign\/[A-Za-z0-9_-]{40,}/);
    });

    it('a used link shows the done message and cannot sign again; a new POST after completion starts a new request', async () => {
      const page = await fetch(first.signers[0].transaction_access_url);
      expect(await page.text()).to.contain('Thanks, all set');
      const res = await signWithoutJs(first.signers[0].transaction_access_url, 'x');
      expect(res.status).to.equal(409);
      const next = await t.request('POST', `/title/${id}/sign`);
      expect(next.status).to.equal(200);
      expect(next.body.id).to.not.equal(first.id);
      expect(next.body.status).to.equal('DRAFT');
    });
  });
}
