import { expect } from 'chai';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { receiver, settled, startWebhookEngine, type Receiver, type WebhookTestEngine } from './support.js';

for (const dialect of DIALECTS) {
  describe(`webhook delivery claims and leases (${dialect})`, function () {
    let a: WebhookTestEngine;
    let b: WebhookTestEngine;
    let r: Receiver;
    let n = 0;
    const vin = () => vinFor(6000 + n++ + (dialect === 'postgres' ? 500 : 0));
    const idle = { workers: { enabled: false } };

    beforeEach(async () => {
      r = await receiver(() => ({ status: 200, delayMs: 2 }));
      // workers off: nothing is sent until a test starts the webhook plugins itself
      // four in flight per engine, so neither can take every delivery in one claim
      a = await startWebhookEngine({ dialect, listen: false, config: idle, webhook: { concurrency: 4 } });
      b = await startWebhookEngine({
        dialect,
        listen: false,
        config: idle,
        webhook: { concurrency: 4 },
        dataDir: a.dataDir,
        schema: a.engine.config.databaseSchema,
      });
      await a.wh.setProfile(a.org.name, {
        url: `${r.url}/hook`,
        events: ['title.account_status.*'],
        auth: { scheme: 'none' },
      });
    });
    afterEach(async () => {
      await b?.stop();
      await a?.stop();
      await r?.close();
    });

    it("two engines on one database send every delivery exactly once, each entry's in event order", async () => {
      const moves = ['poa_sent', 'poa_signed', 'filing_en_route'];
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const { entryId } = await a.engine.service.create(a.p, { account_data: { vehicle: { vin: vin() } } });
        for (const s of moves) await a.engine.service.setAccountStatus(a.p, entryId, s);
        ids.push(entryId);
      }
      await Promise.all([a.wh.start(), b.wh.start()]);
      await settled(a.wh);
      expect(r.requests).to.have.length(90);
      const webhookIds = r.requests.map((x) => String(x.headers['webhook-id']));
      expect(new Set(webhookIds).size, 'no delivery sent twice').to.equal(90);
      for (const id of ids)
        expect(r.forEntry(id).map((x) => x.body.webhook_events[0])).to.deep.equal(
          moves.map((s) => `title.account_status.${s}`),
        );
      const all = await a.wh.deliveries(a.org.name, { limit: 1000, withAttempts: true });
      expect(all.every((d) => d.status === 'delivered' && d.attempts === 1)).to.equal(true);
      const workers = new Set(all.map((d) => d.attemptLog![0]!.worker));
      expect(workers, 'both engines sent some').to.deep.equal(new Set([a.wh.owner, b.wh.owner]));
    });

    it('a delivery whose lease expired is claimed again; one whose lease is live is left to its worker', async () => {
      const make = async () => {
        const { entryId } = await a.engine.service.create(a.p, { account_data: { vehicle: { vin: vin() } } });
        await a.engine.service.setAccountStatus(a.p, entryId, 'poa_sent');
        await a.wh.dispatchNow();
        return (await a.wh.deliveries(a.org.name, { entryId }))[0]!;
      };
      const expired = await make();
      const live = await make();
      const now = Date.now();
      // a worker that died with the first, and one still working on the second
      await a.engine.db.exec(
        'UPDATE webhook_deliveries SET status = ?, "leaseOwner" = ?, "leaseExpiresAt" = ? WHERE id = ?',
        ['delivering', 'dead-worker', now - 1, expired.id],
      );
      await a.engine.db.exec(
        'UPDATE webhook_deliveries SET status = ?, "leaseOwner" = ?, "leaseExpiresAt" = ? WHERE id = ?',
        ['delivering', 'busy-worker', now + 3_600_000, live.id],
      );
      expect(await b.wh.sendNow(live.id), 'a live lease is not taken').to.equal(null);

      // twelve claims of one due delivery from two engines at once: one wins
      const third = await make();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).wh.sendNow(third.id)));
      expect(results.filter((x) => x !== null)).to.have.length(1);
      expect(results.find((x) => x !== null)!.outcome).to.equal('delivered');

      await Promise.all([a.wh.start(), b.wh.start()]);
      await eventually(async () => (await a.wh.delivery(expired.id))?.status === 'delivered', {
        what: 'expired lease re-claimed and delivered',
        tries: 4000,
      });
      const fourth = await make();
      await eventually(async () => (await a.wh.delivery(fourth.id))?.status === 'delivered', {
        what: 'a later delivery went out',
      });
      const stillLive = await a.wh.delivery(live.id);
      expect(stillLive).to.deep.include({ status: 'delivering', attempts: 0 });
      const sent = r.requests.map((x) => x.headers['webhook-id']);
      expect(sent).to.have.members([third.id, expired.id, fourth.id]);
      expect(sent).to.not.include(live.id);
    });
  });
}
