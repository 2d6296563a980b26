/**
 * titled sign status|remind|cancel|mark-signed against the database a
 * running daemon uses (SQLite in a shared data folder).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEntry, waitForStatus } from '../http/support.js';
import { startSigningEngine, txTwoOwners, type SigningTestEngine } from './support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

describe('titled sign (CLI)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let t: SigningTestEngine;

  const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => {
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('TITLED_') || k === 'DATABASE_URL') delete env[k];
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
    dataDir = mkdtempSync(join(tmpdir(), 'titled-sign-cli-'));
    t = await startSigningEngine({ dataDir });
  });
  after(async () => {
    await t?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('status lists the requests; mark-signed completes the open one (sealed copies, poa_signed); cancel ends another', async () => {
    const id = await createEntry(t, txTwoOwners());
    await waitForStatus(t, id);
    const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
    const status = await run(['sign', 'status', '--org', t.org.name, '--entry', id]);
    expect(status.code, status.stderr).to.equal(0);
    expect(status.stdout).to.contain(r.id).and.contain('SENT').and.contain('owner-1:pending');
    const remind = await run(['sign', 'remind', '--org', t.org.name, '--entry', id]);
    expect(remind.code, remind.stderr).to.equal(0);
    const again = await run(['sign', 'remind', '--org', t.org.name, '--entry', id]);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.contain('wait');
    const marked = await run([
      'sign',
      'mark-signed',
      '--org',
      t.org.name,
      '--entry',
      id,
      '--note',
      'originals received',
    ]);
    expect(marked.code, marked.stderr).to.equal(0);
    expect(marked.stdout).to.contain(`${r.id} COMPLETED`);
    const entry = (await t.request('GET', `/title/${id}`)).body;
    expect(entry.account_status).to.equal('poa_signed');
    expect(entry.signature_requests[0].sign_cert).to.match(/\/files\//);
    const json = await run(['sign', 'status', '--org', t.org.name, '--entry', id, '--json']);
    expect(JSON.parse(json.stdout.trim().split('\n')[0]!).status).to.equal('COMPLETED');
    await t.request('POST', `/title/${id}/sign`);
    const cancel = await run(['sign', 'cancel', '--org', t.org.name, '--entry', id, '--reason', 'wrong signer']);
    expect(cancel.code, cancel.stderr).to.equal(0);
    expect(cancel.stdout).to.contain('CANCELED');
    const none = await run(['sign', 'cancel', '--org', t.org.name, '--entry', id]);
    expect(none.code).to.equal(1);
    const usage = await run(['sign', 'status', '--org', t.org.name]);
    expect(usage.code).to.equal(2);
  });
});
