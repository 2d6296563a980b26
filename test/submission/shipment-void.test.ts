/**
 * Canceling a MAIL submission whose packet has an outbound carrier label
 * (`plugins.submission.mailCarrier`), through the HTTP API and the CLI, on
 * both databases: a label the carrier has not scanned (no event but
 * pre_transit) is voided at the carrier through the Shipper interface (the
 * sandbox, and the http provider against a carrier API the test starts:
 * POST /shipments/{id}/refund), the shipment shows `voided` and is no longer
 * polled; a packet already in transit keeps its label and its tracking, and
 * the cancel's history note says so. A void that fails at the carrier does
 * not fail the cancel: it is logged and retried by the shipment poll. No
 * cancel ever voids twice.
 */
import { expect } from 'chai';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { FakeCarrier, SECRET } from '../title-collection/support.js';
import { sandboxTrackingNumber, signCarrierBody } from '../../plugins/title-collection/index.js';
import { accountEvents, readyEntry, type SubTestEngine, startCarrierCliEngine, startCarrierEngine } from './support.js';

async function submitMail(t: SubTestEngine, entryId: string): Promise<{ sid: string; s: any }> {
  const r = await t.request('POST', `/title/${entryId}/submit`, { body: { method: 'MAIL' } });
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  const sid = r.body.submissionId as string;
  return { sid, s: (await t.request('GET', `/title/${entryId}/submit/${sid}`)).body };
}

/** Log lines of `code` about the submission `sid`. */
const logged = (t: SubTestEngine, code: string, sid: string) =>
  t.logs.filter((l) => l.includes(`"code":"${code}"`) && l.includes(sid));

