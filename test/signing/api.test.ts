/**
 * POST /title/{id}/sign beyond the happy path: bad input, actions, the BUMP
 * rate limit, cancel, decline, groups, the audit chain, and the title
 * collection collaborator (a fake registered by a test plugin).
 */
import 'reflect-metadata';
import { expect } from 'chai';
import { inject, injectable } from 'tsyringe';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  TOKENS,
  type EnginePlugin,
  type TitleCollectionService,
  type TitleCollectionView,
} from '../../core/plugin-api.js';
import { DIALECTS } from '../helpers/engine.js';
import { expectError } from '../http/support.js';
import { signWithoutJs, startSigningEngine, txEntry, type SigningTestEngine } from './support.js';

const calls: string[] = [];

/** A stand-in for the title-collection plugin (issue 15): one collection per entry, created on first ensure. */
@injectable()
class FakeCollectionPlugin implements EnginePlugin {
  readonly name = 'fake-collection';
  private readonly made = new Map<string, TitleCollectionView>();
  constructor(@inject(TOKENS.Container) container: DependencyContainer) {
    const svc: TitleCollectionService = {
      ensure: async (orgId, entryId) => {
        calls.push(entryId);
        if (!this.made.has(entryId)) {
          this.made.set(entryId, {
            collection_id: `col-${this.made.size + 1}`,
            mode: 'STUB',
            carrier: 'sandbox',
            service: 'ground',
            return_address: { city: 'Austin' },
            instructions: ['enclose the title'],
            created_at: new Date(0).toISOString(),
            tracking_number: null,
            label_url: null,
            qr_verified: false,
            assets_expires_at: new Date(0).toISOString(),
            orgId,
          });
        }
        return this.made.get(entryId);
      },
      get: async (_o, entryId) => this.made.get(entryId),
    };
    container.registerInstance(COLLABORATORS.titleCollection, svc);
  }
}

for (const dialect of DIALECTS) {
  describe(`signing: the API around a request (${dialect})`, function () {
    this.timeout(120_000);
    let t: SigningTestEngine;
    let id = '';

    before(async () => {
      t = await startSigningEngine({
        dialect,
        stages: ['intake', 'forms', 'fake-collection', 'signing', 'webhook'],
        options: { stages: { 'fake-collection': FakeCollectionPlugin } },
        signing: { bumpMinIntervalSeconds: 3600 },
      });
      ({ id } = await txEntry(t));
    });
    after(async () => t?.stop());

    it('refuses bad input with the error body: unknown member, bad Action, bad signer id, unknown entry, no credentials', async () => {
      expectError(await t.request('POST', `/title/${id}/sign`, { body: { nope: 1 } }), 400);
      expectError(await t.request('POST', `/title/${id}/sign?Action=FLY`), 400);
      expectError(await t.request('POST', `/title/${id}/sign`, { body: { redirect_url: 'not a url' } }), 400);
      expectError(
        await t.request('POST', `/title/${id}/sign`, { body: { documents_to_sign: [{ id: 'form_nope' }] } }),
        400,
      );
      expectError(await t.request('POST', '/title/00000000-0000-0000-0000-000000000000/sign'), 404);
      expectError(await t.request('POST', `/title/${id}/sign`, { key: null }), 403);
      const other = await t.newOrg();
      expectError(await t.request('POST', `/title/${id}/sign`, { key: other.key }), 404);
    });

    it('calls the title collection service on creation and returns its collection, equal on the entry', async () => {
      const res = await t.request('POST', `/title/${id}/sign`);
      expect(res.status).to.equal(200);
      expect(res.body.title_collection.collection_id).to.equal('col-1');
      const again = await t.request('POST', `/title/${id}/sign`);
      expect(again.body.title_collection.collection_id).to.equal('col-1');
      expect(calls.filter((c) => c === id).length).to.be.at.least(2);
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.signature_requests[0].title_collection.collection_id).to.equal('col-1');
    });

    it('BUMP on a DRAFT is a conflict; after ACTIVATE one BUMP goes, the next is rate-limited (429)', async () => {
      expectError(await t.request('POST', `/title/${id}/sign?Action=BUMP`), 409);
      expect((await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body.status).to.equal('SENT');
      expect((await t.request('POST', `/title/${id}/sign?Action=BUMP`)).status).to.equal(200);
      expectError(await t.request('POST', `/title/${id}/sign?Action=BUMP`), 429);
    });

    it('a signer who does not consent is asked again (400); one who declines ends the request (DECLINED)', async () => {
      const r = (await t.request('POST', `/title/${id}/sign`)).body;
      const link = r.signers[0].transaction_access_url;
      const noConsent = await fetch(link, {
        method: 'POST',
        body: new URLSearchParams({ typed_name: 'Jane' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(noConsent.status).to.equal(400);
      expect(await noConsent.text()).to.contain('consent');
      const decline = await fetch(link, {
        method: 'POST',
        body: new URLSearchParams({ action: 'decline' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: 'manual',
      });
      expect(decline.status).to.equal(303);
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.signature_requests.find((x: any) => x.id === r.id).status).to.equal('DECLINED');
      expect(entry.account_status).to.equal('originated'); // the POA was withdrawn: poa_sent goes back
      expect((await fetch(r.signers[1].transaction_access_url)).status).to.equal(410);
      const chain = await t.signing.service.store.verifyChain(r.id);
      expect(chain.ok).to.equal(true);
      expect(chain.events).to.be.at.least(5);
    });

    it('the audit chain detects a changed event', async () => {
      const r = (await t.request('POST', `/title/${id}/sign`)).body;
      expect(r.status).to.equal('DRAFT');
      await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`);
      expect((await t.signing.service.store.verifyChain(r.id)).ok).to.equal(true);
      await t.engine.db.exec('UPDATE signing_events SET actor = ? WHERE "requestId" = ? AND seq = 1', [
        'someone-else',
        r.id,
      ]);
      expect(await t.signing.service.store.verifyChain(r.id)).to.deep.include({ ok: false, brokenAt: 1 });
    });

    it('cancel through the operator route; the links stop working', async () => {
      const r = (await t.request('POST', `/title/${id}/sign`)).body;
      const res = await t.request('POST', `/title/${id}/sign/cancel`);
      expect(res.body.status).to.equal('CANCELED');
      expect((await signWithoutJs(r.signers[0].transaction_access_url, 'Jane')).status).to.equal(409);
      expectError(await t.request('POST', `/title/${id}/sign/cancel`), 404);
    });

    it('an unknown or malformed link is a 404 page', async () => {
      expect((await fetch(`${t.url}/sign/${'x'.repeat(43)}`)).status).to.equal(404);
      expect((await fetch(`${t.url}/sign/short`)).status).to.equal(404);
    });
  });
}
