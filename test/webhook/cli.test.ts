import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import {
  receiver,
  settled,
  signatureValid,
  startWebhookEngine,
  type Receiver,
  type WebhookTestEngine,
} from './support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

describe('titled webhooks / titled entries (CLI)', function () {
  // each test spawns up to ten CLI processes (1-3 s each on a busy 2-core machine)
  this.timeout(180_000);
  let dataDir: string;
  let t: WebhookTestEngine;
  let r: Receiver;
  let secret: string;

  const run = (
    args: string[],
    extra: Record<string, string> = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> => {
    const env = { ...process.env };
    for (const k of Object.keys(env))
      if (k.startsWith('TITLED_') || k === 'PORT' || k === 'DATABASE_URL') delete env[k];
    return new Promise((res, rej) => {
      const c = spawn(process.execPath, [CLI, ...args], {
        env: { ...env, TITLED_DATA_DIR: dataDir, TITLED_ALLOW_HOSTS: '127.0.0.1', ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
  };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'titled-wh-cli-'));
    r = await receiver();
    // a running daemon on the same database delivers what the CLI records
    t = await startWebhookEngine({ dataDir });
  });
  after(async () => {
    await t?.stop();
    await r?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('webhooks set prints the signing secret alone on its last line; list never shows secrets', async () => {
    const set = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      `${r.url}/cli`,
      '--events',
      'title.account_status.*,title.physical_title_status.received',
      '--auth',
      'bearer',
      '--token',
      'SECRET-TOKEN-1',
      '--partner-key',
      'PK-SECRET-2',
    ]);
    expect(set.code, set.stderr).to.equal(0);
    const lines = set.stdout.trimEnd().split('\n');
    secret = lines.at(-1)!;
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(set.stdout).to.not.include('SECRET-TOKEN-1');
    expect(set.stdout).to.not.include('PK-SECRET-2');
    const again = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      `${r.url}/cli`,
      '--events',
      'title.account_status.*',
      '--auth',
      'bearer',
      '--token',
      'SECRET-TOKEN-1',
      '--partner-key',
      'PK-SECRET-2',
    ]);
    expect(again.stdout).to.match(/^updated webhook profile/);
    expect(again.stdout.trimEnd().split('\n').at(-1), 'the secret is kept').to.equal(secret);

    for (const args of [
      ['webhooks', 'list', '--org', t.org.name],
      ['webhooks', 'list', '--org', t.org.name, '--json'],
    ]) {
      const list = await run(args);
      expect(list.code, list.stderr).to.equal(0);
      expect(list.stdout).to.include(`${r.url}/cli`);
      expect(list.stdout).to.include('partner key');
      for (const s of ['SECRET-TOKEN-1', 'PK-SECRET-2', 'whsec_']) expect(list.stdout, s).to.not.include(s);
    }
  });

  it('refuses bad URLs and bad usage', async () => {
    const blocked = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      'http://169.254.169.254/x',
      '--events',
      'title.job_status.complete',
      '--auth',
      'none',
    ]);
    expect(blocked.code).to.equal(1);
    expect(blocked.stderr).to.match(/webhook URL refused: 169\.254\.169\.254 is a cloud metadata address/);
    // the running daemon's allow list (127.0.0.1) applies to the CLI too; a host neither allows is refused, saying how to allow it
    const local = await run(
      [
        'webhooks',
        'set',
        '--org',
        t.org.name,
        '--url',
        'http://10.0.0.5:9/x',
        '--events',
        'title.job_status.complete',
        '--auth',
        'none',
      ],
      { TITLED_ALLOW_HOSTS: '' },
    );
    expect(local.code).to.equal(1);
    expect(local.stderr).to.match(/private/);
    expect(local.stderr).to.include('TITLED_ALLOW_HOSTS=10.0.0.5');
    const noPassword = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      `${r.url}/x`,
      '--events',
      'title.job_status.complete',
      '--auth',
      'basic',
      '--username',
      'u',
    ]);
    expect(noPassword.code).to.equal(2);
    const stray = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      `${r.url}/x`,
      '--events',
      'title.job_status.complete',
      '--auth',
      'none',
      '--token',
      'x',
    ]);
    expect(stray.code).to.equal(2);
    expect(stray.stderr).to.include('--token cannot be used with --auth none');
    const badEvent = await run([
      'webhooks',
      'set',
      '--org',
      t.org.name,
      '--url',
      `${r.url}/x`,
      '--events',
      'title.job_status.pending',
      '--auth',
      'none',
    ]);
    expect(badEvent.code).to.equal(1);
    expect(badEvent.stderr).to.include('unknown event(s): title.job_status.pending');
  });

  it('entries set-status records the event the daemon delivers; deliveries lists attempts; replay sends again', async () => {
    const { entryId } = await t.engine.service.create(t.p, { account_data: { vehicle: { vin: vinFor(8100) } } });
    const set = await run(['entries', 'set-status', '--org', t.org.name, '--entry', entryId, '--status', 'poa_sent']);
    expect(set.code, set.stderr).to.equal(0);
    expect(set.stdout.trim()).to.equal(`entry ${entryId}: account_status is poa_sent`);
    const bad = await run([
      'entries',
      'set-status',
      '--org',
      t.org.name,
      '--entry',
      entryId,
      '--status',
      'lien_release_complete',
    ]);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/account_status cannot move from poa_sent to lien_release_complete/);
    await eventually(async () => r.ok.length === 1, { what: 'delivered', tries: 4000 });
    const got = r.requests[0]!;
    expect(got.headers).to.include({ authorization: 'Bearer SECRET-TOKEN-1', 'x-partner-key': 'PK-SECRET-2' });
    expect(got.body.webhook_events).to.deep.equal(['title.account_status.poa_sent']);
    expect(signatureValid(secret, got.headers, got.raw)).to.equal(true);

    const physical = await run([
      'entries',
      'set-status',
      '--org',
      t.org.name,
      '--entry',
      entryId,
      '--status',
      'received',
      '--physical',
    ]);
    expect(physical.stdout.trim()).to.equal(`entry ${entryId}: physical_title_status is received`);
    const get = await run(['entries', 'get', '--org', t.org.name, '--entry', entryId]);
    expect(JSON.parse(get.stdout)).to.deep.include({
      entryId,
      account_status: 'poa_sent',
      physical_title_status: 'received',
    });
    await settled(t.wh);
    expect(r.requests, 'physical title events are off for this organization').to.have.length(1);

    const list = await run(['webhooks', 'deliveries', '--org', t.org.name, '--attempts']);
    expect(list.code, list.stderr).to.equal(0);
    const id = String(got.headers['webhook-id']);
    expect(list.stdout).to.include(id);
    expect(list.stdout).to.match(/#1 \S+ delivered 200 \d+ ms/);
    const json = (await run(['webhooks', 'deliveries', '--org', t.org.name, '--json'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(json[0]).to.deep.include({ id, status: 'delivered', attempts: 1, entryId });
    expect(json[0].attemptLog).to.have.length(1);

    const replay = await run(['webhooks', 'replay', id]);
    expect(replay.code, replay.stderr).to.equal(0);
    expect(replay.stdout).to.match(/^replay of .* recorded as delivery \S+/);
    await eventually(async () => r.ok.length === 2, { what: 'replayed' });
    expect(r.requests[1]!.headers['webhook-id']).to.not.equal(id);
    expect(r.requests[1]!.body.webhook_events).to.deep.equal(['title.account_status.poa_sent']);
    expect(t.logs.join('\n')).to.not.match(/SECRET-TOKEN-1|PK-SECRET-2|whsec_/);
  });

  it('webhooks remove', async () => {
    const rm = await run(['webhooks', 'remove', '--org', t.org.name]);
    expect(rm.code, rm.stderr).to.equal(0);
    expect(rm.stdout).to.match(/^removed webhook profile \S+ \(http:\/\/127\.0\.0\.1:\d+\/cli\)/);
    const list = await run(['webhooks', 'list', '--org', t.org.name]);
    expect(list.stdout).to.match(/has no webhook profiles/);
  });
});
