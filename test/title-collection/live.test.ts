/**
 * The http carrier (mode LIVE) against a carrier API the test starts, the
 * polling fallback, a lost title (duplicate-title forms), the WET_SIGN
 * shipments for the signing plugin, and assets past their expiry.
 */
import { expect } from 'chai';
import { DIALECTS, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { COLLABORATORS, ObjectStore, type TitleCollectionService } from '../../core/plugin-api.js';
import type { TitleCollectionPlugin } from '../../plugins/title-collection/index.js';
import { presentCollection } from '../../plugins/title-collection/view.js';
import { FACILITY, FakeCarrier, code128OfPdf, entryBody } from './support.js';

for (const dialect of DIALECTS) {
  describe(`title collection with the http carrier (${dialect})`, function () {
    let t: TestEngine;
    let carrier: FakeCarrier;
    const base = dialect === 'postgres' ? 7600 : 7500;

    before(async () => {
      carrier = await new FakeCarrier().listen();
      t = await startTestEngine({
        dialect,
        config: {
          stages: ['intake', 'forms', 'title-collection'],
          plugins: {
            'title-collection': {
              provider: 'http',
              http: { endpoint: carrier.url, apiKey: 'k_live_1' },
              pollIntervalMs: 0,
            },
          },
        },
      });
      const s = await t.request('PATCH', '/title-collection/settings', {
        body: { title_collection: true, receiving_address: FACILITY },
      });
      expect(s.status).to.equal(200);
    });
    after(async () => {
      await t?.stop();
      await carrier?.close();
    });

    const create = async (body: Record<string, unknown>): Promise<string> => {
      const id = (await t.request('POST', '/title', { body })).body.entryId as string;
      await eventually(async () => (await t.request('GET', `/title/${id}`)).body.job_status === 'complete', {
        what: 'job complete',
      });
      return id;
    };
    const plugin = () => t.engine.plugins.find((p) => p.name === 'title-collection') as TitleCollectionPlugin;

    it('creates the shipment at the carrier (LIVE), once, and polls its tracking events', async () => {
      const id = await create(entryBody(base));
      const before = carrier.shipments.length;
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      await t.request('POST', `/title/${id}/collection`);
      expect(carrier.shipments.length - before).to.equal(1);
      expect(carrier.idempotencyKeys.at(-1)).to.equal(tc.collection_id);
      expect(carrier.authorization.at(-1)).to.equal('Bearer k_live_1');
      const sent = carrier.shipments.at(-1)!;
      expect(sent.from_address).to.include({ street1: '12 Elm St', city: 'Round Rock', state: 'TX', zip: '78664' });
      expect(sent.to_address).to.include({
        name: FACILITY.recipient_name,
        street1: FACILITY.street1,
        zip: FACILITY.zip,
      });
      expect(sent.reference).to.equal(tc.collection_id);
      expect(tc).to.include({ mode: 'LIVE', carrier: 'FakePost', qr_verified: false });
      expect(tc).to.not.have.property('qr_url'); // this carrier gave no QR code
      const label = Buffer.from(await (await fetch(tc.label_url)).arrayBuffer());
      expect(await code128OfPdf(label)).to.deep.equal([tc.tracking_number]);
      expect((await t.request('GET', `/title/${id}`)).body.tracking_url_provider).to.equal(
        `${carrier.url}/track/${tc.tracking_number}`,
      );

      carrier.events.set(tc.tracking_number, [
        { id: 'e1', status: 'pre_transit', occurred_at: '2026-11-20T10:00:00Z' },
        {
          id: 'e2',
          status: 'in_transit',
          occurred_at: '2026-11-21T10:00:00Z',
          description: 'Accepted at USPS Origin Facility',
        },
      ]);
      const round = await plugin().pollNow();
      expect(round.applied).to.be.at.least(2);
      expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal('in_transit');
      const again = await plugin().pollNow();
      expect(again.applied).to.equal(0);
      const sim = await t.request('POST', `/title/${id}/collection/simulate`, { body: { event: 'delivered' } });
      expect(sim.status).to.equal(409); // simulate is for the sandbox only
    });

    it('lost title: unavailable, duplicate-title form generated; a later scan recovers', async () => {
      const id = await create(entryBody(base + 10));
      await t.request('POST', `/title/${id}/collection`);
      const lost = await t.request('POST', `/title/${id}/collection/lost`);
      expect(lost.status, JSON.stringify(lost.body)).to.equal(200);
      expect(lost.body).to.include({ physical_title_status: 'unavailable', forms: 'generated' });
      expect(lost.body.form_duplicate_title).to.match(/^http:\/\/.*\/files\/.*\?expires=\d+&signature=/);
      const pdf = Buffer.from(await (await fetch(lost.body.form_duplicate_title)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      const tc = (await t.request('GET', `/title/${id}`)).body.title_collection;
      carrier.events.set(tc.tracking_number, [
        { id: 'late-scan', status: 'in_transit', occurred_at: '2026-11-22T10:00:00Z' },
      ]);
      await plugin().pollNow();
      expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal('in_transit');
    });

    it("a deleted entry's collection is no longer polled", async () => {
      const id = await create(entryBody(base + 30));
      await t.request('POST', `/title/${id}/collection`);
      expect((await t.request('DELETE', `/title/${id}`)).status).to.equal(200);
      await plugin().pollNow();
      const rows = await t.engine.db.query<{ state: string }>(
        'SELECT state FROM title_collections WHERE "entryId" = ?',
        [id],
      );
      expect(rows.map((r) => r.state)).to.deep.equal(['deleted']);
    });

    it('WET_SIGN shipments: outbound and return labels from the same carrier, stored under the entry', async () => {
      const svc = t.engine.container.resolve<TitleCollectionService>(COLLABORATORS.titleCollection);
      const id = await create(entryBody(base + 20));
      const orgId = (await t.engine.orgs.byName(t.org.name))!.id;
      const before = carrier.shipments.length;
      const pt = (await svc.wetSignShipment!(orgId, id, 'sr_123'))!;
      expect(carrier.shipments.length - before).to.equal(2);
      expect(pt).to.include({ status: 'label_created' });
      expect(pt.shipment_id).to.be.a('string').and.not.equal(pt.return_shipment_id);
      expect(String(pt.label_url)).to.match(new RegExp(`/${id}/signing/sr_123/outbound-label\\.pdf$`));
      expect(String(pt.return_label_url)).to.match(new RegExp(`/${id}/signing/sr_123/return-label\\.pdf$`));
      expect(carrier.shipments.at(-2)!.to_address).to.include({ street1: '12 Elm St' });
    });

    it("the shipper voids a label at the carrier: POST /shipments/{id}/refund (the submission plugin's MAIL labels)", async () => {
      const shipper = t.engine.container.resolve<TitleCollectionService>(COLLABORATORS.titleCollection).shipper!();
      const address = { name: 'Mail Room', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' };
      const parcel = { length_in: 12, width_in: 9, height_in: 1, weight_oz: 8 };
      const ship = (reference: string) =>
        shipper.ship({ from: address, to: address, reference, service: 'priority', parcel });
      const label = await ship(`void-${dialect}-1`);
      expect(await shipper.voidLabel(label.shipment_id)).to.deep.equal({
        shipment_id: label.shipment_id,
        refund_status: 'submitted',
      });
      expect(carrier.requests.at(-1)).to.equal(`POST /shipments/${label.shipment_id}/refund`);
      expect(carrier.refunds.at(-1)).to.deep.equal({
        id: label.shipment_id,
        idempotencyKey: `refund-${label.shipment_id}`,
      });
      expect(carrier.authorization.at(-1)).to.equal('Bearer k_live_1');

      const used = await ship(`void-${dialect}-2`);
      carrier.rejectRefunds.add(used.shipment_id);
      expect((await shipper.voidLabel(used.shipment_id)).refund_status).to.equal('rejected');
      carrier.failRefunds = 1;
      const err = await shipper.voidLabel(label.shipment_id).catch((e: unknown) => e);
      expect(err).to.include({ code: 'CARRIER_ERROR' });
      expect((err as Error).message).to.include('503');
      expect((await shipper.voidLabel('shp_999999').catch((e: unknown) => e)) as Error).to.include({
        code: 'CARRIER_ERROR',
      });
    });
  });
}

describe('title collection polling in the background (start)', function () {
  it('the daemon polls open collections on its own and applies new carrier events', async () => {
    const carrier = await new FakeCarrier().listen();
    const t = await startTestEngine({
      config: {
        stages: ['intake', 'title-collection'],
        plugins: { 'title-collection': { provider: 'http', http: { endpoint: carrier.url }, pollIntervalMs: 50 } },
      },
    });
    try {
      await t.request('PATCH', '/title-collection/settings', {
        body: { title_collection: true, receiving_address: FACILITY },
      });
      const id = (await t.request('POST', '/title', { body: entryBody(7900) })).body.entryId as string;
      await eventually(async () => (await t.request('GET', `/title/${id}`)).body.job_status === 'complete');
      const tc = (await t.request('POST', `/title/${id}/collection`)).body.title_collection;
      expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal(undefined);
      carrier.events.set(tc.tracking_number, [
        { id: 'bg-1', status: 'out_for_delivery', occurred_at: '2026-11-21T10:00:00Z' },
      ]);
      await eventually(
        async () => (await t.request('GET', `/title/${id}`)).body.physical_title_status === 'in_transit',
        {
          what: 'the background poll applied the scan',
        },
      );
      const d = (await t.request('GET', `/title/${id}/collection`)).body;
      expect(d.events).to.deep.include({
        id: 'bg-1',
        status: 'out_for_delivery',
        source: 'poll',
        occurred_at: '2026-11-21T10:00:00.000Z',
        description: null,
      });
    } finally {
      await t.stop();
      await carrier.close();
    }
  });
});

describe('title collection assets past assets_expires_at', function () {
  it('no label or QR URL once the assets expired; URLs that expire at assets_expires_at before', async () => {
    const t = await startTestEngine({ config: { stages: ['intake', 'title-collection'] } });
    try {
      const stored = {
        collection_id: 'c',
        mode: 'STUB' as const,
        carrier: 'x',
        service: 's',
        return_address: 'r',
        instructions: [],
        created_at: '2026-01-01T00:00:00Z',
        tracking_number: 'T',
        qr_verified: true,
        assets_expires_at: '2026-01-31T00:00:00Z',
      };
      const objects = t.engine.container.resolve<ObjectStore>(ObjectStore as never);
      const assets = { label: 'title-collection/return-label.pdf', qr: 'title-collection/dropoff-qr.png' };
      const before = presentCollection(stored, assets, 'o/e', objects, Date.parse('2026-01-30T00:00:00Z'));
      expect(before.label_url).to.match(/expires=\d+/);
      expect(before.qr_url).to.be.a('string');
      const after = presentCollection(stored, assets, 'o/e', objects, Date.parse('2026-01-31T00:00:01Z'));
      expect(after.label_url).to.equal(null);
      expect(after).to.not.have.property('qr_url');
    } finally {
      await t.stop();
    }
  });
});
