/**
 * `titled submissions ...`: an operator works a managed submission from the
 * CLI while the daemon runs on the same SQLite data folder; the client sees
 * every step through GET /title/{id}/submit/{submissionId}.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readyEntry, startSubmissionEngine, type SubTestEngine } from './support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

describe('submission: titled submissions (CLI)', function () {
  this.timeout(180_000);
  let t: SubTestEngine;

  before(async () => {
    t = await startSubmissionEngine();
  });
  after(async () => t?.stop());

  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((ok, fail) => {
      const env = { ...process.env };
      for (const k of Object.keys(env)) if (k.startsWith('TITLED_') || k === 'DATABASE_URL') delete env[k];
      const child = spawn(process.execPath, [CLI, 'submissions', ...args], {
        env: { ...env, TITLED_DATA_DIR: t.dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.once('error', fail);
      child.once('close', (code) => ok({ code, stdout, stderr }));
    });
  const json = async (args: string[]) => {
    const r = await run(args);
    expect(r.code, r.stderr).to.equal(0);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
  };

  it('list, method, ready, record, request-followup, cancel', async () => {
    const e = await readyEntry(t, 'TX');
    const sid = (await t.request('POST', `/title/${e.entryId}/submit`, { body: { intakeMode: 'MANAGED' } })).body
      .submissionId as string;
    const listed = await run(['list', '--org', t.org.name, '--status', 'AWAITING_READINESS', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).submissionId),
    ).to.include(sid);
    const text = await run(['list', '--entry', e.entryId]);
    expect(text.stdout).to.match(new RegExp(`${sid}\\s+${e.entryId}\\s+AWAITING_READINESS\\s+-\\s+MANAGED`));
    expect((await run(['ready', sid])).code).to.equal(1);
    expect(await json(['method', sid, 'MAIL'])).to.include({ method: 'MAIL', status: 'AWAITING_READINESS' });
    expect(await json(['ready', sid])).to.include({ status: 'PENDING', method: 'MAIL' });
    expect(await json(['record', sid, 'SUBMITTED', '--note', 'mailed certified'])).to.include({ status: 'SUBMITTED' });
    expect((await run(['request-followup', sid])).code).to.equal(2);
    expect(await json(['request-followup', sid, '--message', 'Sign page 2'])).to.include({
      status: 'ACTION_REQUIRED',
      feedbackMessage: 'Sign page 2',
    });
    expect(await json(['cancel', sid, '--reason', 'client withdrew'])).to.include({ status: 'CANCELED' });
    const bad = await run(['record', sid, 'ACCEPTED']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/cannot move from CANCELED to ACCEPTED/);
    const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
    expect(s.status).to.equal('CANCELED');
    expect(s.history.map((h: any) => h.to)).to.deep.equal([
      'AWAITING_READINESS',
      'AWAITING_READINESS',
      'PENDING',
      'SUBMITTED',
      'ACTION_REQUIRED',
      'CANCELED',
    ]);
    expect(s.history.at(-1)).to.include({ note: 'client withdrew' });
    expect(s.history.at(-1).by).to.match(/^cli:/);
    expect((await t.request('GET', `/title/${e.entryId}`)).body.account_status).to.equal('filing_en_route');
  });
});
