/**
 * Physical title collection through the HTTP API (issue 15, "done when"):
 * enroll an organization, an entry for a state that needs the original title,
 * one collection however often and concurrently it is asked for, the label and
 * QR downloaded and decoded, carrier events and the facility match moving
 * physical_title_status with their webhooks, and no collection where none applies.
 */
import { expect } from 'chai';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { receiver, settled, startWebhookEngine, type Receiver, type WebhookTestEngine } from '../webhook/support.js';
import { decodeImage, sandboxTrackingNumber, signCarrierBody } from '../../plugins/title-collection/index.js';
import { FACILITY, SECRET, code128OfPdf, entryBody, textOfPdf } from './support.js';

const physicalEvents = (r: Receiver, id: string): string[] =>
  r
    .forEntry(id)
    .flatMap((x) => (x.body.webhook_events as string[]).filter((e) => e.startsWith('title.physical_title_status.')));
const withoutUrls = (v: Record<string, unknown>) => ({ ...v, label_url: undefined, qr_url: undefined });
const path = (u: string) => new URL(u).pathname;

for (const dialect of DIALECTS) {
  describe(`title collection through HTTP (${dialect})`, function () {
    let t: WebhookTestEngine;
    let r: Receiver;
    const base = dialect === 'postgres' ? 7200 : 7100;

    before(async () => {
      r = await receiver();
      t = await startWebhookEngine({
        dialect,
        config: {
          stages: ['intake', 'title-collection', 'webhook'],
          plugins: {
            webhook: { retryBaseMs: 20, pollIntervalMs: 20, timeoutMs: 5000 },
            'title-collection': { webhookSecret: SECRET, pollIntervalMs: 0 },
          },
        },
      });
      await t.wh.setProfile(t.org.name, {
        url: `${r.url}/hook`,
        auth: { scheme: 'none' },
        events: [
          'title.job_status.complete',
          'title.physical_title_status.in_transit',
          'title.physical_title_status.received',
          'title.physical_title_status.skipped',
        ],
      });
      const s = await t.request('PATCH', '/title-collection/settings', {
        body: { title_collection: true, physical_title_events: true, receiving_address: FACILITY },
      });
      expect(s.status).to.equal(200);
      expect(s.body).to.deep.include({
        title_collection: true,
        physical_title_events: true,
        receiving_address: FACILITY,
      });
    });
    after(async () => {
      await t?.stop();
      await r?.close();
    });

    const create = async (body: Record<string, unknown>, key?: string): Promise<string> => {
      const res = await t.request('POST', '/title', { body, key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.entryId as string;
      await eventually(async () => (await t.request('GET', `/title/${id}`, { key })).body.job_status === 'complete', {
        what: 'job complete',
      });
      return id;
    };

    it('one collection per entry, however often and concurrently it is asked for; equal on the entry', async () => {
      const id = await create(entryBody(base));
      const first = await t.request('POST', `/title/${id}/collection`);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const tc = first.body.title_collection;
      expect(tc.collection_id).to.match(/^[0-9a-f-]{36}$/);
      expect(tc).to.include({
        mode: 'STUB',
        carrier: 'Titled Sandbox Post',
        service: 'ground_return',
        qr_verified: true,
      });
      expect(tc.return_address).to.equal('Acme Lending Title Dept, 100 Congress Ave, Suite 400, Austin, TX 78701');
      expect(tc.tracking_number).to.equal(sandboxTrackingNumber(tc.collection_id));
      expect(Date.parse(tc.assets_expires_at)).to.be.greaterThan(Date.now());
      const again = await Promise.all([1, 2, 3, 4, 5].map(() => t.request('POST', `/title/${id}/collection`)));
      for (const a of again) expect(a.body.title_collection.collection_id).to.equal(tc.collection_id);
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(withoutUrls(entry.title_collection)).to.deep.equal(withoutUrls(tc));
      expect(path(entry.title_collection.label_url)).to.equal(path(tc.label_url));
      expect(entry.title_collection_assets).to.equal(undefined);
      expect(entry.tracking_url_provider).to.equal(`https://sandbox.titled.invalid/track/${tc.tracking_number}`);
      expect(entry.physical_title_status).to.equal(undefined); // label creation alone moves nothing
    });

    it('concurrent first calls on a fresh entry make one collection', async () => {
      const id = await create(entryBody(base + 50));
      const all = await Promise.all([1, 2, 3, 4, 5, 6].map(() => t.request('POST', `/title/${id}/collection`)));
      const ids = new Set(all.map((a) => a.body.title_collection?.collection_id));
      expect(all.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
      expect(ids.size).to.equal(1);
      const rows = await t.engine.db.query<{ n: unknown }>(
        'SELECT COUNT(*) AS n FROM title_collections WHERE "entryId" = ?',
        [id],
      );
      expect(Number(rows[0]!.n)).to.equal(1);
    });

    it('the label PDF and the QR image download through their presigned URLs and decode', async () => {
      const id = await create(entryBody(base + 100));
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      const label = Buffer.from(await (await fetch(tc.label_url)).arrayBuffer());
      expect(label.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(await code128OfPdf(label)).to.deep.equal([tc.tracking_number]);
      const text = await textOfPdf(label);
      expect(text)
        .to.include('12 Elm St')
        .and.include('Round Rock, TX 78664')
        .and.include('100 Congress Ave')
        .and.include('Austin, TX 78701');
      const qrRes = await fetch(tc.qr_url);
      expect(qrRes.headers.get('content-type')).to.equal('image/png');
      const qr = Buffer.from(await qrRes.arrayBuffer());
      expect(await decodeImage(qr, 'QRCode')).to.deep.equal([`TITLED-DROPOFF:${tc.tracking_number}`]);
      // a fresh URL on each read, good until assets_expires_at
      const reread = (await t.request('GET', `/title/${id}`)).body.title_collection;
      const expires = Number(new URL(reread.label_url).searchParams.get('expires'));
      expect(Math.abs(expires - Math.floor(Date.parse(tc.assets_expires_at) / 1000))).to.be.at.most(1);
      expect((await fetch(reread.label_url)).status).to.equal(200);
    });

    it('a carrier scan fires in_transit; delivery alone fires nothing; the facility match fires received', async () => {
      const id = await create(entryBody(base + 200));
      await t.request('POST', `/title/${id}/collection`);
      const delivered = await t.request('POST', `/title/${id}/collection/simulate`, { body: { event: 'delivered' } });
      expect(delivered.body).to.include({ applied: true, physical_title_status: null });
      await settled(t.wh);
      expect(physicalEvents(r, id)).to.deep.equal([]);
      const scan = await t.request('POST', `/title/${id}/collection/simulate`, { body: { event: 'in_transit' } });
      expect(scan.body).to.include({ applied: true, physical_title_status: 'in_transit' });
      await settled(t.wh);
      expect(physicalEvents(r, id)).to.deep.equal(['title.physical_title_status.in_transit']);
      const wrong = await t.request('POST', `/title/${id}/collection/receive`, {
        body: { title_number: '99999999999' },
      });
      expect(wrong.status).to.equal(409);
      expect(wrong.body.error).to.match(/number 99999999999 does not match the entry's title number 12345678901/);
      const badVin = await t.request('POST', `/title/${id}/collection/receive`, { body: { vin: '1FTFW1ET5DFC10312' } });
      expect(badVin.status).to.equal(409);
      expect(badVin.body.error).to.match(/VIN 1FTFW1ET5DFC10312 does not match/);
      const ok = await t.request('POST', `/title/${id}/collection/receive`, { body: { title_number: '12345678901' } });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      await settled(t.wh);
      expect(physicalEvents(r, id)).to.deep.equal([
        'title.physical_title_status.in_transit',
        'title.physical_title_status.received',
      ]);
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.physical_title_status).to.equal('received');
      const hook = r.forEntry(id).at(-1)!.body;
      expect(hook.title_collection.collection_id).to.equal(entry.title_collection.collection_id);
      expect(hook).to.not.have.property('title_collection_assets');
      const d = (await t.request('GET', `/title/${id}/collection`)).body;
      expect(d.events.map((e: { status: string }) => e.status)).to.deep.equal(['delivered', 'in_transit', 'received']);
    });

    it('the signed carrier webhook applies an event once; a bad signature is refused', async () => {
      const id = await create(entryBody(base + 300));
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      const raw = JSON.stringify({
        event: {
          id: 'evt_1',
          tracking_code: tc.tracking_number,
          status: 'in_transit',
          occurred_at: new Date().toISOString(),
        },
      });
      const bad = await t.request('POST', '/title-collection/carrier-events', {
        rawBody: raw,
        key: null,
        headers: { 'x-carrier-signature': signCarrierBody('wrong-secret-wrong-secret', raw) },
      });
      expect(bad.status).to.equal(403);
      expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal(undefined);
      const headers = { 'x-carrier-signature': signCarrierBody(SECRET, raw) };
      const good = await t.request('POST', '/title-collection/carrier-events', { rawBody: raw, key: null, headers });
      expect(good.status).to.equal(200);
      expect(good.body).to.deep.equal({ applied: true });
      const dup = await t.request('POST', '/title-collection/carrier-events', { rawBody: raw, key: null, headers });
      expect(dup.body).to.deep.equal({ applied: false });
      expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal('in_transit');
      const stale = signCarrierBody(SECRET, raw, Date.now() - 3600_000);
      expect(
        (
          await t.request('POST', '/title-collection/carrier-events', {
            rawBody: raw,
            key: null,
            headers: { 'x-carrier-signature': stale },
          })
        ).status,
      ).to.equal(403);
    });

    it('no title_collection: org not enrolled, no original needed, electronic title', async () => {
      const other = await t.newOrg();
      const a = await create(entryBody(base + 400), other.key);
      const ra = await t.request('POST', `/title/${a}/collection`, { key: other.key });
      expect(ra.body.title_collection).to.equal(null);
      expect(ra.body.reason).to.match(/not enrolled/);
      expect((await t.request('GET', `/title/${a}`, { key: other.key })).body).to.not.have.property('title_collection');

      const b = await create(entryBody(base + 410, { newLien: false }));
      const rb = await t.request('POST', `/title/${b}/collection`);
      expect(rb.body.title_collection).to.equal(null);
      expect(rb.body.reason).to.match(/no transaction of the entry needs the original title in TX/);
      expect((await t.request('GET', `/title/${b}`)).body).to.not.have.property('title_collection');

      const c = await create(entryBody(base + 420, { state: 'FL', electronic: true }));
      const rc = await t.request('POST', `/title/${c}/collection`);
      expect(rc.body.title_collection).to.equal(null);
      const ec = (await t.request('GET', `/title/${c}`)).body;
      expect(ec).to.not.have.property('title_collection');
      expect(ec.physical_title_status).to.equal('skipped');
      await settled(t.wh);
      expect(physicalEvents(r, c)).to.deep.equal(['title.physical_title_status.skipped']);
    });

    it('the collection service is registered for the signing plugin and returns the same object', async () => {
      const { COLLABORATORS } = await import('../../core/plugin-api.js');
      const svc = t.engine.container.resolve<import('../../core/plugin-api.js').TitleCollectionService>(
        COLLABORATORS.titleCollection,
      );
      const id = await create(entryBody(base + 500));
      const orgId = (await t.engine.orgs.byName(t.org.name))!.id;
      const viaService = (await svc.ensure(orgId, id))!;
      const viaHttp = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      expect(withoutUrls(viaHttp)).to.deep.equal(withoutUrls(viaService));
      expect(withoutUrls((await svc.get(orgId, id))!)).to.deep.equal(withoutUrls(viaService));
    });

    it('the sandbox shipper voids its own labels, deterministically; an id not of the sandbox is CARRIER_ERROR', async () => {
      const { COLLABORATORS } = await import('../../core/plugin-api.js');
      const shipper = t.engine.container.resolve<import('../../core/plugin-api.js').TitleCollectionService>(
        COLLABORATORS.titleCollection,
      ).shipper!();
      const address = { name: 'Mail Room', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' };
      const label = await shipper.ship({
        from: address,
        to: address,
        reference: 'sandbox-void-1',
        service: 'priority',
        parcel: { length_in: 12, width_in: 9, height_in: 1, weight_oz: 8 },
      });
      expect(label.shipment_id).to.match(/^shp_sbx_[0-9a-f]{24}$/);
      const answer = { shipment_id: label.shipment_id, refund_status: 'submitted' };
      expect(await shipper.voidLabel(label.shipment_id)).to.deep.equal(answer);
      expect(await shipper.voidLabel(label.shipment_id)).to.deep.equal(answer);
      const err = await shipper.voidLabel('shp_123').catch((e: unknown) => e);
      expect(err).to.include({ code: 'CARRIER_ERROR' });
    });

    it('a signature request that carries the collection shows the same object as the entry', async () => {
      const { Entries } = await import('../../core/plugin-api.js');
      const entries = t.engine.container.resolve<InstanceType<typeof Entries>>(Entries as never);
      const id = await create(entryBody(base + 700));
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      const orgId = (await t.engine.orgs.byName(t.org.name))!.id;
      // what the signing plugin stores: its request with the object ensure returned (URLs of that moment)
      await t.engine.db.tx(async (m) => {
        const s = (await entries.load(orgId, id, m))!;
        s.entry.signature_requests = [
          { id: 'sr_1', type: 'WET_SIGN', status: 'DRAFT', title_collection: { ...tc, label_url: 'stale' } },
        ];
        await entries.save(m, orgId, s.entry, s.version);
      });
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.signature_requests[0].title_collection).to.deep.equal(entry.title_collection);
      expect(entry.signature_requests[0].title_collection.label_url).to.match(/\/files\//);
    });

    it("the entry's copy is written again when a creator stopped after opening the row", async () => {
      const { Entries } = await import('../../core/plugin-api.js');
      const entries = t.engine.container.resolve<InstanceType<typeof Entries>>(Entries as never);
      const id = await create(entryBody(base + 800));
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      const orgId = (await t.engine.orgs.byName(t.org.name))!.id;
      await t.engine.db.tx(async (m) => {
        const s = (await entries.load(orgId, id, m))!;
        delete s.entry.title_collection;
        delete s.entry.title_collection_assets;
        await entries.save(m, orgId, s.entry, s.version);
      });
      expect((await t.request('GET', `/title/${id}`)).body).to.not.have.property('title_collection');
      const again = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      expect(again.collection_id).to.equal(tc.collection_id);
      const entry = (await t.request('GET', `/title/${id}`)).body;
      expect(entry.title_collection.collection_id).to.equal(tc.collection_id);
      expect(entry.title_collection.label_url).to.match(/\/files\//);
    });

    it('bad input: 400 with the error body, unknown entry 404', async () => {
      const id = await create(entryBody(base + 600));
      await t.request('POST', `/title/${id}/collection`);
      const bad = await t.request('POST', `/title/${id}/collection/simulate`, { body: { event: 'teleported' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.statusCode).to.equal(400);
      expect((await t.request('POST', `/title/${id}/collection/receive`, { body: {} })).status).to.equal(400);
      expect((await t.request('POST', '/title/00000000-0000-0000-0000-000000000000/collection')).status).to.equal(404);
      expect(
        (await t.request('PATCH', '/title-collection/settings', { body: { receiving_address: { street1: 'x' } } }))
          .status,
      ).to.equal(400);
    });
  });
}
