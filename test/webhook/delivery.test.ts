import { expect } from 'chai';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { PULLS, fakeNmvtis } from './fixtures/stages.js';
import {
  jobEnded,
  receiver,
  settled,
  signatureValid,
  startWebhookEngine,
  type Receiver,
  type WebhookTestEngine,
} from './support.js';

const AS = 'title.account_status.*';

for (const dialect of DIALECTS) {
  describe(`webhook delivery (${dialect})`, function () {
    let t: WebhookTestEngine;
    let n = 0;
    const vin = () => vinFor(4000 + n++ + (dialect === 'postgres' ? 500 : 0));

    before(async () => {
      t = await startWebhookEngine({ dialect, stages: { 'fake-nmvtis': fakeNmvtis }, webhook: { timeoutMs: 400 } });
    });
    after(async () => {
      await t?.stop();
    });

    /** A fresh receiver with a profile of the test org subscribed to account_status changes. */
    const endpoint = async (
      auth: Parameters<WebhookTestEngine['wh']['setProfile']>[1]['auth'] = { scheme: 'none' },
      events = [AS],
    ) => {
      const r = await receiver();
      const { profile } = await t.wh.setProfile(t.org.name, { url: `${r.url}/hook`, events, auth });
      return { r, profile };
    };
    const drop = async (r: Receiver) => {
      await t.wh.removeProfiles(t.org.name, { url: `${r.url}/hook` });
      await r.close();
    };
    /** A complete entry (its complete event is not subscribed by `endpoint`). */
    const entry = async (body: Record<string, unknown> = {}) => {
      const { entryId } = await t.engine.service.create(t.p, { account_data: { vehicle: { vin: vin() } }, ...body });
      await jobEnded(t, entryId);
      return entryId;
    };

    it('sends Basic, Bearer and x-partner-key headers as configured, and none for auth none', async () => {
      const cases = [
        {
          auth: { scheme: 'basic' as const, username: 'lender', password: 'p@ss:word' },
          want: { authorization: `Basic ${Buffer.from('lender:p@ss:word').toString('base64')}` },
          absent: ['x-partner-key'],
        },
        {
          auth: { scheme: 'bearer' as const, token: 'tok-123' },
          want: { authorization: 'Bearer tok-123' },
          absent: ['x-partner-key'],
        },
        {
          auth: { scheme: 'bearer' as const, partnerKey: 'pk-9' },
          want: { 'x-partner-key': 'pk-9' },
          absent: ['authorization'],
        },
        {
          auth: { scheme: 'bearer' as const, token: 't2', partnerKey: 'pk-2' },
          want: { authorization: 'Bearer t2', 'x-partner-key': 'pk-2' },
          absent: [],
        },
        { auth: { scheme: 'none' as const }, want: {}, absent: ['authorization', 'x-partner-key'] },
      ];
      const eps = [];
      for (const c of cases) eps.push({ ...c, ...(await endpoint(c.auth)) });
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        for (const e of eps) {
          expect(e.r.requests, e.auth.scheme).to.have.length(1);
          const h = e.r.requests[0]!.headers;
          expect(h).to.include(e.want);
          for (const k of e.absent) expect(h, `${k} absent`).to.not.have.property(k);
          expect(h['content-type']).to.equal('application/json');
        }
      } finally {
        for (const e of eps) await drop(e.r);
      }
    });

    it('signs every delivery (Standard Webhooks) and the body is the entry as GET /title/{id} shows it, plus webhook_events', async () => {
      const { r, profile } = await endpoint({ scheme: 'none' }, ['title.job_status.complete', AS]);
      try {
        const v = vin();
        PULLS.set(v, ['found']);
        const { entryId } = await t.engine.service.create(t.p, {
          account_data: { vehicle: { vin: v } },
          sync_nmvtis: true,
        });
        await jobEnded(t, entryId);
        expect(r.requests).to.have.length(1);
        const got = r.requests[0]!;
        expect(profile.signingSecret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
        expect(signatureValid(profile.signingSecret, got.headers, got.raw), 'signature verifies').to.equal(true);
        expect(
          signatureValid(profile.signingSecret, got.headers, got.raw.replace('complete', 'c0mplete')),
          'a changed body does not',
        ).to.equal(false);
        const deliveries = await t.wh.deliveries(t.org.name, { entryId });
        expect(got.headers['webhook-id']).to.equal(deliveries[0]!.id);
        expect(got.body.webhook_events).to.deep.equal(['title.job_status.complete']);
        // the entry as GET returns it (presigned URLs differ only in their expiry and signature)
        const viaGet = await t.request('GET', `/title/${entryId}`);
        const strip = (o: unknown) =>
          JSON.parse(JSON.stringify(o).replace(/\?expires=\d+&signature=[0-9a-f]+/g, '?presigned'));
        const { webhook_events: _w, ...body } = got.body;
        expect(strip(body)).to.deep.equal(strip(viaGet.body));
        // object paths arrive as presigned URLs valid 1 hour from the delivery, and they work
        const pull = new URL(got.body.nmvtis_pull as string);
        expect(Number(pull.searchParams.get('expires')) - Number(got.headers['webhook-timestamp'])).to.be.within(
          3599,
          3601,
        );
        const file = await fetch(pull);
        expect(file.status).to.equal(200);
        expect(await file.json()).to.deep.equal({ vehicle: { vin: v } });
      } finally {
        await drop(r);
      }
    });

    it('a receiver answering 500 twice then 200 gets exactly 3 attempts, each recorded', async () => {
      const { r } = await endpoint();
      r.behaviour = ({ n: i }) => ({ status: i < 2 ? 500 : 200 });
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        expect(r.requests.map((x) => x.status)).to.deep.equal([500, 500, 200]);
        expect(
          new Set(r.requests.map((x) => x.headers['webhook-id'])).size,
          'one webhook-id for every attempt',
        ).to.equal(1);
        const [d] = await t.wh.deliveries(t.org.name, { entryId: id, withAttempts: true });
        expect(d).to.deep.include({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
        const log = d!.attemptLog!;
        expect(log.map((a) => [a.attempt, a.statusCode, a.outcome])).to.deep.equal([
          [1, 500, 'retry'],
          [2, 500, 'retry'],
          [3, 200, 'delivered'],
        ]);
        expect(log[0]!.error).to.match(/^HTTP 500/);
        expect(log[0]!.nextAttemptAt).to.be.a('number');
        expect(log[1]!.nextAttemptAt! - log[0]!.nextAttemptAt!, 'backoff doubles').to.be.greaterThan(0);
        expect(log[2]!.nextAttemptAt).to.equal(null);
        for (const a of log) expect(a.latencyMs).to.be.a('number');
      } finally {
        await drop(r);
      }
    });

    it('a receiver answering 404 gets exactly 1 attempt: logged, not retried', async () => {
      const { r } = await endpoint();
      r.behaviour = () => ({ status: 404 });
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        expect(r.requests.map((x) => x.status)).to.deep.equal([404]);
        const [d] = await t.wh.deliveries(t.org.name, { entryId: id, withAttempts: true });
        expect(d).to.deep.include({ status: 'failed', attempts: 1, lastStatusCode: 404 });
        expect(d!.attemptLog!.map((a) => a.outcome)).to.deep.equal(['failed']);
        expect(t.logs.some((l) => l.includes('"code":"WEBHOOK_REJECTED"') && l.includes(d!.id))).to.equal(true);
      } finally {
        await drop(r);
      }
    });

    it('5xx every time: 1 attempt + 3 retries, then the delivery is failed', async () => {
      const { r } = await endpoint();
      r.behaviour = () => ({ status: 503 });
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        expect(r.requests.map((x) => x.status)).to.deep.equal([503, 503, 503, 503]);
        const [d] = await t.wh.deliveries(t.org.name, { entryId: id, withAttempts: true });
        expect(d).to.deep.include({ status: 'failed', attempts: 4, lastStatusCode: 503 });
        expect(d!.attemptLog!.map((a) => a.outcome)).to.deep.equal(['retry', 'retry', 'retry', 'failed']);
      } finally {
        await drop(r);
      }
    });

    it('a receiver that hangs is cut at the timeout and retried', async () => {
      const { r } = await endpoint();
      r.behaviour = ({ n: i }) => (i === 0 ? 'hang' : { status: 200 });
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        expect(r.requests.map((x) => x.status)).to.deep.equal([0, 200]);
        const [d] = await t.wh.deliveries(t.org.name, { entryId: id, withAttempts: true });
        expect(d).to.deep.include({ status: 'delivered', attempts: 2 });
        expect(d!.attemptLog![0]).to.deep.include({
          statusCode: null,
          outcome: 'retry',
          error: 'no answer within 400 ms',
        });
      } finally {
        await drop(r);
      }
    });

    it('a refused connection is retried, and delivered once the receiver is up', async () => {
      const r = await receiver();
      const port = r.port;
      await r.close();
      // retries 1, 2, 4 s apart: plenty of time to start listening
      const slow = await startWebhookEngine({ dialect, webhook: { retryBaseMs: 1000 } });
      try {
        await slow.wh.setProfile(slow.org.name, {
          url: `http://127.0.0.1:${port}/hook`,
          events: [AS],
          auth: { scheme: 'none' },
        });
        const { entryId } = await slow.engine.service.create(slow.p, { account_data: { vehicle: { vin: vin() } } });
        await slow.engine.service.setAccountStatus(slow.p, entryId, 'poa_sent');
        const firstError = await eventually(
          async () =>
            (await slow.wh.deliveries(slow.org.name, { entryId, withAttempts: true }))[0]?.attemptLog?.[0]?.error,
          { what: 'first attempt refused' },
        );
        expect(firstError).to.match(/ECONNREFUSED/);
        await r.listen(port);
        await settled(slow.wh);
        expect(r.requests.map((x) => x.body.webhook_events)).to.deep.equal([['title.account_status.poa_sent']]);
        const [d] = await slow.wh.deliveries(slow.org.name, { entryId });
        expect(d!.status).to.equal('delivered');
        expect(d!.attempts).to.be.greaterThan(1);
      } finally {
        await slow.stop();
        await r.close();
      }
    });

    it("one entry's deliveries arrive in event order, even when an earlier one is retried", async () => {
      const { r } = await endpoint();
      r.behaviour = ({ n: i }) => ({ status: i < 2 ? 500 : 200, delayMs: 5 });
      try {
        const id = await entry();
        const moves = ['poa_sent', 'poa_signed', 'filing_en_route', 'filing_received', 'lien_filed', 'lien_perfected'];
        for (const s of moves) await t.engine.service.setAccountStatus(t.p, id, s);
        await settled(t.wh);
        const delivered = r.ok.map((x) => x.body.webhook_events[0]);
        expect(delivered).to.deep.equal(moves.map((s) => `title.account_status.${s}`));
        // the first was retried twice before any later one went out
        expect(r.requests.slice(0, 3).map((x) => x.body.webhook_events[0])).to.deep.equal(
          Array(3).fill('title.account_status.poa_sent'),
        );
      } finally {
        await drop(r);
      }
    });

    it('replay sends a finished delivery again with a new webhook-id; removing a profile cancels what it had not sent', async () => {
      const { r } = await endpoint();
      try {
        const id = await entry();
        await t.engine.service.setAccountStatus(t.p, id, 'poa_sent');
        await settled(t.wh);
        const [d] = await t.wh.deliveries(t.org.name, { entryId: id });
        const replay = await t.wh.replay(d!.id);
        expect(replay).to.deep.include({ replayOf: d!.id, events: d!.events, entryId: id });
        await settled(t.wh);
        expect(r.requests.map((x) => x.headers['webhook-id'])).to.deep.equal([d!.id, replay.id]);
        expect(r.requests[1]!.body.webhook_events).to.deep.equal(['title.account_status.poa_sent']);
        const err = await t.wh.replay('no-such-delivery').catch((e: unknown) => e as Error);
        expect((err as Error).message).to.match(/no webhook delivery/);

        r.behaviour = () => 'hang';
        await t.engine.service.setAccountStatus(t.p, id, 'poa_signed');
        await t.engine.service.setAccountStatus(t.p, id, 'filing_en_route');
        await eventually(async () => r.requests.length === 3, { what: 'third request hanging' });
        await t.wh.removeProfiles(t.org.name, { url: `${r.url}/hook` });
        await settled(t.wh);
        const after = await t.wh.deliveries(t.org.name, { entryId: id });
        expect(after.map((x) => x.status).sort()).to.deep.equal(['canceled', 'canceled', 'delivered', 'delivered']);
        expect(after.filter((x) => x.status === 'canceled').map((x) => x.lastError)).to.deep.equal([
          'profile removed',
          'profile removed',
        ]);
      } finally {
        await r.close();
      }
    });

    it("a tenant never receives another tenant's entry", async () => {
      const r = await receiver();
      const other = await t.newOrg();
      const po = await t.engine.principalFor(other.name);
      try {
        // both organizations point at one URL, each with its own token
        await t.wh.setProfile(t.org.name, {
          url: `${r.url}/shared`,
          events: ['title.job_status.complete', AS],
          auth: { scheme: 'bearer', token: 'tok-A' },
        });
        await t.wh.setProfile(other.name, {
          url: `${r.url}/shared`,
          events: ['title.job_status.complete', AS],
          auth: { scheme: 'bearer', token: 'tok-B' },
        });
        const v = vin();
        // the same VIN in both organizations: two separate entries
        const a = (await t.engine.service.create(t.p, { account_data: { vehicle: { vin: v } } })).entryId;
        const b = (await t.engine.service.create(po, { account_data: { vehicle: { vin: v } } })).entryId;
        await jobEnded(t, a);
        await eventually(async () => (await t.engine.service.get(po, b)).job_status === 'complete', {
          what: 'b complete',
        });
        await t.engine.service.setAccountStatus(t.p, a, 'poa_sent');
        await t.engine.service.setAccountStatus(po, b, 'lien_delay');
        await settled(t.wh);
        expect(r.requests).to.have.length(4);
        for (const x of r.requests) {
          const mine = x.headers.authorization === 'Bearer tok-A';
          expect(x.body.website).to.equal(mine ? t.org.name : other.name);
          expect(x.body.entryId).to.equal(mine ? a : b);
        }
        expect(
          r.requests.filter((x) => x.headers.authorization === 'Bearer tok-B').map((x) => x.body.webhook_events),
        ).to.deep.equal([['title.job_status.complete'], ['title.account_status.lien_delay']]);
        expect((await t.wh.deliveries(other.name)).every((d) => d.entryId === b)).to.equal(true);
        expect((await t.wh.deliveries(t.org.name)).some((d) => d.entryId === b)).to.equal(false);
      } finally {
        await t.wh.removeProfiles(t.org.name, { url: `${r.url}/shared` });
        await t.wh.removeProfiles(other.name, { url: `${r.url}/shared` });
        await r.close();
      }
    });
  });
}
