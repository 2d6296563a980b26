/**
 * Pruning (issue 13, config `retention`): old outbox rows, failed jobs, and
 * webhook deliveries that ended with their attempts are removed; what is
 * recent or still in progress stays. One pass is run directly with a clock
 * moved forward; the background loop is seen removing rows aged in the database.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../index.js';
import { CLI, childEnv } from '../helpers/daemon.js';
import { DIALECTS, eventually } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { BOOM_VINS, boom } from '../webhook/fixtures/stages.js';
import {
  jobEnded,
  receiver,
  settled,
  startWebhookEngine,
  type Receiver,
  type WebhookTestEngine,
} from '../webhook/support.js';

const DAY = 24 * 3600_000;

for (const dialect of DIALECTS) {
  describe(`pruning old rows (${dialect})`, function () {
    this.timeout(120_000);
    let t: WebhookTestEngine;
    let ok: Receiver;
    let down: Receiver;
    let n = 0;
    const vin = () => vinFor(7000 + n++ + (dialect === 'postgres' ? 500 : 0));
    const count = async (table: string, where = '1 = 1') =>
      Number((await t.engine.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`))[0]!.n);
    const ids: string[] = [];

    before(async () => {
      ok = await receiver();
      // a receiver that always fails with a long retry base: its deliveries stay pending
      down = await receiver(() => ({ status: 503 }));
      t = await startWebhookEngine({
        dialect,
        stages: { boom },
        webhook: { retryBaseMs: 10 * DAY, maxRetries: 3 },
        config: { retention: { intervalMs: 0 }, workers: { maxAttempts: 1, pollIntervalMs: 50, retryBaseMs: 20 } },
      });
      await t.wh.setProfile(t.org.name, {
        url: `${ok.url}/ok`,
        events: ['title.job_status.complete', 'title.job_status.error'],
        auth: { scheme: 'none' },
      });
      for (let i = 0; i < 3; i++) {
        const id = (await t.engine.service.create(t.p, { account_data: { vehicle: { vin: vin() } } })).entryId;
        await jobEnded(t, id);
        ids.push(id);
      }
      const bad = vin();
      BOOM_VINS.add(bad);
      const failed = (await t.engine.service.create(t.p, { account_data: { vehicle: { vin: bad } } })).entryId;
      await jobEnded(t, failed, 'error');
      ids.push(failed);
      await t.wh.setProfile(t.org.name, {
        url: `${down.url}/down`,
        events: ['title.job_status.complete', 'title.job_status.error'],
        auth: { scheme: 'none' },
      });
      const pendingOne = (await t.engine.service.create(t.p, { account_data: { vehicle: { vin: vin() } } })).entryId;
      await eventually(async () => (await t.engine.service.get(t.p, pendingOne)).job_status === 'complete', {
        what: 'complete',
      });
      await eventually(async () => down.requests.length > 0, { what: 'first attempt at the failing receiver' });
      // settled: the good receiver has it too, the failing one's delivery waits for its retry, nothing is in flight
      await eventually(
        async () =>
          ok.forEntry(pendingOne).length > 0 &&
          (await count('webhook_deliveries', `status = 'delivering'`)) === 0 &&
          (await count('webhook_deliveries', `status = 'pending'`)) === 1,
        { what: 'deliveries settled' },
      );
      ids.push(pendingOne);
    });
    after(async () => {
      await t?.stop();
      await ok?.close();
      await down?.close();
    });

    it('a pass now removes nothing: every row is within its retention', async () => {
      const before = {
        outbox: await count('outbox'),
        jobs: await count('jobs'),
        d: await count('webhook_deliveries'),
        a: await count('webhook_attempts'),
      };
      expect(before.outbox).to.be.greaterThan(5);
      expect(before.jobs).to.equal(1);
      expect(before.d).to.be.greaterThan(4);
      const removed = await t.engine.pruner.pruneNow(Date.now());
      expect(removed).to.deep.equal({ outbox: 0, jobs: 0, webhook_deliveries: 0, webhook_attempts: 0 });
      expect(await count('outbox')).to.equal(before.outbox);
    });

    it('31 days on: outbox rows, failed job, ended deliveries, attempts go; pending and entries stay', async () => {
      const delivered = await count('webhook_deliveries', `status = 'delivered'`);
      const pending = await count('webhook_deliveries', `status = 'pending'`);
      const attemptsOfPending = await count(
        'webhook_attempts',
        `"deliveryId" IN (SELECT id FROM webhook_deliveries WHERE status = 'pending')`,
      );
      expect(delivered).to.be.greaterThan(3);
      expect(pending).to.be.greaterThan(0);
      const outboxBefore = await count('outbox');
      const removed = await t.engine.pruner.pruneNow(Date.now() + 31 * DAY);
      expect(removed.outbox).to.equal(outboxBefore);
      expect(removed.jobs).to.equal(1);
      expect(removed.webhook_deliveries).to.equal(delivered);
      expect(removed.webhook_attempts).to.be.greaterThan(3);
      expect(await count('outbox')).to.equal(0);
      expect(await count('jobs')).to.equal(0);
      expect(await count('webhook_deliveries', `status = 'pending'`)).to.equal(pending);
      expect(await count('webhook_deliveries', `status <> 'pending'`)).to.equal(0);
      expect(await count('webhook_attempts')).to.equal(attemptsOfPending);
      for (const id of ids) expect((await t.request('GET', `/title/${id}`)).status).to.equal(200);
    });

    it('the background loop prunes rows that aged past the retention', async () => {
      const loop = await startWebhookEngine({
        dialect,
        config: { retention: { intervalMs: 50, outboxMs: 60_000, deliveriesMs: 60_000 } },
      });
      try {
        await loop.wh.setProfile(loop.org.name, {
          url: `${ok.url}/loop`,
          events: ['title.job_status.complete', 'title.job_status.error'],
          auth: { scheme: 'none' },
        });
        const id = (await loop.engine.service.create(loop.p, { account_data: { vehicle: { vin: vin() } } })).entryId;
        await jobEnded(loop, id);
        await settled(loop.wh);
        const c = async (table: string) =>
          Number((await loop.engine.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
        expect(await c('outbox')).to.be.greaterThan(0);
        expect(await c('webhook_deliveries')).to.be.greaterThan(0);
        // two minutes older: past the one-minute retention. Aged again on every look: a row the engine wrote or
        // dispatched after the first look (a loaded machine) is then aged too, and the loop has it to prune
        const back = 120_000;
        const age = async () => {
          await loop.engine.db.exec(
            'UPDATE outbox SET "dispatchedAt" = "dispatchedAt" - ?, "createdAt" = "createdAt" - ?',
            [back, back],
          );
          await loop.engine.db.exec('UPDATE webhook_deliveries SET "updatedAt" = "updatedAt" - ?', [back]);
        };
        await eventually(
          async () => {
            await age();
            return (
              (await c('outbox')) === 0 && (await c('webhook_deliveries')) === 0 && (await c('webhook_attempts')) === 0
            );
          },
          { what: 'the loop pruned the aged rows' },
        );
        expect((await loop.request('GET', `/title/${id}`)).status).to.equal(200);
      } finally {
        await loop.stop();
      }
    });
  });
}

describe('titled prune (CLI)', function () {
  this.timeout(120_000);

  it('runs one pass on a data folder and prints the counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titled-prune-cli-'));
    try {
      const config = { dataDir: join(dir, 'data'), stages: ['intake', 'webhook'], retention: { outboxMs: 60_000 } };
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(config));
      const e = await createEngine({ ...config, log: { level: 'warn' } });
      await e.start();
      const org = await e.orgs.create('prune-cli');
      const p = await e.principalFor(org.name);
      const { entryId } = await e.service.create(p, { account_data: { vehicle: { vin: vinFor(7990) } } });
      await eventually(async () => (await e.service.get(p, entryId)).job_status === 'complete', { what: 'complete' });
      const rows = Number((await e.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM outbox'))[0]!.n);
      expect(rows).to.be.greaterThan(0);
      // two days older than they are
      await e.db.exec('UPDATE outbox SET "createdAt" = "createdAt" - ?, "dispatchedAt" = "dispatchedAt" - ?', [
        2 * DAY,
        2 * DAY,
      ]);
      await e.stop();
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((res, rej) => {
        const c = spawn(process.execPath, [CLI, 'prune', '--json', '--config', file], { env: childEnv({}) });
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        c.once('error', rej);
        c.once('close', (code) => res({ code, stdout, stderr }));
      });
      expect(out.code, out.stderr).to.equal(0);
      expect(JSON.parse(out.stdout)).to.deep.equal({
        outbox: rows,
        jobs: 0,
        webhook_deliveries: 0,
        webhook_attempts: 0,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
