import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../index.js';
import type { WebhookPlugin } from '../../plugins/webhook/index.js';
import { DIALECTS, PG_URL, dropSchema, eventually } from '../helpers/engine.js';
import { CLI, childEnv, serveDaemon, type Daemon } from '../helpers/daemon.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { receiver, type Receiver } from './support.js';

const ORG = 'crash-hooks';

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    c.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    c.once('error', rej);
    c.once('close', (code) => res({ code, stdout, stderr }));
  });
}

for (const dialect of DIALECTS) {
  describe(`webhooks survive kill -9 of the daemon (${dialect})`, function () {
    let dir: string;
    let r: Receiver;
    let schema: string;
    const daemons: Daemon[] = [];

    before(() => {
      expect(existsSync(CLI), `compiled CLI at ${CLI}`).to.equal(true);
    });
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'titled-wh-crash-'));
      schema = `t_whcrash_${randomBytes(5).toString('hex')}`;
      r = await receiver();
    });
    afterEach(async () => {
      for (const d of daemons.splice(0))
        if (d.proc.exitCode === null && d.proc.signalCode === null) d.proc.kill('SIGKILL');
      await r.close();
      if (dialect === 'postgres') await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    });

    it('every event is delivered at least once after a SIGKILL while deliveries hang, and events made while it was down go out on restart', async () => {
      const dataDir = join(dir, 'data');
      const config = {
        stages: ['intake', 'webhook'],
        allowHosts: ['127.0.0.1'],
        // attempts hang for 3 s; a dead daemon's claims expire 4 s after they were made
        plugins: { webhook: { timeoutMs: 3000, leaseMs: 4000, retryBaseMs: 100, pollIntervalMs: 20 } },
        // jobs the kill interrupts are taken over 2 s later
        workers: { pollIntervalMs: 20, leaseMs: 2000 },
        log: { level: 'info' },
        ...(dialect === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema } : {}),
      };
      const configFile = join(dir, 'config.json');
      writeFileSync(configFile, JSON.stringify(config));
      const env = childEnv({ TITLED_DATA_DIR: dataDir, TITLED_CONFIG: configFile, TITLED_LOG_LEVEL: 'info' });

      // set-up through the library: organization, API key, webhook profile
      const setup = await createEngine({ ...config, dataDir, workers: { enabled: false }, log: { level: 'warn' } });
      let key: string;
      try {
        const org = await setup.orgs.create(ORG);
        key = (await setup.keys.create(org.id)).key;
        const wh = setup.plugins.find((p) => p.name === 'webhook') as WebhookPlugin;
        await wh.setProfile(ORG, {
          url: `${r.url}/hook`,
          events: ['title.job_status.complete', 'title.account_status.*'],
          auth: { scheme: 'bearer', token: 'crash-token' },
        });
      } finally {
        await setup.stop();
      }

      // 1. the receiver hangs; the daemon takes 8 creates, and is killed while their deliveries wait for an answer
      r.behaviour = () => 'hang';
      const first = await serveDaemon(null, env);
      daemons.push(first);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${first.url}/title`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            account_data: { vehicle: { vin: vinFor(7000 + i + (dialect === 'postgres' ? 100 : 0)) } },
          }),
        });
        expect(res.status).to.equal(200);
        ids.push(((await res.json()) as { entryId: string }).entryId);
      }
      await eventually(async () => r.requests.length >= 1, { what: 'a delivery hanging at the receiver', tries: 4000 });
      first.proc.kill('SIGKILL');
      expect((await first.exited).signal).to.equal('SIGKILL');
      const beforeRestart = r.requests.length;

      // 2. while it is down: the receiver is fixed, and two account_status changes are made through the CLI
      r.behaviour = () => ({ status: 200 });
      for (const [id, s] of [
        [ids[0]!, 'poa_sent'],
        [ids[1]!, 'lien_delay'],
      ] as const) {
        const c = await cli(['entries', 'set-status', '--org', ORG, '--entry', id, '--status', s], env);
        expect(c.code, c.stderr).to.equal(0);
        expect(c.stdout).to.include(`account_status is ${s}`);
      }

      // 3. restart: everything arrives
      const second = await serveDaemon(null, env);
      daemons.push(second);
      const delivered = (id: string, event: string) =>
        r.ok.some((x) => x.body.entryId === id && x.body.webhook_events.includes(event));
      await eventually(
        async () =>
          ids.every((id) => delivered(id, 'title.job_status.complete')) &&
          delivered(ids[0]!, 'title.account_status.poa_sent') &&
          delivered(ids[1]!, 'title.account_status.lien_delay'),
        { what: 'every event delivered after the restart', tries: 8000 },
      );
      expect(beforeRestart, 'some attempts were cut by the kill').to.be.greaterThan(0);
      expect(r.ok.every((x) => x.headers.authorization === 'Bearer crash-token')).to.equal(true);

      second.proc.kill('SIGTERM');
      expect((await second.exited).code, second.output().slice(-2000)).to.equal(0);

      // the record: every delivery delivered, none lost or left behind
      const check = await createEngine({ ...config, dataDir, workers: { enabled: false }, log: { level: 'warn' } });
      try {
        const wh = check.plugins.find((p) => p.name === 'webhook') as WebhookPlugin;
        const all = await wh.deliveries(ORG, { limit: 100 });
        expect(all).to.have.length(10);
        expect(all.every((d) => d.status === 'delivered')).to.equal(true);
        expect((await wh.counts()).undispatched).to.equal(0);
      } finally {
        await check.stop();
      }
    });
  });
}
