/**
 * MAIL packets with an outbound carrier label (`plugins.submission.mailCarrier`)
 * through the HTTP API, on both databases: the label is bought through the
 * title-collection plugin's carrier (sandbox, and http against a carrier API
 * the test starts), addressed to the filing office, the packet names the
 * tracking number, and delivery (sandbox simulate, the signed carrier
 * webhook, the poll) moves PENDING -> SUBMITTED with the filing_en_route
 * webhook. Without mailCarrier nothing changes.
 */
import { expect } from 'chai';
import { DIALECTS, eventually } from '../helpers/engine.js';
import type { Receiver } from '../webhook/support.js';
import { FakeCarrier, SECRET, code128OfPdf, textOfPdf } from '../title-collection/support.js';
import { sandboxTrackingNumber, signCarrierBody } from '../../plugins/title-collection/index.js';
import {
  accountEvents,
  pdfText,
  readyEntry,
  startSubmissionEngine,
  type SubTestEngine,
  startCarrierCliEngine,
  startCarrierEngine,
  accountStatusHooks,
} from './support.js';

const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

async function submitMail(t: SubTestEngine, entryId: string): Promise<{ sid: string; s: any }> {
  const r = await t.request('POST', `/title/${entryId}/submit`, { body: { method: 'MAIL' } });
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  expect(r.body.status).to.equal('PENDING');
  const sid = r.body.submissionId as string;
  const s = await t.request('GET', `/title/${entryId}/submit/${sid}`);
  expect(s.status).to.equal(200);
  return { sid, s: s.body };
}

