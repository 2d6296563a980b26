import { expect } from 'chai';
import type Router from '@koa/router';
import type { EnginePlugin, RouteHelpers } from '../../core/index.js';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, expectError, makeVin } from '../http/support.js';

/** A plugin route that waits until the test lets it go, and counts its runs. */
class SlowRoute implements EnginePlugin {
  readonly name = 'slow';
  static runs = 0;
  static gate: { promise: Promise<void>; open: () => void } = SlowRoute.newGate();
  static newGate() {
    let open!: () => void;
    const promise = new Promise<void>((r) => {
      open = r;
    });
    return { promise, open };
  }
  routes(router: Router, h: RouteHelpers): void {
    router.post('/slow', async (ctx) => {
      await h.authenticate(ctx);
      const body = await h.readJson(ctx);
      SlowRoute.runs++;
      await SlowRoute.gate.promise;
      ctx.status = 201;
      ctx.set('Location', '/slow/1');
      ctx.body = { run: SlowRoute.runs, echo: body };
    });
  }
}

const entryCount = async (t: TestEngine) =>
  Number((await t.engine.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM entries'))[0]!.n);

for (const dialect of DIALECTS) {
  describe(`security: Idempotency-Key (${dialect})`, function () {
    let t: TestEngine;
    before(async () => {
      t = await startTestEngine({
        dialect,
        config: { stages: ['intake', 'slow'], workers: { enabled: false }, idempotency: { ttlSeconds: 2 } },
        options: { stages: { slow: SlowRoute as never } },
      });
    });
    after(async () => t?.stop());

    it('POST /title: the same key and body replay the first answer; one entry is made', async () => {
      const body = { account_data: accountData(makeVin()) };
      const headers = { 'idempotency-key': 'create-1' };
      const before = await entryCount(t);
      const first = await t.request('POST', '/title', { body, headers });
      expect(first.status).to.equal(200);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const again = await t.request('POST', '/title', { body, headers });
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.headers.get('content-type')).to.match(/application\/json/);
      expect(await entryCount(t)).to.equal(before + 1);
    });

    it('the same key with a different body (or path) is 409 with the error body', async () => {
      const headers = { 'idempotency-key': 'create-2' };
      expect(
        (await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) }, headers })).status,
      ).to.equal(200);
      const other = await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) }, headers });
      expectError(other, 409, { match: /different request/ });
      const id = (await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) } })).body.entryId;
      expectError(await t.request('POST', `/title/${id}/fees`, { headers }), 409, { match: /different request/ });
    });

    it("keys are per organization: another organization's same key runs on its own", async () => {
      const other = await t.newOrg();
      const body = { account_data: accountData(makeVin()) };
      const headers = { 'idempotency-key': 'shared-key' };
      const a = await t.request('POST', '/title', { body, headers });
      const b = await t.request('POST', '/title', { body, headers, key: other.key });
      expect(a.status).to.equal(200);
      expect(b.status).to.equal(200);
      expect(b.body.entryId).not.to.equal(a.body.entryId);
    });

    it('an error answer releases the key: the retry runs again', async () => {
      const headers = { 'idempotency-key': 'bad-then-good' };
      const bad = await t.request('POST', '/title', { rawBody: '{"account_data":', headers });
      expect(bad.status).to.equal(400);
      const body = { account_data: accountData(makeVin()) };
      const good = await t.request('POST', '/title', { body, headers });
      expect(good.status).to.equal(200);
    });

    it('a plugin POST route: a concurrent second request gets 409 IN_PROGRESS, then the replay', async () => {
      SlowRoute.runs = 0;
      SlowRoute.gate = SlowRoute.newGate();
      const headers = { 'idempotency-key': 'slow-1' };
      const first = t.request('POST', '/slow', { body: { n: 1 }, headers });
      while (SlowRoute.runs === 0) await new Promise((r) => setTimeout(r, 10));
      const second = await t.request('POST', '/slow', { body: { n: 1 }, headers });
      expectError(second, 409, { match: /still running/ });
      expect(second.headers.get('retry-after')).to.equal('1');
      SlowRoute.gate.open();
      const done = await first;
      expect(done.status).to.equal(201);
      const replay = await t.request('POST', '/slow', { body: { n: 1 }, headers });
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('location')).to.equal('/slow/1');
      expect(replay.body).to.deep.equal({ run: 1, echo: { n: 1 } });
      expect(SlowRoute.runs).to.equal(1);
    });

    it('a malformed key is 400; a key without credentials is 403', async () => {
      expectError(
        await t.request('POST', '/title', { body: {}, headers: { 'idempotency-key': 'x'.repeat(256) } }),
        400,
      );
      expectError(await t.request('POST', '/title', { body: {}, headers: { 'idempotency-key': 'k' }, key: null }), 403);
    });

    it('keys expire after idempotency.ttlSeconds and are pruned', async () => {
      const headers = { 'idempotency-key': 'short-lived' };
      expect(
        (await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) }, headers })).status,
      ).to.equal(200);
      await new Promise((r) => setTimeout(r, 2100));
      // expired: a different body with the same key runs (no 409)
      expect(
        (await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) }, headers })).status,
      ).to.equal(200);
      await new Promise((r) => setTimeout(r, 2100));
      const { IdempotencyKeys } = await import('../../core/http/idempotency.js');
      const pruned = await new IdempotencyKeys(t.engine.db, t.engine.pii, t.engine.config.idempotency).prune();
      expect(pruned).to.be.greaterThan(0);
      const left = await t.engine.db.query('SELECT key FROM idempotency_keys WHERE "expiresAt" < ?', [Date.now()]);
      expect(left).to.deep.equal([]);
    });

    it('a kept answer holding PII is sealed in the table', async () => {
      SlowRoute.gate.open();
      const headers = { 'idempotency-key': 'pii-echo' };
      const r = await t.request('POST', '/slow', { body: { ssn: '555-44-3333' }, headers });
      expect(r.body.echo.ssn).to.equal('555-44-3333');
      const rows = await t.engine.db.query<{ body: string }>('SELECT body FROM idempotency_keys WHERE key = ?', [
        'pii-echo',
      ]);
      expect(rows[0]!.body).to.include('enc:pii:').and.not.include('555-44-3333');
      expect((await t.request('POST', '/slow', { body: { ssn: '555-44-3333' }, headers })).body.echo.ssn).to.equal(
        '555-44-3333',
      );
    });
  });
}
