import { expect } from 'chai';
import type { Principal } from '../../core/auth/authenticator.js';
import type { TitleEntry } from '../../core/index.js';
import { DIALECTS, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { Gate, stageClass, vinFor } from './fixtures/test-stages.js';

/**
 * How the runner checkpoints: one write of the entry per stage, the phase
 * move of the next stage and the job's completion riding on a stage's
 * checkpoint, the entry carried from one stage to the next, and claims
 * driven by wake-ups rather than by the poll interval.
 */
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
const version = async (t: TestEngine, entryId: string) =>
  count(t, 'SELECT version AS n FROM entries WHERE id = ?', [entryId]);
const logLines = (t: TestEngine) => t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

for (const dialect of DIALECTS) {
  describe(`pipeline checkpoints (${dialect})`, function () {
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

    it("writes the entry once per stage; clients see each stage's phase while it runs", async () => {
      let t!: TestEngine;
      let p!: Principal;
      const seen: { stage: string; stored: string }[] = [];
      // what a client reads while the stage runs
      const rec = (stage: string) => async (ctx: { entry: TitleEntry }) =>
        void seen.push({ stage, stored: (await t.engine.service.get(p, ctx.entry.entryId)).job_status });
      ({ t, p } = await boot({
        parse: stageClass({ name: 'parse', phase: 'input_parsing', run: rec('parse') }),
        enrich: stageClass({ name: 'enrich', phase: 'enriching', run: rec('enrich') }),
        skipped: stageClass({ name: 'skipped', phase: 'enriching', appliesTo: () => false }),
        forms: stageClass({ name: 'forms', phase: 'generating_forms', run: rec('forms') }),
      }));
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(1) } } });
      const created = await version(t, entryId);
      await idle(t);
      expect(seen).to.deep.equal([
        { stage: 'parse', stored: 'input_parsing' },
        { stage: 'enrich', stored: 'enriching' },
        { stage: 'forms', stored: 'generating_forms' },
      ]);
      expect(await jobEvents(t, entryId)).to.deep.equal([
        'pending',
        'input_parsing',
        'enriching',
        'generating_forms',
        'complete',
      ]);
      // intake, parse, enrich, forms: one write each; the phase moves and the completion ride on them
      expect((await version(t, entryId)) - created).to.equal(4);
      expect((await t.engine.service.get(p, entryId)).job_status).to.equal('complete');
    });

    it('the next stage sees the entry as a reload would show it (JSON), and so does its appliesTo', async () => {
      const views: unknown[] = [];
      const { t, p } = await boot({
        a: stageClass({
          name: 'a',
          run: (ctx) => {
            ctx.entry.when = new Date(0);
            ctx.entry.gone = undefined;
            ctx.entry.list = [1, undefined];
          },
        }),
        b: stageClass({
          name: 'b',
          appliesTo: (entry) => {
            views.push({ at: 'appliesTo', when: typeof entry.when, gone: 'gone' in entry, list: entry.list });
            return true;
          },
          run: (ctx) =>
            void views.push({
              at: 'run',
              when: typeof ctx.entry.when,
              gone: 'gone' in ctx.entry,
              list: ctx.entry.list,
            }),
        }),
      });
      await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(2) } } });
      await idle(t);
      expect(views).to.deep.equal([
        { at: 'appliesTo', when: 'string', gone: false, list: [1, null] },
        { at: 'run', when: 'string', gone: false, list: [1, null] },
      ]);
    });

    it('a lease lost during a stage rolls back its checkpoint with the next phase; the job resumes after the lease', async () => {
      const gate = new Gate();
      gates.push(gate);
      const runs = { slow: 0, next: 0 };
      const { t, p } = await boot(
        {
          slow: stageClass({
            name: 'slow',
            run: async (ctx) => {
              if (++runs.slow === 1) await gate.opened;
              ctx.entry.slow_result = runs.slow;
            },
          }),
          next: stageClass({ name: 'next', phase: 'generating_forms', run: () => void runs.next++ }),
        },
        { workers: { maxAttempts: 3, retryBaseMs: 10, pollIntervalMs: 20, leaseMs: 1500 } },
      );
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(3) } } });
      await eventually(async () => runs.slow === 1, { what: 'slow running' });
      await t.engine.db.exec('UPDATE jobs SET "leaseOwner" = ? WHERE "entryId" = ?', ['another-worker', entryId]);
      gate.open();
      await eventually(async () => logLines(t).some((l) => l.code === 'JOB_GONE' && l.entryId === entryId), {
        what: 'JOB_GONE logged',
      });
      const stored = await t.engine.service.get(p, entryId);
      expect(stored.job_status, 'the next phase was not shown').to.equal('enriching');
      expect(stored.slow_result).to.equal(undefined);
      expect(runs.next).to.equal(0);
      // the other worker "died": its lease runs out and the job runs again from the unfinished stage
      await idle(t);
      expect(runs).to.deep.equal({ slow: 2, next: 1 });
      const entry = await t.engine.service.get(p, entryId);
      expect(entry.job_status).to.equal('complete');
      expect(entry.slow_result).to.equal(2);
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'generating_forms', 'complete']);
    });

    it('a lease lost during the last stage rolls back its checkpoint with the completion', async () => {
      const gate = new Gate();
      gates.push(gate);
      let runs = 0;
      const { t, p } = await boot(
        {
          last: stageClass({
            name: 'last',
            run: async (ctx) => {
              if (++runs === 1) await gate.opened;
              ctx.entry.last_result = runs;
            },
          }),
        },
        { workers: { maxAttempts: 3, retryBaseMs: 10, pollIntervalMs: 20, leaseMs: 1500 } },
      );
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(4) } } });
      await eventually(async () => runs === 1, { what: 'last running' });
      await t.engine.db.exec('UPDATE jobs SET "leaseOwner" = ? WHERE "entryId" = ?', ['another-worker', entryId]);
      gate.open();
      await eventually(async () => logLines(t).some((l) => l.code === 'JOB_GONE' && l.entryId === entryId), {
        what: 'JOB_GONE logged',
      });
      expect((await t.engine.service.get(p, entryId)).job_status).to.equal('enriching');
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching']);
      expect(
        await count(t, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ?', [entryId]),
        'the job is still there',
      ).to.equal(1);
      await idle(t);
      expect(runs).to.equal(2);
      expect((await t.engine.service.get(p, entryId)).last_result).to.equal(2);
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'complete']);
    });

    it('an appliesTo that throws after a stage fails the job then, with the stage checkpointed', async () => {
      const runs = { a: 0, b: 0, asked: 0 };
      const { t, p } = await boot({
        a: stageClass({
          name: 'a',
          run: (ctx) => {
            runs.a++;
            ctx.entry.a_done = true;
          },
        }),
        b: stageClass({
          name: 'b',
          phase: 'generating_forms',
          appliesTo: () => {
            if (++runs.asked === 1) throw new Error('rules not loaded yet');
            return true;
          },
          run: () => void runs.b++,
        }),
      });
      const { entryId } = await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(5) } } });
      await idle(t);
      expect(runs).to.deep.equal({ a: 1, b: 1, asked: 2 });
      const failed = logLines(t).filter((l) => l.code === 'STAGE_FAILED_RETRY');
      expect(
        failed.map((l) => (l.err as { message: string }).message),
        'the wrapper names the plugin and the hook',
      ).to.deep.equal(["plugin 'b' failed in appliesTo: rules not loaded yet"]);
      expect(failed.map((l) => [l.stage, l.hook])).to.deep.equal([['b', 'appliesTo']]);
      const entry = await t.engine.service.get(p, entryId);
      expect(entry).to.deep.include({ job_status: 'complete', a_done: true });
      expect(await jobEvents(t, entryId)).to.deep.equal(['pending', 'enriching', 'generating_forms', 'complete']);
    });

    it('without the periodic poll, wake-ups and finished jobs alone get every job run', async () => {
      const gate = new Gate();
      gates.push(gate);
      const ran: string[] = [];
      const { t, p } = await boot(
        {
          work: stageClass({
            name: 'work',
            run: async (ctx) => {
              ran.push(ctx.entry.entryId);
              if (ran.length === 1) await gate.opened;
            },
          }),
        },
        { workers: { concurrency: 2, pollIntervalMs: 600_000 } },
      );
      const vins = Array.from({ length: 8 }, (_, i) => vinFor(100 + i));
      // the first job waits in its stage; a second job for its entry is queued behind it
      const first = await t.engine.service.create(p, { account_data: { vehicle: { vin: vins[0]! } } });
      await eventually(async () => ran.length === 1, { what: 'first job running' });
      await t.engine.service.create(p, { account_data: { vehicle: { vin: vins[0]!, year: 2004 } } });
      const others = await Promise.all(
        vins.slice(1).map((vin) => t.engine.service.create(p, { account_data: { vehicle: { vin } } })),
      );
      await eventually(async () => ran.length === 8, { what: 'the other entries run on the second worker' });
      gate.open();
      await idle(t);
      expect(
        ran.filter((id) => id === first.entryId),
        'the queued job ran after the first',
      ).to.have.length(2);
      for (const { entryId } of [first, ...others])
        expect((await t.engine.service.get(p, entryId)).job_status).to.equal('complete');
      expect((await t.engine.service.get(p, first.entryId)).account_data.vehicle?.year).to.equal(2004);
    });
  });
}