for (const dialect of DIALECTS) {
  describe(`submission: MAIL with the sandbox carrier (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    let hooks: Receiver;
    const simulate = (entryId: string, sid: string, event: string) =>
      t.request('POST', `/title/${entryId}/submit/${sid}/shipment/simulate`, { body: { event } });
    const hookEvents = (entryId: string) =>
      hooks.ok
        .filter((r) => r.body?.entryId === entryId)
        .flatMap((r) => r.body.webhook_events as string[])
        .map((n) => n.replace('title.account_status.', ''));

    before(async () => {
      t = await startCarrierEngine(dialect, { webhook: true, titleCollection: { webhookSecret: SECRET } });
      hooks = await accountStatusHooks(t);
    });
    after(async () => {
      await t?.stop();
      await hooks?.close();
    });

    it('buys a label to the county office, names its tracking number in the packet; delivery -> SUBMITTED + webhook', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      const tracking = sandboxTrackingNumber(sid);
      expect(s.shipment).to.include({
        provider: 'sandbox',
        mode: 'STUB',
        carrier: 'Titled Sandbox Post',
        service: 'priority',
        trackingNumber: tracking,
        status: 'pre_transit',
      });
      expect(s.shipment.events).to.deep.equal([]);
      expect(s.shipment.to).to.equal('Travis County Tax Office, PO Box 149328, Austin, TX 78714-9328');
      expect(s.shipment.labelUrl).to.match(/^http:\/\/.*\/files\/.*outbound-label\.pdf\?expires=\d+&signature=/);

      const label = await download(s.shipment.labelUrl);
      expect(label.subarray(0, 5).toString()).to.equal('%PDF-');
      const labelText = await textOfPdf(label);
      expect(labelText).to.include('Travis County Tax Office').and.include('PO Box 149328');
      expect(labelText).to.include('Titled Mail Room').and.include('200 Filing Ln');
      expect(await code128OfPdf(label)).to.include(tracking);
      const packet = pdfText(await download(s.packet))!;
      expect(packet, 'pdftotext').to.be.a('string');
      expect(packet).to.include(`tracking number ${tracking}`).and.include(`tracking ${tracking}`);

      const moving = await simulate(e.entryId, sid, 'in_transit');
      expect(moving.status, JSON.stringify(moving.body)).to.equal(200);
      expect(moving.body.applied).to.equal(true);
      expect(moving.body.submission).to.include({ status: 'PENDING' });
      expect(moving.body.submission.shipment.status).to.equal('in_transit');
      expect(await accountEvents(t, e.entryId)).to.deep.equal([]);

      const delivered = await simulate(e.entryId, sid, 'delivered');
      expect(delivered.body.submission.status).to.equal('SUBMITTED');
      expect(delivered.body.submission.history.at(-1)).to.include({
        from: 'PENDING',
        to: 'SUBMITTED',
        by: 'carrier:sandbox',
      });
      expect(delivered.body.submission.history.at(-1).note).to.include('Travis County Tax Office');
      const got = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(got.shipment.status).to.equal('delivered');
      expect(got.shipment.events.map((x: any) => [x.status, x.source])).to.deep.equal([
        ['in_transit', 'simulate'],
        ['delivered', 'simulate'],
      ]);
      expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route']);
      await eventually(async () => hookEvents(e.entryId).length > 0, { what: 'webhook', tries: 2000 });
      expect(hookEvents(e.entryId)).to.deep.equal(['filing_en_route']);

      // a late scan does not undo the delivery; the operator records the state's answer as before
      await simulate(e.entryId, sid, 'in_transit');
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body.shipment.status).to.equal('delivered');
      const op = await t.request('POST', `/submissions/${sid}/record`, {
        body: { status: 'UNDER_REVIEW', applicationNumber: 'TX-1' },
        key: t.opKey,
      });
      expect(op.body.status).to.equal('UNDER_REVIEW');
      expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route', 'filing_received']);
    });

    it('the signed carrier webhook of title-collection forwards the delivery (once); unknown numbers are 404', async () => {
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      const post = (event: Record<string, unknown>) => {
        const raw = JSON.stringify(event);
        return t.request('POST', '/title-collection/carrier-events', {
          rawBody: raw,
          key: null,
          headers: { 'x-carrier-signature': signCarrierBody(SECRET, raw) },
        });
      };
      const event = {
        id: 'evt-deliv-1',
        tracking_code: sandboxTrackingNumber(sid),
        status: 'delivered',
        occurred_at: '2026-11-20T15:00:00Z',
        location: 'Austin, TX',
      };
      const first = await post(event);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.deep.equal({ applied: true });
      expect((await post(event)).body).to.deep.equal({ applied: false });
      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(s.status).to.equal('SUBMITTED');
      expect(s.shipment.events).to.deep.equal([
        {
          id: 'evt-deliv-1',
          status: 'delivered',
          source: 'webhook',
          occurredAt: '2026-11-20T15:00:00.000Z',
          location: 'Austin, TX',
        },
      ]);
      expect(s.history.at(-1).by).to.equal('carrier:sandbox');
      expect((await post({ ...event, id: 'x', tracking_code: 'TS00000000000000000000' })).status).to.equal(404);
    });

    it('a state filing with the state office: the label goes to the CA DMV; a canceled submission is not moved', async () => {
      const e = await readyEntry(t, 'CA');
      const { sid, s } = await submitMail(t, e.entryId);
      expect(s.shipment.to).to.include('Department of Motor Vehicles').and.include('Sacramento, CA 94269');
      const text = await textOfPdf(await download(s.shipment.labelUrl));
      expect(text).to.include('PO Box 942869').and.not.include('Travis County');
      await t.request('POST', `/title/${e.entryId}/submit/${sid}/cancel`, { body: {} });
      const d = await simulate(e.entryId, sid, 'delivered');
      expect(d.body.applied).to.equal(true);
      expect(d.body.submission.status).to.equal('CANCELED');
      expect(await accountEvents(t, e.entryId)).to.deep.equal([]);
      expect((await simulate(e.entryId, sid, 'lost')).status).to.equal(400);
      const other = await t.newOrg();
      const foreign = await t.request('POST', `/title/${e.entryId}/submit/${sid}/shipment/simulate`, {
        body: { event: 'delivered' },
        key: other.key,
      });
      expect(foreign.status).to.equal(404);
    });

    it('a managed submission buys its label when marked ready, once', async () => {
      const e = await readyEntry(t, 'TX');
      const sid = (await t.request('POST', `/title/${e.entryId}/submit`, { body: { intakeMode: 'MANAGED' } })).body
        .submissionId as string;
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body).not.to.have.property('shipment');
      const ready = await t.request('POST', `/submissions/${sid}/ready`, { body: { method: 'MAIL' }, key: t.opKey });
      expect(ready.status, JSON.stringify(ready.body)).to.equal(200);
      expect(ready.body.shipment.trackingNumber).to.equal(sandboxTrackingNumber(sid));
    });
  });

  describe(`submission: MAIL with the http carrier (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    let carrier: FakeCarrier;

    before(async () => {
      carrier = await new FakeCarrier().listen();
      t = await startSubmissionEngine({
        dialect,
        titleCollection: { provider: 'http', http: { endpoint: carrier.url, apiKey: 'k_live_2' }, pollIntervalMs: 0 },
        submission: { mailCarrier: { service: 'first_class', pollIntervalMs: 0 } },
      });
    });
    after(async () => {
      await t?.stop();
      await carrier?.close();
    });

    it('buys the label at the carrier from the lienholder to the office; the poll applies delivery once', async () => {
      const e = await readyEntry(t, 'TX');
      const before = carrier.shipments.length;
      const { sid, s } = await submitMail(t, e.entryId);
      expect(carrier.shipments.length - before).to.equal(1);
      const sent = carrier.shipments.at(-1)!;
      expect(carrier.idempotencyKeys.at(-1)).to.equal(sid);
      expect(carrier.authorization.at(-1)).to.equal('Bearer k_live_2');
      expect(sent).to.include({ service: 'first_class', reference: sid });
      expect(sent.to_address).to.include({
        name: 'Travis County Tax Office',
        street1: 'PO Box 149328',
        city: 'Austin',
        state: 'TX',
        zip: '78714-9328',
      });
      expect(sent.from_address).to.include({ name: 'Acme Auto Finance LLC', city: 'Dallas', zip: '75201' });
      expect(s.shipment).to.include({ provider: 'http', mode: 'LIVE', carrier: 'FakePost', status: 'pre_transit' });
      const code = s.shipment.trackingNumber as string;
      expect(code).to.match(/^LIVE\d{8}$/);
      expect(s.shipment.trackingUrl).to.equal(`${carrier.url}/track/${code}`);
      expect(pdfText(await download(s.packet))).to.include(`tracking number ${code}`);
      const sim = await t.request('POST', `/title/${e.entryId}/submit/${sid}/shipment/simulate`, {
        body: { event: 'delivered' },
      });
      expect(sim.status).to.equal(409);

      carrier.events.set(code, [
        { id: 'a1', status: 'in_transit', occurred_at: '2026-11-20T10:00:00Z' },
        { id: 'a2', status: 'delivered', occurred_at: '2026-11-21T10:00:00Z', description: 'Delivered, PO Box' },
      ]);
      const round = await t.plugin.pollShipments();
      expect(round.applied).to.be.at.least(2);
      const after = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(after.status).to.equal('SUBMITTED');
      expect(after.shipment.status).to.equal('delivered');
      expect(after.shipment.events.map((x: any) => x.id)).to.deep.equal(['a1', 'a2']);
      expect(after.history.at(-1)).to.include({ from: 'PENDING', to: 'SUBMITTED', by: 'carrier:http' });
      expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route']);
      // the shipment is done: the next rounds do not ask the carrier for it again
      const asked = carrier.authorization.length;
      await t.plugin.pollShipments();
      expect(carrier.authorization.length).to.equal(asked);
    });

    it('two pollers at once (two daemons): each due shipment is asked for once (the lease)', async () => {
      const e = await readyEntry(t, 'TX');
      const { s } = await submitMail(t, e.entryId);
      const code = s.shipment.trackingNumber as string;
      const asked = () => carrier.requests.filter((r) => r === `GET /trackers/${code}`).length;
      const [a, b] = await Promise.all([
        t.plugin.shipping!.pollOnce('daemon-a'),
        t.plugin.shipping!.pollOnce('daemon-b'),
      ]);
      expect(a.polled + b.polled).to.equal(1);
      expect(asked()).to.equal(1);
      await t.plugin.shipping!.pollOnce('daemon-a');
      expect(asked(), 'not due again before pollIntervalMs').to.equal(1);
    });

    it('a carrier failure answers 502 and creates no submission (last: the carrier is stopped)', async () => {
      const e = await readyEntry(t, 'TX');
      await carrier.close();
      const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(502);
      expect((await t.request('GET', `/title/${e.entryId}`)).body).not.to.have.property('submission_id');
    });
  });
}

