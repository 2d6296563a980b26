/**
 * WET_SIGN (print-and-sign packet, operator marks it signed) and RON (the
 * sandbox provider completes a session with a notarial certificate, journal
 * entry and recording reference; the http provider is polled against a local
 * vendor stand-in).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/engine.js';
import { startSigningEngine, txEntry, type SigningTestEngine } from './support.js';
import { signingRulesFor } from '../../states/signing-rules.js';

const text = async (url: string, dir: string): Promise<string> => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
  let sig = '';
  try {
    sig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (e) {
    sig = String((e as { stdout?: string }).stdout ?? '');
  }
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }) + sig;
};

describe('signing: WET_SIGN packets and RON sessions', function () {
  this.timeout(120_000);
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-paper-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('WET_SIGN and sandbox RON', () => {
    let t: SigningTestEngine;
    before(async () => {
      t = await startSigningEngine({ signing: { returnAddress: 'Acme Titles; 500 Lender Way; Dallas, TX 75201' } });
    });
    after(async () => t?.stop());

    it('WET_SIGN: the packet has instructions, the return address and the documents; the page offers it; mark-signed completes', async () => {
      const { id } = await txEntry(t);
      await t.request('POST', `/title/${id}/sign`, { body: { type: 'WET_SIGN' } });
      const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
      expect(r.type).to.equal('WET_SIGN');
      const packet = await text(r.metadata.wet_sign_packet, dir);
      expect(packet)
        .to.contain('Print, sign in ink and mail back')
        .and.contain('500 Lender Way')
        .and.contain('Limited Power of Attorney');
      const page = await (await fetch(r.signers[0].transaction_access_url)).text();
      expect(page).to.contain('packet.pdf').and.contain('Return address');
      const pdf = await fetch(`${r.signers[0].transaction_access_url}/packet.pdf`);
      expect(pdf.headers.get('content-type')).to.equal('application/pdf');
      const post = await fetch(r.signers[0].transaction_access_url, {
        method: 'POST',
        body: new URLSearchParams({ consent: 'yes', typed_name: 'Jane', action: 'sign' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(post.status).to.equal(409);
      const done = await t.request('POST', `/title/${id}/sign/mark-signed`);
      expect(done.body.status).to.equal('COMPLETED');
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.account_status).to.equal('poa_signed');
      expect(await text(entry.signature_requests[0].sign_cert, dir))
        .to.contain('marked_signed')
        .and.contain('Signature is Valid');
    });

    it('RON (sandbox): ACTIVATE completes at once; each document carries the notarial certificate; journal and recording kept', async () => {
      const { id } = await txEntry(t); // the same VIN: the entry of the first test, updated
      await t.request('POST', `/title/${id}/sign`, { body: { type: 'RON' } });
      const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
      expect(r.status, JSON.stringify(r)).to.equal('COMPLETED');
      expect(r.metadata.ron.status).to.equal('completed');
      expect(r.metadata.ron.recording_ref).to.match(/^sandbox:\/\/ron-recordings\//);
      expect(r.metadata.ron.journal_entry.id).to.match(/^J-/);
      const copy = await text(r.documents_to_sign[0].signed_copy, dir);
      expect(copy)
        .to.contain('Notarial Certificate')
        .and.contain(r.metadata.ron.notary.commission)
        .and.contain('Signature is Valid');
      const events = await t.signing.service.store.events(r.id);
      expect(events.map((e) => e.type)).to.include('ron.completed');
    });
  });

  describe('RON (http provider against a local vendor stand-in)', () => {
    let t: SigningTestEngine;
    let vendor: Server;
    const seen: { method: string; url: string; body: string }[] = [];
    let polls = 0;
    before(async () => {
      vendor = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += String(c);
        });
        req.on('end', () => {
          seen.push({ method: req.method!, url: req.url!, body });
          res.setHeader('content-type', 'application/json');
          if (req.method === 'POST') return res.end(JSON.stringify({ session_id: 'vendor-1', status: 'pending' }));
          polls++;
          res.end(
            JSON.stringify(
              polls < 2
                ? { session_id: 'vendor-1', status: 'pending' }
                : {
                    session_id: 'vendor-1',
                    status: 'completed',
                    completed_at: '2026-11-25T12:00:00.000Z',
                    recording_ref: 'vendor://rec/1',
                    notary: { name: 'Nora Notary', commission: 'C-77', state: 'TX' },
                    journal_entry: {
                      id: 'J-77',
                      at: '2026-11-25T12:00:00.000Z',
                      method: 'video',
                      signers: [],
                      documents: [],
                    },
                  },
            ),
          );
        });
      });
      await new Promise<void>((res) => vendor.listen(0, '127.0.0.1', () => res()));
      t = await startSigningEngine({
        signing: { ron: { provider: 'http', url: `http://127.0.0.1:${(vendor.address() as { port: number }).port}` } },
      });
    });
    after(async () => {
      await t?.stop();
      await new Promise((res) => vendor.close(res));
    });

    it("opens a session, polls it from the background loop, completes with the vendor's notary and recording", async () => {
      const { id } = await txEntry(t);
      await t.request('POST', `/title/${id}/sign`, { body: { type: 'RON' } });
      const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
      expect(r.status).to.equal('SENT');
      expect(JSON.parse(seen[0]!.body)).to.deep.include({ request_id: r.id, state: 'TX' });
      const entry = await eventually(
        async () => {
          const e = (await t.request('GET', `/title/${id}`)).body;
          return e.signature_requests[0].status === 'COMPLETED' ? e : null;
        },
        { what: 'RON completed', tries: 800 },
      );
      expect(entry.account_status).to.equal('poa_signed');
      expect(entry.signature_requests[0].metadata.ron).to.deep.include({
        recording_ref: 'vendor://rec/1',
        status: 'completed',
      });
      expect(await text(entry.signature_requests[0].documents_to_sign[0].signed_copy, dir))
        .to.contain('Nora Notary')
        .and.contain('C-77');
    });
  });

  it('state signing rules: every state plugin has rules, each with a source or marked unsourced', () => {
    const tx = signingRulesFor('TX')!;
    expect(tx.eSign).to.equal(true);
    expect(tx.sources.length).to.be.greaterThan(0);
    for (const s of tx.sources)
      expect('url' in s || 'doc' in s || ('unsourced' in s && s.unsourced === true)).to.equal(true);
    expect(signingRulesFor('ZZ')).to.equal(null);
  });
});
