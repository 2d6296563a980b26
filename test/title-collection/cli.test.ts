/** `titled orgs set` and `titled collections receive|lost|simulate` against a running daemon's database (SQLite). */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { entryBody } from './support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

describe('titled orgs set / titled collections (CLI)', function () {
  let dataDir: string;
  let t: TestEngine;

  const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => {
    const env = { ...process.env };
    for (const k of Object.keys(env))
      if (k.startsWith('TITLED_') || k === 'PORT' || k === 'DATABASE_URL') delete env[k];
    return new Promise((res, rej) => {
      const c = spawn(process.execPath, [CLI, ...args], {
        env: { ...env, TITLED_DATA_DIR: dataDir },
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
    dataDir = mkdtempSync(join(tmpdir(), 'titled-tc-cli-'));
    t = await startTestEngine({ dataDir, config: { stages: ['intake', 'forms', 'title-collection'] } });
  });
  after(async () => {
    await t?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const entry = async (n: number): Promise<string> => {
    const id = (await t.request('POST', '/title', { body: entryBody(9000 + n) })).body.entryId as string;
    await eventually(async () => (await t.request('GET', `/title/${id}`)).body.job_status === 'complete', {
      what: 'job complete',
    });
    return id;
  };

  it('orgs set enrolls, sets the receiving address and events; bad values are refused', async () => {
    const set = await run([
      'orgs',
      'set',
      t.org.name,
      '--title-collection',
      'on',
      '--physical-title-events',
      'on',
      '--receiving-address',
      'Acme Title Dept, 100 Congress Ave, Suite 400, Austin, TX 78701',
      '--json',
    ]);
    expect(set.code, set.stderr).to.equal(0);
    expect(JSON.parse(set.stdout)).to.deep.include({
      title_collection: true,
      physical_title_events: true,
      receiving_address: {
        recipient_name: 'Acme Title Dept',
        street1: '100 Congress Ave',
        street2: 'Suite 400',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
      },
    });
    const http = await t.request('GET', '/title-collection/settings');
    expect(http.body).to.include({ title_collection: true, physical_title_events: true });
    const bad = await run(['orgs', 'set', t.org.name, '--title-collection', 'maybe']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--title-collection must be on or off');
    const badAddr = await run(['orgs', 'set', t.org.name, '--receiving-address', 'somewhere']);
    expect(badAddr.code).to.equal(1);
    expect(badAddr.stderr).to.include('--receiving-address');
    const nothing = await run(['orgs', 'set', t.org.name]);
    expect(nothing.code).to.equal(2);
  });

  it('collections simulate, receive (mismatch refused with the reason) and lost', async () => {
    const id = await entry(1);
    expect((await t.request('POST', `/title/${id}/collection`)).body.title_collection.collection_id).to.be.a('string');
    const sim = await run(['collections', 'simulate', '--org', t.org.name, '--entry', id, '--event', 'in_transit']);
    expect(sim.code, sim.stderr).to.equal(0);
    expect(sim.stdout.trim()).to.equal(`entry ${id}: in_transit applied; physical_title_status is in_transit`);
    const mismatch = await run(['collections', 'receive', '--org', t.org.name, '--entry', id, '--title-number', '555']);
    expect(mismatch.code).to.equal(1);
    expect(mismatch.stderr).to.include(
      "the received title's number 555 does not match the entry's title number 12345678901",
    );
    const ok = await run([
      'collections',
      'receive',
      '--org',
      t.org.name,
      '--entry',
      id,
      '--title-number',
      '12345678901',
    ]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect((await t.request('GET', `/title/${id}`)).body.physical_title_status).to.equal('received');

    const other = await entry(2);
    await t.request('POST', `/title/${other}/collection`);
    const lost = await run(['collections', 'lost', '--org', t.org.name, '--entry', other]);
    expect(lost.code, lost.stderr).to.equal(0);
    expect(lost.stdout.trim()).to.equal(
      `entry ${other}: physical_title_status is unavailable; forms generated; form_duplicate_title generated`,
    );
    const usage = await run(['collections', 'receive', '--org', t.org.name, '--entry', other]);
    expect(usage.code).to.equal(2);
  });
});