describe('submission: MAIL without a carrier, and mailCarrier validation (sqlite)', function () {
  this.timeout(120_000);

  it('no mailCarrier: no label, no shipment, no tracking line; simulate is 501', async () => {
    const t = await startSubmissionEngine({ titleCollection: { pollIntervalMs: 0 } });
    try {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      expect(s).not.to.have.property('shipment');
      const text = pdfText(await download(s.packet))!;
      expect(text).to.include('Travis County Tax Office').and.not.include('tracking');
      const sim = await t.request('POST', `/title/${e.entryId}/submit/${sid}/shipment/simulate`, {
        body: { event: 'delivered' },
      });
      expect(sim.status).to.equal(501);
      expect((await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body.status).to.equal('PENDING');
    } finally {
      await t.stop();
    }
  });

  it('mailCarrier is validated by the options schema, and needs the title-collection plugin', async () => {
    /** The error starting an engine fails with (an engine that starts is stopped). */
    const failure = (o: Parameters<typeof startSubmissionEngine>[0]) =>
      startSubmissionEngine(o).then(
        async (x) => {
          await x.stop();
          return undefined;
        },
        (e: Error) => e,
      );
    expect((await failure({ submission: { mailCarrier: { servcie: 'x' } } }))?.message).to.match(
      /plugins\.submission\.mailCarrier: Unrecognized key: "servcie"/,
    );
    const t = await startSubmissionEngine({ submission: { mailCarrier: { pollIntervalMs: 0 } } });
    try {
      const e = await readyEntry(t, 'TX');
      const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
      expect(r.status).to.equal(409);
      expect(r.body.error).to.include('title-collection');
    } finally {
      await t.stop();
    }
    expect((await failure({ submission: { mailCarrier: {} } }))?.message).to.include(
      'needs the title-collection plugin',
    );
  });
});

describe('submission: titled submissions simulate / poll-shipments (CLI, sqlite)', function () {
  this.timeout(180_000);

  it('the CLI plays delivered on the sandbox label: SUBMITTED, seen through the HTTP API', async () => {
    const { t, submissions } = await startCarrierCliEngine();
    try {
      const run = submissions;
      const e = await readyEntry(t, 'TX');
      const { sid } = await submitMail(t, e.entryId);
      const polled = JSON.parse((await run(['poll-shipments'])).stdout.trim().split('\n').at(-1)!);
      expect(polled).to.deep.equal({ polled: 1, applied: 1 }); // the sandbox's label-created event
      const out = JSON.parse((await run(['simulate', sid, 'delivered'])).stdout.trim().split('\n').at(-1)!);
      expect(out.applied).to.equal(true);
      expect(out.submission).to.include({ submissionId: sid, status: 'SUBMITTED' });
      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      expect(s.status).to.equal('SUBMITTED');
      expect(s.shipment.events.map((x: any) => x.status)).to.deep.equal(['pre_transit', 'delivered']);
      expect(await accountEvents(t, e.entryId)).to.deep.equal(['filing_en_route']);
      const bad = await run(['simulate', sid, 'teleported']).then(
        () => ({ code: 0, stderr: '' }),
        (x: { code: number; stderr: string }) => x,
      );
      expect(bad.code).to.not.equal(0);
      expect(bad.stderr).to.include('event must be one of');
    } finally {
      await t.stop();
    }
  });
});

describe('submission: the MAIL tracking poll runs in the daemon (sqlite)', function () {
  this.timeout(120_000);

  it('with mailCarrier.pollIntervalMs, a delivery the carrier reports moves the submission without a call', async () => {
    const carrier = await new FakeCarrier().listen();
    const t = await startSubmissionEngine({
      titleCollection: { provider: 'http', http: { endpoint: carrier.url }, pollIntervalMs: 0 },
      submission: { mailCarrier: { pollIntervalMs: 50 } },
    });
    try {
      const e = await readyEntry(t, 'TX');
      const { sid, s } = await submitMail(t, e.entryId);
      carrier.events.set(s.shipment.trackingNumber, [
        { id: 'd1', status: 'delivered', occurred_at: '2026-11-21T10:00:00Z' },
      ]);
      const after = await eventually(
        async () => {
          const x = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
          return x.status === 'SUBMITTED' ? x : null;
        },
        { what: 'SUBMITTED by the poll', tries: 400, everyMs: 50 },
      );
      expect(after.shipment.events[0]).to.include({ id: 'd1', source: 'poll' });
    } finally {
      await t.stop();
      await carrier.close();
    }
  });
});
