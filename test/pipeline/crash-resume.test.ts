import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECTS, PG_URL, dropSchema, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { CRASH_ORG, crashStages } from './fixtures/crash-engine.js';
import { vinFor } from './fixtures/test-stages.js';

const CHILD = fileURLToPath(new URL('./fixtures/crash-engine.js', import.meta.url));

/** Runs the child engine until it dies; resolves with how it ended and what it wrote to stderr. */
function runChild(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

for (const dialect of DIALECTS) {
  describe(`checkpointing across a process crash (${dialect})`, function () {
    let workDir: string;
    let schema: string;
    let t: TestEngine | undefined;

    beforeEach(() => {
      workDir = mkdtempSync(join(tmpdir(), 'titled-crash-'));
      mkdirSync(join(workDir, 'data'));
      schema = `t_crash_${randomBytes(5).toString('hex')}`;
    });
    afterEach(async () => {
      await t?.stop();
      t = undefined;
      if (dialect === 'postgres') await dropSchema(schema);
      rmSync(workDir, { recursive: true, force: true });
    });

    it('a job whose process was killed in s2 resumes at s2 in another engine', async () => {
      const dataDir = join(workDir, 'data');
      const stages = ['intake', 's1', 's2', 's3'];
      const workers = { leaseMs: 1500, pollIntervalMs: 50 };
      const db = dialect === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema } : {};
      const vin = vinFor(77);
      const child = await runChild([
        workDir,
        JSON.stringify({ dataDir, port: 0, stages, workers, log: { level: 'warn' }, ...db }),
        vin,
      ]);
      expect(child.signal, `child ended with code ${child.code}: ${child.stderr}`).to.equal('SIGKILL');
      expect(existsSync(join(workDir, 's2.marker'))).to.equal(true);
      const entryId = readFileSync(join(workDir, 'entry-id'), 'utf8');
      const childPid = readFileSync(join(workDir, 's2.marker'), 'utf8');
      const runsBefore = readFileSync(join(workDir, 'runs.log'), 'utf8').trim().split('\n');
      expect(runsBefore).to.deep.equal([`s1 ${entryId} ${childPid}`, `s2 ${entryId} ${childPid}`]);

      t = await startTestEngine({
        dialect,
        listen: false,
        dataDir,
        schema,
        config: { stages, workers },
        options: { stages: crashStages(workDir) },
      });
      const p = await t.engine.principalFor(CRASH_ORG);
      const entry = await eventually(
        async () => {
          const e = await t!.engine.service.get(p, entryId);
          return e.job_status === 'complete' ? e : null;
        },
        { what: 'entry complete after the takeover', tries: 4000 },
      );

      const runs = readFileSync(join(workDir, 'runs.log'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      const byStage = (s: string) => runs.filter((r) => r[0] === s);
      expect(
        byStage('s1').map((r) => r[2]),
        's1 ran once, in the crashed process',
      ).to.deep.equal([childPid]);
      expect(
        byStage('s2').map((r) => r[2]),
        's2 ran twice: crashed, then resumed',
      ).to.deep.equal([childPid, String(process.pid)]);
      expect(
        byStage('s3').map((r) => r[2]),
        's3 ran once, after the takeover',
      ).to.deep.equal([String(process.pid)]);
      expect(runs.every((r) => r[1] === entryId)).to.equal(true);
      expect(entry).to.deep.include({ s1_done: true, s2_done: true, s3_done: true, VIN: vin });
      expect(entry.account_data.vehicle?.vin).to.equal(vin);
      const events = (await t.engine.outbox.forEntry(entryId)).map((e) => e.name);
      expect(events).to.deep.equal([
        'title.job_status.pending',
        'title.job_status.enriching',
        'title.job_status.complete',
      ]);
      expect(await t.engine.queue.counts()).to.deep.equal({});
    });
  });
}
