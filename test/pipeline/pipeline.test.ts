import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  createEngine,
  EngineConfigError,
  PermanentStageFailure,
  type Engine,
  type EngineOptions,
  type StagePlugin,
} from '../../index.js';
import type { EntityManager } from 'typeorm';
import { EntryStore } from '../../core/store/entry-store.js';
import { DIALECTS, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { Gate, stageClass, vinFor } from './fixtures/test-stages.js';

const sink = () =>
  new Writable({
    write(_c, _e, cb) {
      cb();
    },
  });
const count = async (t: TestEngine, sql: string, params: unknown[] = []) =>
  Number((await t.engine.db.query<{ n: unknown }>(sql, params))[0]!.n);
const idle = (t: TestEngine) =>
  eventually(async () => (await count(t, 'SELECT COUNT(*) AS n FROM jobs WHERE status <> ?', ['failed'])) === 0, {
    what: 'no jobs left',
    tries: 4000,
  });
const jobEvents = async (t: TestEngine, entryId: string) =>
  (await t.engine.outbox.forEntry(entryId))
    .filter((e) => e.name.startsWith('title.job_status.'))
    .map((e) => e.name.slice('title.job_status.'.length));
const logLines = (t: TestEngine) => t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

/** An engine on a fresh SQLite folder, not started (configuration checks). */
async function bareEngine(
  config: Record<string, unknown>,
  options: EngineOptions = {},
): Promise<{ engine: Engine; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titled-pipe-'));
  let engine: Engine;
  try {
    engine = await createEngine({ dataDir, port: 0, ...config }, { logDestination: sink(), ...options });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    engine,
    cleanup: async () => {
      await engine.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('pipeline configuration', () => {
  it('orders stages by config, moving a stage after the stages in its `after`', async () => {
    const { engine, cleanup } = await bareEngine(
      { stages: ['intake', 'late', 'early', 'last'] },
      {
        stages: {
          late: stageClass({ name: 'late', after: ['early'] }),
          early: stageClass({ name: 'early' }),
          last: stageClass({ name: 'last' }),
        },
      },
    );
    try {
      await engine.start();
      expect(engine.stages.map((s) => s.name)).to.deep.equal(['intake', 'early', 'late', 'last']);
    } finally {
      await cleanup();
    }
  });

  it('a missing dependency is a start-up error naming both stages', async () => {
    const { engine, cleanup } = await bareEngine(
      { stages: ['intake', 'a'] },
      {
        stages: { a: stageClass({ name: 'a', after: ['b'] }), b: stageClass({ name: 'b' }) },
      },
    );
    try {
      const err = await engine.start().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(EngineConfigError);
      expect((err as Error).message).to.contain("stage 'a' needs 'b', which is not enabled");
    } finally {
      await cleanup();
    }
  });

  it('a stage in config that no class provides is a start-up error', async () => {
    const err = await bareEngine({ stages: ['intake', 'ghost'] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(EngineConfigError);
    expect((err as Error).message).to.contain("'ghost'");
  });

  it('a stage class whose name differs from its config name is a start-up error', async () => {
    const err = await bareEngine(
      { stages: ['intake', 'alias'] },
      { stages: { alias: stageClass({ name: 'real' }) } },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(EngineConfigError);
    expect((err as Error).message).to.contain("'real'");
  });

  it('stages whose phases would go backwards are a start-up error', async () => {
    const { engine, cleanup } = await bareEngine(
      { stages: ['intake', 'forms', 'enrich'] },
      {
        stages: {
          forms: stageClass({ name: 'forms', phase: 'generating_forms' }),
          enrich: stageClass({ name: 'enrich', phase: 'enriching' }),
        },
      },
    );
    try {
      const err = await engine.start().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(EngineConfigError);
      expect((err as Error).message).to.contain("'enrich'");
    } finally {
      await cleanup();
    }
  });

  it('registerStage works before start() and throws after it', async () => {
    const { engine, cleanup } = await bareEngine({ stages: ['intake'], workers: { enabled: false } });
    const Extra = stageClass({ name: 'extra' });
    const Later = stageClass({ name: 'later' });
    try {
      engine.registerStage(new Extra() as StagePlugin);
      expect(() => engine.registerStage(new Extra() as StagePlugin), 'a name registered twice').to.throw(
        EngineConfigError,
        /twice/,
      );
      await engine.start();
      expect(engine.stages.map((s) => s.name)).to.deep.equal(['intake', 'extra']);
      expect(() => engine.registerStage(new Later() as StagePlugin)).to.throw(EngineConfigError, /already started/);
      expect(engine.stages.map((s) => s.name)).to.deep.equal(['intake', 'extra']);
    } finally {
      await cleanup();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`pipeline (${dialect})`, function () {
    const engines: TestEngine[] = [];
    const gates: Gate[] = [];
    const boot = async (
      stages: Record<string, ReturnType<typeof stageClass>>,
      config: Record<string, unknown> = {},
    ) => {
      const t = await startTestEngine({
        dialect,
        listen: false,
        config: {
          stages: ['intake', ...Object.keys(stages)],
          workers: { maxAttempts: 3, retryBaseMs: 10, pollIntervalMs: 20 },
          ...config,
        },
        options: { stages },
      });
      engines.push(t);
      return { t, p: await t.engine.principalFor(t.org.name) };
    };
    afterEach(async () => {
      for (const g of gates.splice(0)) g.open();
      for (const t of engines.splice(0)) await t.stop();
    });

    it('runs stages in config/after order, moving job_status through the phases', async () => {
      const ran: { stage: string; status: string }[] = [];
      const rec = (name: string) => (ctx: { entry: { job_status: string } }) =>
        void ran.push({ stage: name, status: ctx.entry.job_status });
      const { t, p } = await boot(
        {
          forms: stageClass({ name: 'forms', phase: 'generating_forms', after: ['enrich'], run: rec('forms') }),
          parse: stageClass({ name: 'parse', phase: 'input_parsing', run: rec('parse') }),
          enrich: stageClass({ name: 'enrich', phase: 'enriching', run: rec('enrich') }),
        },
        { stages: ['intake', 'parse', 'forms', 'enrich'] },
      );
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(1) } } });
      await idle(t);
      expect(ran).to.deep.equal([
        { stage: 'parse', status: 'input_parsing' },
        { stage: 'enrich', status: 'enriching' },
        { stage: 'forms', status: 'generating_forms' },
      ]);
      expect(await jobEvents(t, entryId)).to.deep.equal([
        'pending',
        'input_parsing',
        'enriching',
        'generating_forms',
        'complete',
      ]);
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.processingTimeMs).to.be.a('number');
    });

    it('skips phases with no applicable stage', async () => {
      const { t, p } = await boot({
        parse: stageClass({ name: 'parse', phase: 'input_parsing', appliesTo: (_e, job) => !!job.attachments?.length }),
        forms: stageClass({ name: 'forms', phase: 'generating_forms' }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(2) } } });
      await idle(t);
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'generating_forms', 'complete']);
    });

    it('retries a throwing stage and does not run finished stages again', async () => {
      const runs: Record<string, number> = { before: 0, flaky: 0 };
      const { t, p } = await boot({
        before: stageClass({ name: 'before', run: () => void runs.before!++ }),
        flaky: stageClass({
          name: 'flaky',
          run: (ctx) => {
            runs.flaky!++;
            if (ctx.attempt < 3) throw new Error(`flake ${ctx.attempt}`);
            ctx.entry.flaky_done = true;
          },
        }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(3) } } });
      await idle(t);
      expect(runs).to.deep.equal({ before: 1, flaky: 3 });
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.flaky_done).to.equal(true);
      expect(entry.job_error).to.equal(undefined);
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'complete']);
    });

    it('a stage that fails maxAttempts times leaves job_status error, naming the stage', async () => {
      let runs = 0;
      let after = 0;
      const { t, p } = await boot({
        bad: stageClass({
          name: 'bad',
          run: () => {
            runs++;
            throw new Error('provider exploded');
          },
        }),
        after: stageClass({ name: 'after', phase: 'generating_forms', run: () => void after++ }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(4) } } });
      const entry = await eventually(
        async () => {
          const e = await t.engine.service.get(p, entryId);
          return e.job_status === 'error' ? e : null;
        },
        { what: 'job_status error', tries: 4000 },
      );
      expect(runs).to.equal(3);
      expect(after).to.equal(0);
      expect(entry.job_error).to.deep.include({ stage: 'bad', attempts: 3 });
      expect((entry.job_error as { message: string }).message).to.contain('provider exploded');
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'error']);
      const jobs = await t.engine.db.query<{ status: string; attempts: unknown }>(
        'SELECT status, attempts FROM jobs WHERE "entryId" = ?',
        [entryId],
      );
      expect(jobs.map((j) => [j.status, Number(j.attempts)])).to.deep.equal([['failed', 3]]);
    });

    it('a stage that throws PermanentStageFailure fails at once', async () => {
      let runs = 0;
      const { t, p } = await boot({
        doomed: stageClass({
          name: 'doomed',
          run: () => {
            runs++;
            throw new PermanentStageFailure('VIN belongs to a boat');
          },
        }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(5) } } });
      const entry = await eventually(
        async () => {
          const e = await t.engine.service.get(p, entryId);
          return e.job_status === 'error' ? e : null;
        },
        { what: 'job_status error' },
      );
      expect(runs).to.equal(1);
      expect(entry.job_error).to.deep.include({ stage: 'doomed', attempts: 1 });
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'error']);
    });

    it('a job that failed for good runs again on a later request, and success clears job_error', async () => {
      let fail = true;
      let runs = 0;
      const { t, p } = await boot({
        moody: stageClass({
          name: 'moody',
          run: () => {
            runs++;
            if (fail) throw new PermanentStageFailure('no');
          },
        }),
      });
      const vin = vinFor(6);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin } } });
      await eventually(async () => (await t.engine.service.get(p, entryId)).job_status === 'error', { what: 'error' });
      fail = false;
      await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2010 } } });
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.job_error).to.equal(undefined);
      expect(entry.account_data.vehicle?.year).to.equal(2010);
      expect(runs).to.equal(2);
      expect(await jobEvents(t, entryId)).to.deep.equal([
        'pending',
        'enriching',
        'error',
        'pending',
        'enriching',
        'complete',
      ]);
    });

    it('a stage over its timeoutMs is aborted through ctx.signal and counted as a failure', async () => {
      const aborts: unknown[] = [];
      const { t, p } = await boot({
        sleepy: stageClass({
          name: 'sleepy',
          timeoutMs: 100,
          run: (ctx) =>
            new Promise<void>((resolve) => {
              ctx.signal.addEventListener(
                'abort',
                () => {
                  aborts.push(ctx.signal.reason);
                  resolve();
                },
                { once: true },
              );
            }),
        }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(7) } } });
      const entry = await eventually(
        async () => {
          const e = await t.engine.service.get(p, entryId);
          return e.job_status === 'error' ? e : null;
        },
        { what: 'job_status error', tries: 4000 },
      );
      expect(aborts).to.have.length(3);
      for (const r of aborts) expect(String((r as Error)?.message)).to.contain('timed out');
      expect(entry.job_error).to.deep.include({ stage: 'sleepy', attempts: 3 });
      expect((entry.job_error as { message: string }).message).to.contain('timed out');
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'error']);
    });

    it('a PATCH while a stage runs is not lost (non-conflicting members are merged)', async () => {
      const gate = new Gate();
      gates.push(gate);
      let runs = 0;
      const { t, p } = await boot({
        slow: stageClass({
          name: 'slow',
          run: async (ctx) => {
            runs++;
            await gate.opened;
            ctx.entry.slow_result = { ok: true };
          },
        }),
        next: stageClass({
          name: 'next',
          phase: 'generating_forms',
          run: (ctx) => {
            ctx.entry.next_saw_color = ctx.entry.account_data.vehicle?.color ?? null;
          },
        }),
      });
      const vin = vinFor(8);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2001 } } });
      await eventually(async () => runs === 1, { what: 'stage running' });
      const patched = await t.engine.service.patch(p, entryId, { account_data: { vehicle: { color: 'RED' } } });
      expect(patched.account_data.vehicle).to.deep.include({ vin, year: 2001, color: 'RED' });
      gate.open();
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(runs, 'no replay needed').to.equal(1);
      expect(entry.job_status).to.equal('complete');
      expect(entry.account_data.vehicle).to.deep.include({ vin, year: 2001, color: 'RED' });
      expect(entry.loanData.vehicle).to.deep.include({ color: 'RED' });
      expect(entry.slow_result).to.deep.equal({ ok: true });
      expect(entry.next_saw_color).to.equal('RED');
    });

    it('ctx.progress shows a member while the stage runs, without a replay, and a PATCH meanwhile is kept', async () => {
      const halfway = new Gate();
      const finish = new Gate();
      gates.push(halfway, finish);
      let runs = 0;
      const { t, p } = await boot({
        steps: stageClass({
          name: 'steps',
          run: async (ctx) => {
            runs++;
            await ctx.progress({ step_status: { a: 'processing', b: 'queued' } });
            expect(ctx.entry.step_status).to.deep.equal({ a: 'processing', b: 'queued' });
            await halfway.opened;
            await ctx.progress({ step_status: { a: 'complete', b: 'processing' } });
            await finish.opened;
            ctx.entry.step_status = { a: 'complete', b: 'complete' };
          },
        }),
      });
      const vin = vinFor(10);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin } } });
      const seen = async (want: unknown) =>
        eventually(
          async () => {
            const e = await t.engine.service.get(p, entryId);
            return JSON.stringify(e.step_status) === JSON.stringify(want) ? e : null;
          },
          { what: `step_status ${JSON.stringify(want)}` },
        );
      const first = await seen({ a: 'processing', b: 'queued' });
      expect(first.job_status).to.equal('enriching');
      // someone else writes the entry between two progress writes
      await t.engine.service.patch(p, entryId, { account_data: { vehicle: { color: 'GREEN' } } });
      halfway.open();
      await seen({ a: 'complete', b: 'processing' });
      finish.open();
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(runs, 'progress is not a change of someone else: no replay').to.equal(1);
      expect(entry.job_status).to.equal('complete');
      expect(entry.step_status).to.deep.equal({ a: 'complete', b: 'complete' });
      expect(entry.account_data.vehicle?.color).to.equal('GREEN');
      // progress emits no events: the job's status moves only
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'complete']);
    });

    it('a PATCH of a member the running stage also changes makes the stage run again on the fresh entry', async () => {
      const gate = new Gate();
      gates.push(gate);
      let runs = 0;
      const { t, p } = await boot({
        pricer: stageClass({
          name: 'pricer',
          run: async (ctx) => {
            runs++;
            if (runs === 1) await gate.opened;
            ctx.account.contribute({ id: 'plugin:pricer', kind: 'plugin', record: { sale: { sale_price: 12_000 } } });
          },
        }),
      });
      const vin = vinFor(9);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin } } });
      await eventually(async () => runs === 1, { what: 'stage running' });
      await t.engine.service.patch(p, entryId, { account_data: { vehicle: { color: 'BLUE' } } });
      gate.open();
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(runs).to.equal(2);
      expect(entry.account_data.vehicle?.color).to.equal('BLUE');
      expect(entry.account_data.sale?.sale_price).to.equal(12_000);
      expect(entry.job_status).to.equal('complete');
    });

    it('a request while a job waits for its retry makes it run every stage again, with the new data', async () => {
      const ran: { stage: string; jobId: string; year: unknown }[] = [];
      let flakyRuns = 0;
      const { t, p } = await boot(
        {
          probe: stageClass({
            name: 'probe',
            phase: 'pending',
            after: ['intake'],
            run: (ctx) =>
              void ran.push({ stage: 'probe', jobId: ctx.jobId, year: ctx.entry.account_data.vehicle?.year }),
          }),
          flaky: stageClass({
            name: 'flaky',
            run: () => {
              if (++flakyRuns === 1) throw new Error('provider down');
            },
          }),
        },
        { workers: { maxAttempts: 3, retryBaseMs: 2000, pollIntervalMs: 20 } },
      );
      const vin = vinFor(11);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2001 } } });
      // the job failed once and waits (1 to 2 s) for its retry, its first stages checkpointed
      await eventually(
        async () =>
          (
            await t.engine.db.query<{ status: string; lastError: string | null }>(
              'SELECT status, "lastError" FROM jobs WHERE "entryId" = ?',
              [entryId],
            )
          ).some((j) => j.status === 'queued' && j.lastError),
        { what: 'job waiting for its retry' },
      );
      await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2002 } } });
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.account_data.vehicle?.year, 'the request made while the job waited is applied').to.equal(2002);
      expect(ran.map((r) => r.year)).to.deep.equal([2001, 2002]);
      expect(flakyRuns).to.equal(2);
    });

    it('a job failing for good while a request is queued shows the error, then runs the queued job', async () => {
      const gate = new Gate();
      gates.push(gate);
      let runs = 0;
      const { t, p } = await boot({
        doomed: stageClass({
          name: 'doomed',
          run: async () => {
            if (++runs === 1) {
              await gate.opened;
              throw new PermanentStageFailure('bad data');
            }
          },
        }),
      });
      const vin = vinFor(12);
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2001 } } });
      await eventually(async () => runs === 1, { what: 'first run waiting' });
      await t.engine.service.create(p, { account_data: { vehicle: { vin, year: 2002 } } });
      gate.open();
      await idle(t);
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.job_error).to.equal(undefined);
      expect(entry.account_data.vehicle?.year).to.equal(2002);
      expect(runs).to.equal(2);
      expect(await jobEvents(t, entryId)).to.deep.equal([
        'pending',
        'enriching',
        'pending',
        'error',
        'pending',
        'enriching',
        'complete',
      ]);
    });

    it("a request that moves job_status between a stage's phase check and its status move does not fail the job", async () => {
      // The runner looks at job_status, then moves it to the stage's phase in a transaction of its own. A
      // request (here: POST /fees, done by hand) lands in between, at the moment the stage's appliesTo runs.
      let onCheck: (() => void) | undefined;
      const parse = stageClass({
        name: 'parse',
        phase: 'input_parsing',
        appliesTo: () => {
          const f = onCheck;
          onCheck = undefined;
          f?.();
          return true;
        },
      });
      const enrich = stageClass({ name: 'enrich', phase: 'enriching' });
      const { t, p } = await boot({ parse, enrich }, { workers: { enabled: false } });
      const { entryId } = await t.engine.service.create(p, {});
      const store = t.engine.container.resolve(EntryStore);
      const feesRequest = async (m: EntityManager) => {
        const found = (await store.load(p.org.id, entryId, m))!;
        await store.setJobStatus(m, p.org.id, found.entry, 'enriching', { trigger: 'fees' });
        await store.save(m, p.org.id, found.entry);
        await t.engine.queue.enqueue(m, {
          entryId,
          orgId: p.org.id,
          input: { reasons: ['fees'] },
          initialStatus: 'enriching',
        });
      };
      let request: Promise<void> | undefined;
      const qr = t.engine.db.dataSource.createQueryRunner();
      try {
        if (dialect === 'sqlite') {
          // SQLite runs transactions one after another, in the order asked: this one goes before the runner's
          onCheck = () => void (request = t.engine.db.tx(feesRequest));
        } else {
          // PostgreSQL: hold the entry's row, so the runner's transaction waits for the request's commit
          await qr.connect();
          await qr.startTransaction();
          await store.load(p.org.id, entryId, qr.manager);
          request = new Promise<void>((resolve, reject) => {
            onCheck = () =>
              void feesRequest(qr.manager)
                .then(() => qr.commitTransaction())
                .then(resolve, reject);
          });
        }
        const w = await startTestEngine({
          dialect,
          listen: false,
          dataDir: t.dataDir,
          schema: t.engine.config.databaseSchema,
          config: { stages: ['intake', 'parse', 'enrich'], workers: { pollIntervalMs: 20 } },
          options: { stages: { parse, enrich } },
        });
        engines.unshift(w);
        await eventually(async () => request !== undefined, { what: 'the request made' });
        await request;
        await idle(t);
        expect(
          logLines(w).filter((l) => Number(l.level) >= 40),
          'warnings',
        ).to.deep.equal([]);
        expect((await t.engine.service.get(p, entryId)).job_status).to.equal('complete');
        expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'complete']);
      } finally {
        if (qr.isTransactionActive) await qr.rollbackTransaction();
        if (dialect === 'postgres') await qr.release();
      }
    });

    it('deleting an entry while its job runs ends the job quietly', async () => {
      const gate = new Gate();
      gates.push(gate);
      let runs = 0;
      let nextRuns = 0;
      const { t, p } = await boot(
        {
          slow: stageClass({
            name: 'slow',
            run: async (ctx) => {
              runs++;
              await gate.opened;
              ctx.entry.slow_result = 1;
            },
          }),
          next: stageClass({ name: 'next', phase: 'generating_forms', run: () => void nextRuns++ }),
        },
        { workers: { maxAttempts: 3, retryBaseMs: 10, pollIntervalMs: 20, leaseMs: 1000 } },
      );
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(10) } } });
      await eventually(async () => runs === 1, { what: 'stage running' });
      const res = await t.engine.service.delete(p, entryId);
      expect(res.deletedCount).to.equal(1);
      gate.open();
      await eventually(async () => logLines(t).some((l) => l.code === 'JOB_GONE' && l.entryId === entryId), {
        what: 'JOB_GONE logged',
      });
      // the job is gone for good: no row left behind to be claimed again when its lease runs out
      await eventually(
        async () => (await count(t, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ?', [entryId])) === 0,
        { what: 'job row removed' },
      );
      // wait past a lease period: nobody picks the job up again
      await new Promise((r) => setTimeout(r, 1300));
      expect(runs).to.equal(1);
      expect(nextRuns).to.equal(0);
      const noisy = logLines(t).filter(
        (l) =>
          l.entryId === entryId &&
          (Number(l.level) >= 40 || l.code === 'JOB_FAILED' || l.code === 'STAGE_FAILED_RETRY'),
      );
      expect(noisy, 'warnings or errors logged').to.deep.equal([]);
      expect(await count(t, 'SELECT COUNT(*) AS n FROM entries WHERE id = ?', [entryId])).to.equal(0);
      expect(await count(t, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ?', [entryId])).to.equal(0);
    });
  });
}