for (const dialect of DIALECTS) {
  describe(`submission: canceling a MAIL packet with a sandbox label (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    const simulate = (entryId: string, sid: string, event: string) =>
      t.request('POST', `/title/${entryId}/submit/${sid}/shipment/simulate`, { body: { event } });

    before(async () => {
      t = await startCarrierEngine(dialect);
    });
    after(async () => t?.stop());

    it('a client cancel before any scan voids the label: voided, noted, no longer polled; a second cancel voids nothing', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: { reason: 'duplicate' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.status).to.equal('CANCELED');
      expect(r.body.shipment).to.include({ status: 'voided', trackingNumber: sandboxTrackingNumber(sid) });
      expect(r.body.shipment).not.to.have.property('voidPending');
      const [canceled, voided] = r.body.history.slice(-2);
      expect(canceled).to.include({ from: 'PENDING', to: 'CANCELED', note: 'duplicate' });
      expect(voided).to.include({ from: 'CANCELED', to: 'CANCELED', by: 'carrier:sandbox' });
      expect(voided.note).to.include('voided at the carrier, refund submitted').and.include(sandboxTrackingNumber(sid));
      expect(logged(t, 'SUBMISSION_LABEL_VOIDED', sid)).to.have.length(1);

      // the poll no longer claims it: the sandbox's label-created event is never fetched for it
      await t.plugin.pollShipments();
      const got = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(got.shipment.events).to.deep.equal([]);
      expect(got.shipment.status).to.equal('voided');

      // canceling again (operator, then client) is 409 and voids nothing more
      const again = await t.request('POST', `/submissions/${sid}/cancel`, { body: {}, key: t.opKey });
      expect(again.status).to.equal(409);
      expect((await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: {} })).status).to.equal(409);
      expect(logged(t, 'SUBMISSION_LABEL_VOIDED', sid)).to.have.length(1);
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body.history).to.have.length(3);

      // a late scan is recorded but does not revive a voided label
      const late = await simulate(e.entryId, sid, 'in_transit');
      expect(late.body.applied).to.equal(true);
      expect(late.body.submission.shipment.status).to.equal('voided');
      expect(await accountEvents(t, e.entryId)).to.deep.equal([]);
    });

    it('an operator cancel of a packet in transit: not voided, the note says it is with the carrier, tracking goes on', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      await simulate(e.entryId, sid, 'in_transit');
      const r = await t.request('POST', `/submissions/${sid}/cancel`, {
        body: { reason: 'loan paid off' },
        key: t.opKey,
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.status).to.equal('CANCELED');
      expect(r.body.shipment.status).to.equal('in_transit');
      expect(r.body.history).to.have.length(2);
      const note = r.body.history.at(-1).note as string;
      expect(note).to.include('loan paid off').and.include('already with the carrier (in_transit');
      expect(note).to.include(sandboxTrackingNumber(sid)).and.include('not voided');
      expect(logged(t, 'SUBMISSION_LABEL_VOIDED', sid)).to.deep.equal([]);

      // still polled: the sandbox's label-created event arrives, and does not undo the scan
      await t.plugin.pollShipments();
      const polled = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(polled.shipment.events.map((x: any) => [x.status, x.source])).to.deep.equal([
        ['in_transit', 'simulate'],
        ['pre_transit', 'poll'],
      ]);
      expect(polled.shipment.status).to.equal('in_transit');
      const delivered = await simulate(e.entryId, sid, 'delivered');
      expect(delivered.body.submission.status).to.equal('CANCELED');
      expect(delivered.body.submission.shipment.status).to.equal('delivered');
      expect(await accountEvents(t, e.entryId)).to.deep.equal([]);
    });

    it('a label-created event alone is no scan: the cancel voids the label', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      await simulate(e.entryId, sid, 'pre_transit');
      const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`);
      expect(r.body.shipment.status).to.equal('voided');
    });
  });

  describe(`submission: canceling a MAIL packet with an http carrier label (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    let carrier: FakeCarrier;

    before(async () => {
      carrier = await new FakeCarrier().listen();
      t = await startCarrierEngine(dialect, {
        titleCollection: {
          provider: 'http',
          http: { endpoint: carrier.url, apiKey: 'k_live_3' },
          webhookSecret: SECRET,
        },
      });
    });
    after(async () => {
      await t?.stop();
      await carrier?.close();
    });

    const refundsOf = (shipmentId: string) => carrier.refunds.filter((r) => r.id === shipmentId);
    const get = async (entryId: string, sid: string) =>
      (await t.request('GET', `/title/${entryId}/submit/${sid}`)).body;

    it('voids at the carrier once: POST /shipments/{id}/refund with the API key and an idempotency key', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      const { shipmentId, trackingNumber: code } = s.shipment;
      carrier.events.set(code, [{ id: 'lc1', status: 'pre_transit', occurred_at: '2026-11-20T09:00:00Z' }]);
      await t.plugin.pollShipments();
      expect((await get(e.entryId, sid)).shipment.events.map((x: any) => x.id)).to.deep.equal(['lc1']);

      const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: {} });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.shipment.status).to.equal('voided');
      expect(r.body.history.at(-1)).to.include({ by: 'carrier:http' });
      expect(refundsOf(shipmentId)).to.deep.equal([{ id: shipmentId, idempotencyKey: `refund-${shipmentId}` }]);
      expect(carrier.requests.filter((x) => x === `POST /shipments/${shipmentId}/refund`)).to.have.length(1);
      const i = carrier.requests.lastIndexOf(`POST /shipments/${shipmentId}/refund`);
      expect(carrier.authorization[i]).to.equal('Bearer k_live_3');

      expect((await t.request('POST', `/submissions/${sid}/cancel`, { key: t.opKey })).status).to.equal(409);
      const tracked = carrier.requests.filter((x) => x === `GET /trackers/${code}`).length;
      await new Promise((ok) => setTimeout(ok, 1100)); // past the released lease's next round
      await t.plugin.pollShipments();
      expect(refundsOf(shipmentId)).to.have.length(1);
      expect(carrier.requests.filter((x) => x === `GET /trackers/${code}`)).to.have.length(tracked);
    });

    it('a void failing at the carrier does not fail the cancel: logged, voidPending, voided by the poll, once', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      const shipmentId = s.shipment.shipmentId as string;
      carrier.failRefunds = 1;
      const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: {} });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.status).to.equal('CANCELED');
      expect(r.body.shipment).to.include({ status: 'pre_transit', voidPending: true });
      expect(r.body.history).to.have.length(2);
      expect(refundsOf(shipmentId)).to.deep.equal([]);
      const failed = logged(t, 'SUBMISSION_LABEL_VOID_FAILED', sid);
      expect(failed).to.have.length(1);
      expect(failed[0]).to.include('503').and.not.include('200 Filing Ln');

      const voided = await eventually(
        async () => {
          await t.plugin.pollShipments();
          const x = await get(e.entryId, sid);
          return x.shipment.status === 'voided' ? x : null;
        },
        { what: 'the poll voids the label', tries: 100, everyMs: 100 },
      );
      expect(voided.shipment).not.to.have.property('voidPending');
      expect(voided.history.at(-1)).to.include({ from: 'CANCELED', to: 'CANCELED', by: 'carrier:http' });
      expect(refundsOf(shipmentId)).to.have.length(1);
      await new Promise((ok) => setTimeout(ok, 1100));
      await t.plugin.pollShipments();
      expect(refundsOf(shipmentId)).to.have.length(1);
      expect(logged(t, 'SUBMISSION_LABEL_VOIDED', sid)).to.have.length(1);
    });

    it('a refund the carrier rejects: the label stays, tracking goes on, the history says so', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      const { shipmentId, trackingNumber: code } = s.shipment;
      carrier.rejectRefunds.add(shipmentId);
      const r = await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: {} });
      expect(r.body.status).to.equal('CANCELED');
      expect(r.body.shipment.status).to.equal('pre_transit');
      expect(r.body.shipment).not.to.have.property('voidPending');
      expect(r.body.history.at(-1).note).to.include('refused to void');
      expect(logged(t, 'SUBMISSION_LABEL_VOID_REJECTED', sid)).to.have.length(1);
      carrier.events.set(code, [{ id: 'rj1', status: 'in_transit', occurred_at: '2026-11-20T10:00:00Z' }]);
      const x = await eventually(
        async () => {
          await t.plugin.pollShipments();
          const g = await get(e.entryId, sid);
          return g.shipment.status === 'in_transit' ? g : null;
        },
        { what: 'still tracked', tries: 100, everyMs: 100 },
      );
      expect(x.status).to.equal('CANCELED');
      expect(refundsOf(shipmentId)).to.have.length(1);
    });

    it('a scan arriving while the void waits for its retry: the void is dropped, tracking goes on', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      const { shipmentId, trackingNumber: code } = s.shipment;
      carrier.failRefunds = 1;
      expect((await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`)).body.shipment.voidPending).to.equal(
        true,
      );
      const raw = JSON.stringify({
        id: 'sc1',
        tracking_code: code,
        status: 'in_transit',
        occurred_at: '2026-11-20T11:00:00Z',
      });
      const hook = await t.request('POST', '/title-collection/carrier-events', {
        rawBody: raw,
        key: null,
        headers: { 'x-carrier-signature': signCarrierBody(SECRET, raw) },
      });
      expect(hook.body).to.deep.equal({ applied: true });
      const after = await get(e.entryId, sid);
      expect(after.shipment.status).to.equal('in_transit');
      expect(after.shipment).not.to.have.property('voidPending');
      expect(after.history.at(-1)).to.include({ by: 'carrier:http' });
      expect(after.history.at(-1).note).to.include('already with the carrier (in_transit').and.include('not voided');
      await new Promise((ok) => setTimeout(ok, 1100));
      await t.plugin.pollShipments();
      expect(refundsOf(shipmentId)).to.deep.equal([]);
    });
  });
}

describe('submission: titled submissions cancel voids the sandbox label (CLI, sqlite)', function () {
  this.timeout(180_000);

  it('the CLI cancel voids the label; the HTTP API shows it', async () => {
    const { t, submissions } = await startCarrierCliEngine();
    try {
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      const { stdout } = await submissions(['cancel', sid, '--reason', 'wrong office']);
      const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(out).to.include({ submissionId: sid, status: 'CANCELED' });
      expect(out.shipment.status).to.equal('voided');
      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(s.shipment.status).to.equal('voided');
      expect(s.history.map((h: any) => [h.to, h.by.split(':')[0]])).to.deep.equal([
        ['PENDING', s.history[0].by.split(':')[0]],
        ['CANCELED', 'cli'],
        ['CANCELED', 'carrier'],
      ]);
    } finally {
      await t.stop();
    }
  });
});
