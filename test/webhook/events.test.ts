import { expect } from 'chai';
import { TitledError } from '../../core/errors.js';
import { ACCOUNT_STATUS_WILDCARD, WEBHOOK_EVENTS } from '../../plugins/webhook/index.js';
import { DIALECTS } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { BOOM_VINS, PULLS, boom, fakeNmvtis } from './fixtures/stages.js';
import { jobEnded, receiver, settled, startWebhookEngine, type Receiver, type WebhookTestEngine } from './support.js';

const ALL = [...WEBHOOK_EVENTS, ACCOUNT_STATUS_WILDCARD];
const events = (r: Receiver, entryId?: string) =>
  (entryId ? r.forEntry(entryId) : r.requests).map((x) => x.body.webhook_events as string[]);

for (const dialect of DIALECTS) {
  describe(`webhook events fire exactly when the spec says (${dialect})`, function () {
    let t: WebhookTestEngine;
    let all: Receiver;
    let vinN = 0;
    const vin = () => vinFor(3000 + vinN++ + (dialect === 'postgres' ? 500 : 0));

    before(async () => {
      all = await receiver();
      t = await startWebhookEngine({ dialect, stages: { 'fake-nmvtis': fakeNmvtis, boom } });
      await t.wh.setProfile(t.org.name, { url: `${all.url}/all`, events: ALL, auth: { scheme: 'none' } });
    });
    after(async () => {
      await t?.stop();
      await all?.close();
    });

    const create = async (v: string, body: Record<string, unknown> = {}) =>
      (await t.engine.service.create(t.p, { account_data: { vehicle: { vin: v } }, ...body })).entryId;

    it('title.job_status.complete: once per finished job; pending and enriching moves deliver nothing', async () => {
      const before = all.requests.length;
      const id = await create(vin());
      await jobEnded(t, id);
      expect(events(all, id)).to.deep.equal([['title.job_status.complete']]);
      // an update without sync flags: pending -> ... -> complete again
      await t.engine.service.create(t.p, {
        account_data: { vehicle: { vin: (await t.engine.service.get(t.p, id)).VIN, make: 'FORD' } },
      });
      await jobEnded(t, id);
      expect(events(all, id)).to.deep.equal([['title.job_status.complete'], ['title.job_status.complete']]);
      expect(all.requests.length - before).to.equal(2);
      const names = (await t.engine.outbox.forEntry(id)).map((e) => e.name);
      expect(names).to.include.members(['title.job_status.pending', 'title.job_status.complete']);
    });

    it('title.job_status.error: once, when a job fails for good', async () => {
      const v = vin();
      BOOM_VINS.add(v);
      const id = await create(v);
      await jobEnded(t, id, 'error');
      expect(events(all, id)).to.deep.equal([['title.job_status.error']]);
    });

    it("title.data.found: only when a pull goes from not_found to found, in one delivery with the job's end", async () => {
      const only = await receiver();
      const notFoundOnly = await receiver();
      try {
        await t.wh.setProfile(t.org.name, {
          url: `${only.url}/found`,
          events: ['title.data.found'],
          auth: { scheme: 'none' },
        });
        await t.wh.setProfile(t.org.name, {
          url: `${notFoundOnly.url}/nf`,
          events: ['title.data.not_found'],
          auth: { scheme: 'none' },
        });
        const v = vin();
        // pulls in order: first pull found (pending -> found: no data.found), then not_found, then found (fires),
        // found again (no move), not_found, then pending>found in one run (fires: the last settled outcome was not_found),
        // not_found, error, found (fires: error says nothing about the data)
        PULLS.set(v, [
          'found',
          'not_found',
          'found',
          'found',
          'not_found',
          'pending>found',
          'not_found',
          'error',
          'found',
        ]);
        const id = await create(v, { sync_nmvtis: true });
        await jobEnded(t, id);
        for (let i = 1; i < 9; i++) {
          await t.engine.service.requestData(t.p, id, { sync_nmvtis: true });
          await jobEnded(t, id);
        }
        const C = 'title.job_status.complete';
        const F = 'title.data.found';
        expect(events(all, id)).to.deep.equal([[C], [C], [F, C], [C], [C], [F, C], [C], [C], [F, C]]);
        expect(events(only, id)).to.deep.equal([[F], [F], [F]]);
        expect(notFoundOnly.requests, 'title.data.not_found never fires').to.have.length(0);
        const outboxNames = (await t.engine.outbox.forEntry(id)).map((e) => e.name);
        expect(outboxNames).to.include('title.nmvtis_found_status.not_found');
      } finally {
        await t.wh.removeProfiles(t.org.name, { url: `${only.url}/found` });
        await t.wh.removeProfiles(t.org.name, { url: `${notFoundOnly.url}/nf` });
        await only.close();
        await notFoundOnly.close();
      }
    });

    it('title.account_status.<status>: every change, by exact name or the wildcard; no move, no event', async () => {
      const exact = await receiver();
      try {
        await t.wh.setProfile(t.org.name, {
          url: `${exact.url}/exact`,
          events: ['title.account_status.poa_signed'],
          auth: { scheme: 'none' },
        });
        const id = await create(vin());
        await jobEnded(t, id);
        for (const s of ['poa_sent', 'poa_signed', 'filing_en_route'])
          await t.engine.service.setAccountStatus(t.p, id, s);
        await t.engine.service.setAccountStatus(t.p, id, 'filing_en_route'); // same status: no move
        const err = await t.engine.service.setAccountStatus(t.p, id, 'lien_release_complete').catch((e: unknown) => e);
        expect(err).to.be.instanceOf(TitledError);
        expect((err as TitledError).code).to.equal('CONFLICT');
        await settled(t.wh);
        expect(events(all, id)).to.deep.equal([
          ['title.job_status.complete'],
          ['title.account_status.poa_sent'],
          ['title.account_status.poa_signed'],
          ['title.account_status.filing_en_route'],
        ]);
        // bodies are the entry at delivery time: the last one shows the last status
        expect(all.forEntry(id).at(-1)!.body.account_status).to.equal('filing_en_route');
        expect(all.forEntry(id).every((r) => r.body.entryId === id && r.body.website === t.org.name)).to.equal(true);
        expect(events(exact, id)).to.deep.equal([['title.account_status.poa_signed']]);
      } finally {
        await t.wh.removeProfiles(t.org.name, { url: `${exact.url}/exact` });
        await exact.close();
      }
    });

    it('title.physical_title_status.*: only for organizations that switched them on', async () => {
      const id = await create(vin());
      await jobEnded(t, id);
      await t.engine.service.setPhysicalTitleStatus(t.p, id, 'unavailable');
      await settled(t.wh);
      expect(events(all, id)).to.deep.equal([['title.job_status.complete']]);
      await t.engine.orgs.updateSettings(t.org.name, { physical_title_events: true });
      try {
        await t.engine.service.setPhysicalTitleStatus(t.p, id, 'in_transit');
        await t.engine.service.setPhysicalTitleStatus(t.p, id, 'received');
        await settled(t.wh);
        expect(events(all, id)).to.deep.equal([
          ['title.job_status.complete'],
          ['title.physical_title_status.in_transit'],
          ['title.physical_title_status.received'],
        ]);
        // independent of account_status
        expect(all.forEntry(id).at(-1)!.body.account_status).to.equal('originated');
        expect(all.forEntry(id).at(-1)!.body.physical_title_status).to.equal('received');
      } finally {
        await t.engine.orgs.updateSettings(t.org.name, { physical_title_events: false });
      }
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`title.data.found with the nmvtis stage and its sandbox (${dialect})`, function () {
    it('a VIN not found, corrected and pulled again: title.data.found and title.job_status.complete in one delivery', async () => {
      const r = await receiver();
      const t = await startWebhookEngine({
        dialect,
        config: {
          stages: ['intake', 'nmvtis', 'webhook'],
          providers: { nmvtis: { provider: 'sandbox', maintenance: false } },
        },
      });
      try {
        await t.wh.setProfile(t.org.name, {
          url: `${r.url}/hook`,
          events: ['title.job_status.complete', 'title.data.found', 'title.data.not_found'],
          auth: { scheme: 'none' },
        });
        // the sandbox answers by the VIN's last character: 0 not found, 1 found (docs/sandbox.md)
        const base = dialect === 'postgres' ? 5200 : 5100;
        const { entryId } = await t.engine.service.create(t.p, {
          account_data: { vehicle: { vin: vinFor(base + 10) } },
          sync_nmvtis: true,
        });
        await jobEnded(t, entryId);
        expect((await t.engine.service.get(t.p, entryId)).nmvtis_found_status).to.equal('not_found');
        await t.engine.service.patch(t.p, entryId, { account_data: { vehicle: { vin: vinFor(base + 11) } } });
        await t.engine.service.requestData(t.p, entryId, { sync_nmvtis: true });
        await jobEnded(t, entryId);
        await t.engine.service.requestData(t.p, entryId, { sync_nmvtis: true }); // found -> pending -> found: nothing new
        await jobEnded(t, entryId);
        expect(events(r, entryId)).to.deep.equal([
          ['title.job_status.complete'],
          ['title.data.found', 'title.job_status.complete'],
          ['title.job_status.complete'],
        ]);
        expect(r.forEntry(entryId)[1]!.body.nmvtis_found_status).to.equal('found');
        expect(r.forEntry(entryId)[1]!.body.nmvtis_pull).to.match(/^http:\/\/.*\/files\/.*\?expires=\d+&signature=/);
      } finally {
        await t.stop();
        await r.close();
      }
    });
  });
}
