import { expect } from 'chai';
import { mergeJobInput, type JobInput } from '../../core/jobs/job-queue.js';
import { DIALECTS, eventually, startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';
import { Gate, pause, stageClass, vinFor } from '../pipeline/fixtures/test-stages.js';

const count = async (t: TestEngine, sql: string, params: unknown[] = []) =>
  Number((await t.engine.db.query<{ n: unknown }>(sql, params))[0]!.n);
const idle = (t: TestEngine) =>
  eventually(async () => (await count(t, 'SELECT COUNT(*) AS n FROM jobs')) === 0, {
    what: 'no jobs left',
    tries: 4000,
  });

/** A second engine on the same database as `t` (same PostgreSQL schema, or same SQLite folder). */
function sibling(
  t: TestEngine,
  dialect: Dialect,
  config: Record<string, unknown>,
  stages: Record<string, ReturnType<typeof stageClass>>,
) {
  return startTestEngine({
    dialect,
    listen: false,
    dataDir: t.dataDir,
    schema: t.engine.config.databaseSchema,
    config,
    options: { stages },
  });
}

describe('mergeJobInput', () => {
  it('accumulates reasons and attachments, ORs flags, merges account data, keeps the latest dppa code', () => {
    const a: JobInput = {
      reasons: ['create'],
      account_data: { vehicle: { vin: 'A', year: 2001, make: 'X' } },
      attachments: ['https://e/1.pdf'],
      sync_nmvtis: true,
      dppa_exemption: '1',
    };
    const b: JobInput = {
      reasons: ['update', 'create'],
      account_data: { vehicle: { make: 'Y', model: null } as never },
      attachments: ['https://e/2.pdf'],
      sync_private: true,
      dppa_exemption: '3',
    };
    expect(mergeJobInput(a, b)).to.deep.equal({
      reasons: ['create', 'update'],
      account_data: { vehicle: { vin: 'A', year: 2001, make: 'Y' } },
      attachments: ['https://e/1.pdf', 'https://e/2.pdf'],
      sync_nmvtis: true,
      sync_private: true,
      dppa_exemption: '3',
    });
    expect(mergeJobInput({ reasons: ['fees'] }, { reasons: ['data'], sync_public: true })).to.deep.equal({
      reasons: ['fees', 'data'],
      sync_public: true,
    });
    expect(a.reasons, 'inputs unchanged').to.deep.equal(['create']);
  });
});

for (const dialect of DIALECTS) {
  describe(`job queue (${dialect})`, function () {
    it('a job enqueued with a create is claimed exactly once, and again only after its lease expires', async () => {
      const t = await startTestEngine({ dialect, listen: false, config: { workers: { enabled: false } } });
      try {
        const p = await t.engine.principalFor(t.org.name);
        const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(1) } } });
        expect(await t.engine.queue.counts()).to.deep.equal({ queued: 1 });
        const claims = await Promise.all(
          Array.from({ length: 12 }, (_, i) => t.engine.queue.claim(`owner-${i}`, 5, 60_000)),
        );
        const got = claims.flat();
        expect(got).to.have.length(1);
        expect(got[0]).to.deep.include({ entryId, orgId: p.org.id, attempts: 1, initialStatus: 'pending' });
        expect(got[0]!.input.reasons).to.deep.equal(['create']);
        expect(await t.engine.queue.claim('late', 5, 60_000)).to.deep.equal([]);
        expect(await t.engine.queue.counts()).to.deep.equal({ running: 1 });
        // the owner records a checkpoint, then "dies": its lease is taken away
        const owner = claims.findIndex((c) => c.length === 1);
        await t.engine.db.tx((m) => t.engine.queue.checkpoint(m, got[0]!.id, `owner-${owner}`, ['intake']));
        await t.engine.db.exec('UPDATE jobs SET "leaseExpiresAt" = ? WHERE id = ?', [Date.now() - 1, got[0]!.id]);
        const again = (
          await Promise.all(Array.from({ length: 6 }, (_, i) => t.engine.queue.claim(`rescuer-${i}`, 5, 60_000)))
        ).flat();
        expect(again).to.have.length(1);
        expect(again[0]).to.deep.include({ id: got[0]!.id, attempts: 2 });
        expect(again[0]!.stagesDone).to.deep.equal(['intake']);
        // the old owner can no longer checkpoint or renew
        expect(
          await t.engine.db.tx((m) => t.engine.queue.checkpoint(m, got[0]!.id, `owner-${owner}`, ['intake', 'x'])),
        ).to.equal(false);
        expect(await t.engine.queue.renew(got[0]!.id, `owner-${owner}`, 60_000)).to.equal(false);
      } finally {
        await t.stop();
      }
    });

    it('requests for an entry whose job is still queued are merged into that job', async () => {
      const t = await startTestEngine({ dialect, listen: false, config: { workers: { enabled: false } } });
      let w: TestEngine | undefined;
      try {
        const p = await t.engine.principalFor(t.org.name);
        const vin = vinFor(2);
        const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2001 } } });
        await t.engine.service.create(p, { account_data: { vehicle: { vin, make: 'HONDA' } }, sync_nmvtis: true });
        await t.engine.service.create(p, { account_data: { vehicle: { vin }, marks: { third: true } } });
        const jobs = await t.engine.db.query<{ status: string; input: string; initialStatus: string }>(
          'SELECT status, input, "initialStatus" FROM jobs WHERE "entryId" = ?',
          [entryId],
        );
        expect(jobs).to.have.length(1);
        expect(jobs[0]!.status).to.equal('queued');
        expect(jobs[0]!.initialStatus).to.equal('pending');
        expect(JSON.parse(jobs[0]!.input)).to.deep.equal({
          reasons: ['create', 'update'],
          account_data: { vehicle: { vin, year: 2001, make: 'HONDA' }, marks: { third: true } },
          sync_nmvtis: true,
        });
        // a worker engine on the same database runs it once, with everything asked for
        const seen: JobInput[] = [];
        w = await sibling(
          t,
          dialect,
          { stages: ['intake', 'probe'] },
          { probe: stageClass({ name: 'probe', run: (ctx) => void seen.push(structuredClone(ctx.job) as JobInput) }) },
        );
        await idle(t);
        expect(seen).to.have.length(1);
        expect(seen[0]!.reasons).to.deep.equal(['create', 'update']);
        const entry = await t.engine.service.get(p, entryId);
        expect(entry.job_status).to.equal('complete');
        expect(entry.account_data).to.deep.equal({
          vehicle: { vin, year: 2001, make: 'HONDA' },
          marks: { third: true },
        });
      } finally {
        await w?.stop();
        await t.stop();
      }
    });

    if (dialect === 'postgres') {
      it('a request racing a claim is not merged into the job the worker already took', async () => {
        const t = await startTestEngine({ dialect, listen: false, config: { workers: { enabled: false } } });
        const qr = t.engine.db.dataSource.createQueryRunner();
        try {
          const p = await t.engine.principalFor(t.org.name);
          const vin = vinFor(5);
          const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin } } });
          const [{ id: jobId }] = (await t.engine.db.query<{ id: string }>('SELECT id FROM jobs WHERE "entryId" = ?', [
            entryId,
          ])) as [{ id: string }];
          // a worker's claim, not committed yet
          await qr.connect();
          await qr.startTransaction();
          await qr.query('UPDATE jobs SET status = $1, "leaseOwner" = $2, "leaseExpiresAt" = $3 WHERE id = $4', [
            'running',
            'racer',
            Date.now() + 60_000,
            jobId,
          ]);
          // the request sees the job still queued and waits for the claim's row lock
          const request = t.engine.service.create(p, { account_data: { vehicle: { vin }, marks: { late: true } } });
          await eventually(
            async () =>
              (
                await t.engine.db.query<{ n: unknown }>(
                  "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE jobs SET input%'",
                )
              )[0]!.n !== '0',
            { what: 'request waiting on the claim' },
          );
          await qr.commitTransaction();
          await request;
          const jobs = await t.engine.db.query<{ status: string; input: string }>(
            'SELECT status, input FROM jobs WHERE "entryId" = ? ORDER BY status',
            [entryId],
          );
          expect(jobs.map((j) => j.status)).to.deep.equal(['queued', 'running']);
          expect(JSON.parse(jobs[1]!.input), 'the claimed job keeps the input its worker read').to.deep.equal({
            reasons: ['create'],
            account_data: { vehicle: { vin } },
          });
          expect(JSON.parse(jobs[0]!.input), 'the request has a job of its own').to.deep.equal({
            reasons: ['update'],
            account_data: { vehicle: { vin }, marks: { late: true } },
          });
        } finally {
          if (qr.isTransactionActive) await qr.rollbackTransaction();
          await qr.release();
          await t.stop();
        }
      });
    }

    it('a request while a job runs queues one more job, which runs after it', async () => {
      const gates: Gate[] = [];
      const runs: { entryId: string; input: JobInput }[] = [];
      const t = await startTestEngine({
        dialect,
        listen: false,
        config: { stages: ['intake', 'gated'] },
        options: {
          stages: {
            gated: stageClass({
              name: 'gated',
              run: async (ctx) => {
                runs.push({ entryId: ctx.entry.entryId, input: structuredClone(ctx.job) as JobInput });
                const g = new Gate();
                gates.push(g);
                await g.opened;
              },
            }),
          },
        },
      });
      try {
        const p = await t.engine.principalFor(t.org.name);
        const vin = vinFor(3);
        const { entryId } = await t.engine.service.create(p, {
          account_data: { vehicle: { vin }, marks: { m0: true } },
        });
        await eventually(async () => gates.length === 1, { what: 'first run waiting' });
        for (let i = 1; i <= 3; i++)
          await t.engine.service.create(p, { account_data: { vehicle: { vin }, marks: { [`m${i}`]: true } } });
        const jobs = await t.engine.db.query<{ status: string }>(
          'SELECT status FROM jobs WHERE "entryId" = ? ORDER BY status',
          [entryId],
        );
        expect(jobs.map((j) => j.status)).to.deep.equal(['queued', 'running']);
        expect((await t.engine.service.get(p, entryId)).job_status).to.equal('pending');
        gates[0]!.open();
        await eventually(async () => gates.length === 2, { what: 'second run waiting' });
        expect(runs[1]!.input.account_data).to.deep.equal({
          vehicle: { vin },
          marks: { m1: true, m2: true, m3: true },
        });
        gates[1]!.open();
        await idle(t);
        expect(runs.map((r) => r.entryId)).to.deep.equal([entryId, entryId]);
        const entry = await t.engine.service.get(p, entryId);
        expect(entry.job_status).to.equal('complete');
        expect(entry.account_data.marks).to.deep.equal({ m0: true, m1: true, m2: true, m3: true });
      } finally {
        for (const g of gates) g.open();
        await t.stop();
      }
    });

    it('a job that fails while a request queued another folds into it: one job runs next, with both inputs', async () => {
      const gate = new Gate();
      const flaky: { jobId: string }[] = [];
      const intake: { jobId: string; year: unknown }[] = [];
      const t = await startTestEngine({
        dialect,
        listen: false,
        config: { stages: ['intake', 'probe', 'flaky'], workers: { retryBaseMs: 10, pollIntervalMs: 20 } },
        options: {
          stages: {
            probe: stageClass({
              name: 'probe',
              phase: 'pending',
              after: ['intake'],
              run: (ctx) => void intake.push({ jobId: ctx.jobId, year: ctx.entry.account_data.vehicle?.year }),
            }),
            flaky: stageClass({
              name: 'flaky',
              run: async (ctx) => {
                flaky.push({ jobId: ctx.jobId });
                if (flaky.length === 1) {
                  await gate.opened;
                  throw new Error('provider down');
                }
              },
            }),
          },
        },
      });
      try {
        const p = await t.engine.principalFor(t.org.name);
        const vin = vinFor(6);
        const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2001 } } });
        await eventually(async () => flaky.length === 1, { what: 'first run waiting' });
        await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2002 }, marks: { second: true } } });
        gate.open();
        await idle(t);
        expect(flaky.length, 'flaky runs: the failed one, then the merged job once').to.equal(2);
        expect(flaky[1]!.jobId).to.not.equal(flaky[0]!.jobId);
        expect(intake.map((r) => r.year)).to.deep.equal([2001, 2002]);
        const entry = await t.engine.service.get(p, entryId);
        expect(entry.job_status).to.equal('complete');
        expect(entry.account_data).to.deep.equal({ vehicle: { vin, year: 2002 }, marks: { second: true } });
      } finally {
        gate.open();
        await t.stop();
      }
    });

    describe('two engines on one database', () => {
      let a: TestEngine;
      let b: TestEngine;
      const runs: { entryId: string; owner: string; jobId: string }[] = [];
      const active = new Map<string, number>();
      let maxActive = 0;
      const counter = (owner: string) =>
        stageClass({
          name: 'counter',
          run: async (ctx) => {
            const id = ctx.entry.entryId;
            const n = (active.get(id) ?? 0) + 1;
            active.set(id, n);
            maxActive = Math.max(maxActive, n);
            try {
              runs.push({ entryId: id, owner, jobId: ctx.jobId });
              await pause(15, ctx.signal);
            } finally {
              active.set(id, active.get(id)! - 1);
            }
          },
        });

      before(async () => {
        const config = { stages: ['intake', 'counter'], workers: { concurrency: 4, pollIntervalMs: 20 } };
        a = await startTestEngine({ dialect, listen: false, config, options: { stages: { counter: counter('A') } } });
        b = await sibling(a, dialect, config, { counter: counter('B') });
      });
      after(async () => {
        await b?.stop();
        await a?.stop();
      });
      beforeEach(() => {
        runs.length = 0;
        maxActive = 0;
      });

      it('share the work: 100 entries all complete, each job run exactly once', async () => {
        const pa = await a.engine.principalFor(a.org.name);
        const pb = await b.engine.principalFor(a.org.name);
        const created = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            (i % 2 ? b : a).engine.service.create(i % 2 ? pb : pa, {
              account_data: { vehicle: { vin: vinFor(1000 + i) } },
            }),
          ),
        );
        const ids = created.map((c) => c.entryId);
        await eventually(
          async () =>
            (await count(a, 'SELECT COUNT(*) AS n FROM entries WHERE "orgId" = ? AND "jobStatus" = ?', [
              pa.org.id,
              'complete',
            ])) === 100,
          { what: '100 entries complete', tries: 4000 },
        );
        await idle(a);
        const perEntry = new Map<string, number>();
        for (const r of runs) perEntry.set(r.entryId, (perEntry.get(r.entryId) ?? 0) + 1);
        expect([...perEntry.keys()].sort()).to.deep.equal([...ids].sort());
        const twice = [...perEntry].filter(([, n]) => n !== 1);
        expect(twice, 'entries processed more than once').to.deep.equal([]);
        expect(new Set(runs.map((r) => r.jobId)).size).to.equal(100);
        const byOwner = {
          A: runs.filter((r) => r.owner === 'A').length,
          B: runs.filter((r) => r.owner === 'B').length,
        };
        expect(byOwner.A, 'engine A did some').to.be.greaterThan(0);
        expect(byOwner.B, 'engine B did some').to.be.greaterThan(0);
        expect(maxActive).to.equal(1);
        for (const id of ids.slice(0, 10)) expect((await a.engine.service.get(pa, id)).job_status).to.equal('complete');
      });

      it('at most one job of an entry runs at a time, and no request is lost', async () => {
        const pa = await a.engine.principalFor(a.org.name);
        const pb = await b.engine.principalFor(a.org.name);
        const vins = Array.from({ length: 5 }, (_, i) => vinFor(3000 + i));
        const ids = (
          await Promise.all(
            vins.map((vin) => a.engine.service.create(pa, { account_data: { vehicle: { vin }, marks: { m0: true } } })),
          )
        ).map((r) => r.entryId);
        for (let round = 1; round <= 12; round++) {
          await Promise.all(
            vins.flatMap((vin) => [
              a.engine.service.create(pa, { account_data: { vehicle: { vin }, marks: { [`a${round}`]: true } } }),
              b.engine.service.create(pb, { account_data: { vehicle: { vin }, marks: { [`b${round}`]: true } } }),
            ]),
          );
          await new Promise((r) => setTimeout(r, round % 3 === 0 ? 30 : 5));
        }
        await idle(a);
        expect(maxActive, 'jobs of one entry running at once').to.equal(1);
        const expected: Record<string, boolean> = { m0: true };
        for (let round = 1; round <= 12; round++) expected[`a${round}`] = expected[`b${round}`] = true;
        for (const id of ids) {
          const entry = await a.engine.service.get(pa, id);
          expect(entry.job_status).to.equal('complete');
          expect(entry.account_data.marks, `marks of ${id}`).to.deep.equal(expected);
          expect(runs.filter((r) => r.entryId === id).length, 'runs per entry').to.be.greaterThan(1);
        }
      });
    });

    it('a job of a crashed worker is taken over after its lease and resumes from its checkpoint', async () => {
      // (the real-process version is in test/pipeline/crash-resume.test.ts; this one fakes the crash in the table)
      const ran: string[] = [];
      const t = await startTestEngine({ dialect, listen: false, config: { workers: { enabled: false } } });
      let w: TestEngine | undefined;
      try {
        const p = await t.engine.principalFor(t.org.name);
        const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(4) } } });
        const [job] = await t.engine.queue.claim('dead-worker', 1, 60_000);
        await t.engine.db.tx((m) => t.engine.queue.checkpoint(m, job!.id, 'dead-worker', ['intake', 'one']));
        w = await sibling(
          t,
          dialect,
          { stages: ['intake', 'one', 'two'], workers: { leaseMs: 1000 } },
          {
            one: stageClass({ name: 'one', run: () => void ran.push('one') }),
            two: stageClass({ name: 'two', run: () => void ran.push('two') }),
          },
        );
        await new Promise((r) => setTimeout(r, 100));
        expect(ran, 'not taken while the lease holds').to.deep.equal([]);
        await t.engine.db.exec('UPDATE jobs SET "leaseExpiresAt" = ? WHERE id = ?', [Date.now() - 1, job!.id]);
        await idle(t);
        expect(ran).to.deep.equal(['two']);
        expect((await t.engine.service.get(p, entryId)).job_status).to.equal('complete');
      } finally {
        await w?.stop();
        await t.stop();
      }
    });
  });
}
