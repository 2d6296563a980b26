/**
 * The optional driver license photo on the signing page: read by the ocr
 * plugin's extraction (COLLABORATORS.extraction), matched against the owner;
 * a mismatch is flagged on the request, a match recorded.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { startSigningEngine, txEntry, type SigningTestEngine } from './support.js';

const PHOTO = join(packageRoot, 'test', 'fixtures', 'ocr', 'corpus', 'dl-back-0-scan.png');

async function signWithPhoto(link: string, typed: string): Promise<Response> {
  const form = new FormData();
  form.set('consent', 'yes');
  form.set('typed_name', typed);
  form.set('action', 'sign');
  form.set('dl_photo', new Blob([readFileSync(PHOTO)], { type: 'image/png' }), 'license.png');
  return fetch(link, { method: 'POST', body: form, redirect: 'manual' });
}

describe('signing: driver license photo read and matched against the owner', function () {
  this.timeout(180_000);
  let t: SigningTestEngine;
  let id = '';
  before(async () => {
    t = await startSigningEngine({ stages: ['intake', 'ocr', 'forms', 'signing', 'webhook'] });
    ({ id } = await txEntry(t));
  });
  after(async () => t?.stop());

  it("another person's license is flagged as a mismatch on the request (not silently accepted)", async () => {
    await t.request('POST', `/title/${id}/sign`);
    const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
    const res = await signWithPhoto(r.signers[0].transaction_access_url, 'Jane Q Borrower');
    expect(res.status).to.equal(303);
    const sr = (await t.request('GET', `/title/${id}`)).body.signature_requests.find((x: any) => x.id === r.id);
    expect(sr.metadata.dlid_mismatch).to.deep.equal(['owner-1']);
    const collected = (await (await fetch(sr.collected_dlid)).json()) as Record<string, any>;
    expect(collected['owner-1'].name).to.equal('KENNETH GRACE JACKSON');
    expect(collected['owner-1'].match).to.deep.include({ ok: false, name: false, address: false });
    expect(JSON.stringify(collected)).to.not.contain('LM682711');
    const events = await t.signing.service.store.events(r.id);
    expect(events.map((e) => e.type)).to.include('dlid_mismatch');
    await t.request('POST', `/title/${id}/sign/cancel`);
  });

  it("the owner's own license matches (name and address)", async () => {
    const kenneth = {
      type: 'PERSON',
      name: 'Kenneth G Jackson',
      id: 'kj',
      contact_email: 'kj@example.com',
      addr: { street1: '5257 River Road', city: 'Dayton', state: 'OH', zip: '45402' },
    };
    const r = (
      await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`, {
        body: { signers: [kenneth], documents_to_sign: [{ id: 'form_title_application', signer_id: ['kj'] }] },
      })
    ).body;
    expect(r.status, JSON.stringify(r)).to.equal('SENT');
    expect((await signWithPhoto(r.signers[0].transaction_access_url, 'Kenneth G Jackson')).status).to.equal(303);
    const sr = (await t.request('GET', `/title/${id}`)).body.signature_requests.find((x: any) => x.id === r.id);
    expect(sr.status).to.equal('COMPLETED');
    expect(sr.metadata.dlid_mismatch).to.equal(undefined);
    const collected = (await (await fetch(sr.collected_dlid)).json()) as Record<string, any>;
    expect(collected.kj.match).to.deep.include({ ok: true, name: true, address: true });
  });
});
