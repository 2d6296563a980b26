import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { api, createMany, waitComplete } from '../lib/api.js';
import { warmAndLoad, type LoadResult } from '../lib/load.js';
import { rssOf, sleep, startChild } from '../lib/proc.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';
import { createBody } from '../lib/vin.js';

const CONNECTIONS = 10;
const SEED = 1_000;
const PIPELINE_N = 2_000;
/** GET runs alternate engine, baseline, engine, baseline...: drift on a shared machine hits both sides alike. */
const GET_ROUNDS = 3;
const MB = 1024 * 1024;

type DaemonReady = { port: number; key: string };

function loadDetail(r: LoadResult): Record<string, unknown> {
  return {
    requests: r.total2xx,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: r.durationS,
    rps: Math.round(r.rps),
    latency_p50_ms: r.latencyMs.p50,
    latency_p99_ms: r.latencyMs.p99,
    bytes_per_response: r.bytesPerResponse,
  };
}

function assertClean(what: string, r: LoadResult): void {
  if (r.non2xx || r.errors || r.total2xx === 0)
    throw new Error(`${what}: ${r.total2xx} ok, ${r.non2xx} non-2xx, ${r.errors} errors`);
}

/** Requests per second over several runs (total 2xx / total seconds). */
function pooled(runs: LoadResult[]): number {
  const s = runs.reduce((a, r) => a + r.durationS, 0);
  return s > 0 ? runs.reduce((a, r) => a + r.total2xx, 0) / s : 0;
}

/** The median requests per second of several runs: one run disturbed by another process on the machine does not move it. */
function median(runs: LoadResult[]): number {
  const v = runs.map((r) => r.rps).sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const PII_ROUNDS = 2;
type StartDaemon = (dir: string, env?: Record<string, string>) => ReturnType<typeof startChild<DaemonReady>>;

/**
 * Creates whose borrower has an SSN, a date of birth and a license number, on
 * a daemon with PII encryption at rest on and one with it off, in turn (off,
 * on, off, on), each on a fresh data folder.
 */
async function piiCreates(
  ctx: SuiteContext,
  startDaemon: StartDaemon,
  seconds: number,
  warmupS: number,
): Promise<{ on: LoadResult[]; off: LoadResult[] }> {
  const out: { on: LoadResult[]; off: LoadResult[] } = { on: [], off: [] };
  let n = 0;
  for (let round = 0; round < PII_ROUNDS; round++) {
    for (const side of ['off', 'on'] as const) {
      const d = await startDaemon(ctx.tmpDir(`titled-bench-pii-${side}-`), { BENCH_ENCRYPTION: side });
      try {
        ctx.log(
          `round ${round + 1}/${PII_ROUNDS}: POST /title with PII, encryption ${side}: ` +
            `${warmupS} s warm-up + ${seconds} s`,
        );
        const r = await warmAndLoad(
          {
            url: d.url,
            connections: CONNECTIONS,
            durationS: seconds,
            method: 'POST',
            path: '/title',
            headers: { authorization: `Bearer ${d.ready.key}`, 'content-type': 'application/json' },
            next: () => ({ body: createBody('3VWDX7AJ', n++, { pii: true }) }),
          },
          warmupS,
        );
        assertClean(`POST with PII, encryption ${side}`, r);
        out[side].push(r);
      } finally {
        await d.stop();
      }
    }
  }
  return out;
}

/**
 * The foundation: the HTTP read path against a bare Koa + better-sqlite3
 * baseline, the create path, the intake pipeline, and idle memory.
 */
export const foundation: Suite = {
  name: 'foundation',
  description: 'GET /title/{id} vs bare Koa+SQLite, POST /title creates, create-to-complete with intake, idle RSS',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const durationS = Math.max(1, Math.round(10 * ctx.scale));
    const roundS = Math.max(1, Math.round(durationS / GET_ROUNDS));
    const warmupS = Math.max(1, Math.round(2 * ctx.scale));
    const daemonJs = join(ctx.benchDir, 'daemon.js');
    const baselineJs = join(ctx.benchDir, 'baseline-koa.js');
    const rand = (n: number) => Math.floor(Math.random() * n);
    const startDaemon = (dir: string, env: Record<string, string> = {}) =>
      startChild<DaemonReady>(daemonJs, {
        env: { BENCH_DATA_DIR: dir, BENCH_ORG: 'bench', ...env },
        execArgv: ctx.execArgv,
      });

    // --- A: daemon on a fresh SQLite folder: idle RSS, then seed
    const dirA = ctx.tmpDir('titled-bench-get-');
    ctx.log(`starting daemon (data ${dirA})`);
    let d = await startDaemon(dirA);
    let idleRss: number | null;
    let ids: string[];
    let sample: { id: string; engine: string };
    try {
      await sleep(3000);
      idleRss = rssOf(d.pid);
      ctx.log(`idle RSS ${idleRss === null ? 'n/a' : (idleRss / MB).toFixed(1) + ' MB'}; seeding ${SEED} entries`);
      const key = d.ready.key;
      ids = await createMany(d.url, key, SEED, (i) => createBody('1HGCM826', i), CONNECTIONS);
      await waitComplete(d.url, key, SEED);
      const id = ids[rand(ids.length)]!;
      const one = await api(d.url, key, 'GET', `/title/${id}`);
      if (one.status !== 200 || (JSON.parse(one.text) as { job_status: string }).job_status !== 'complete')
        throw new Error(`GET /title/${id}: ${one.status} ${one.text.slice(0, 300)}`);
      sample = { id, engine: one.text };
    } catch (e) {
      await d.stop();
      throw e;
    }

    // --- GET /title/{id}: engine and baseline in turn, never both running
    const engineRuns: LoadResult[] = [];
    const baseRuns: LoadResult[] = [];
    let afterLoadRss: number | null = null;
    for (let round = 0; round < GET_ROUNDS; round++) {
      if (round > 0) d = await startDaemon(dirA);
      try {
        ctx.log(
          `round ${round + 1}/${GET_ROUNDS}: GET /title/{id} on the engine, ${warmupS} s warm-up + ${roundS} s, ${CONNECTIONS} connections`,
        );
        const r = await warmAndLoad(
          {
            url: d.url,
            connections: CONNECTIONS,
            durationS: roundS,
            headers: { authorization: `Bearer ${d.ready.key}` },
            next: () => ({ path: `/title/${ids[rand(ids.length)]}` }),
          },
          warmupS,
        );
        assertClean('engine GET', r);
        engineRuns.push(r);
        afterLoadRss ??= rssOf(d.pid);
      } finally {
        await d.stop();
      }

      ctx.log(`round ${round + 1}/${GET_ROUNDS}: GET /title/{id} on the bare Koa + better-sqlite3 baseline`);
      const b = await startChild(baselineJs, {
        env: { BENCH_DB: join(dirA, 'titled.sqlite') },
        execArgv: ctx.execArgv,
      });
      try {
        if (round === 0) {
          const one = await fetch(`${b.url}/title/${sample.id}`);
          const text = await one.text();
          if (one.status !== 200 || !isDeepStrictEqual(JSON.parse(text), JSON.parse(sample.engine))) {
            throw new Error(`baseline and engine disagree on entry ${sample.id}: ${one.status} ${text.slice(0, 200)}`);
          }
        }
        const r = await warmAndLoad(
          {
            url: b.url,
            connections: CONNECTIONS,
            durationS: roundS,
            next: () => ({ path: `/title/${ids[rand(ids.length)]}` }),
          },
          warmupS,
        );
        assertClean('baseline GET', r);
        baseRuns.push(r);
      } finally {
        await b.stop();
      }
    }

    // --- B: fresh daemon: create-to-complete throughput, then sustained creates
    const dirB = ctx.tmpDir('titled-bench-post-');
    const d2 = await startDaemon(dirB);
    let pipeline: { seconds: number; createSeconds: number };
    let post: LoadResult;
    try {
      const key = d2.ready.key;
      ctx.log(`create ${PIPELINE_N} entries and wait for job_status complete (intake only)`);
      const t0 = performance.now();
      await createMany(d2.url, key, PIPELINE_N, (i) => createBody('2T1BU4EE', i), CONNECTIONS);
      const t1 = performance.now();
      const t2 = await waitComplete(d2.url, key, PIPELINE_N, { everyMs: 25 });
      pipeline = { seconds: (t2 - t0) / 1000, createSeconds: (t1 - t0) / 1000 };

      ctx.log(`POST /title structured creates: ${warmupS} s warm-up + ${durationS} s, ${CONNECTIONS} connections`);
      let n = 0;
      post = await warmAndLoad(
        {
          url: d2.url,
          connections: CONNECTIONS,
          durationS,
          method: 'POST',
          path: '/title',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          next: () => ({ body: createBody('5YJSA1E2', n++) }),
        },
        warmupS,
      );
      assertClean('engine POST', post);
    } finally {
      await d2.stop();
    }

    const pii = await piiCreates(ctx, startDaemon, Math.max(1, Math.round(durationS / PII_ROUNDS)), warmupS);

    const engineRps = median(engineRuns);
    const baseRps = median(baseRuns);
    return [
      {
        name: 'get_title_rps',
        label: 'GET /title/{id} (engine vs bare Koa+SQLite)',
        value: engineRps,
        unit: 'req/s',
        baseline: { label: 'bare Koa + better-sqlite3', value: baseRps },
        target: { op: '>=', value: 0.5, on: 'ratio' },
        detail: {
          connections: CONNECTIONS,
          entries: SEED,
          rounds: GET_ROUNDS,
          statistic: 'median of the rounds, per side',
          pooled_rps: { engine: Math.round(pooled(engineRuns)), baseline: Math.round(pooled(baseRuns)) },
          round_ratios: engineRuns.map((r, i) => Math.round((r.rps / baseRuns[i]!.rps) * 1000) / 1000),
          engine: engineRuns.map(loadDetail),
          baseline: baseRuns.map(loadDetail),
        },
      },
      {
        name: 'post_title_creates_per_s',
        label: 'POST /title structured creates',
        value: post.rps,
        unit: 'creates/s',
        detail: {
          ...loadDetail(post),
          connections: CONNECTIONS,
          note: 'intake workers run meanwhile on the same database',
        },
      },
      {
        name: 'intake_entries_per_s',
        label: `create -> complete, ${PIPELINE_N} entries, intake only`,
        value: PIPELINE_N / pipeline.seconds,
        unit: 'entries/s',
        detail: {
          entries: PIPELINE_N,
          seconds: pipeline.seconds,
          create_seconds: pipeline.createSeconds,
          creates_per_s: PIPELINE_N / pipeline.createSeconds,
          drain_after_last_create_seconds: pipeline.seconds - pipeline.createSeconds,
          concurrency: CONNECTIONS,
        },
      },
      {
        name: 'post_title_pii_creates_per_s',
        label: 'POST /title creates with SSN, DOB, license number: encryption on vs off',
        value: median(pii.on),
        unit: 'creates/s',
        baseline: { label: 'the same creates, encryption.enabled false', value: median(pii.off) },
        detail: {
          rounds: PII_ROUNDS,
          statistic: 'median of the rounds, per side; sides alternate, each on a fresh data folder',
          round_ratios: pii.on.map((r, i) => Math.round((r.rps / pii.off[i]!.rps) * 1000) / 1000),
          on: pii.on.map(loadDetail),
          off: pii.off.map(loadDetail),
        },
      },
      {
        name: 'daemon_idle_rss_mb',
        label: 'daemon idle RSS (after start-up, before load)',
        value: idleRss === null ? null : idleRss / MB,
        unit: 'MB',
        target: { op: '<=', value: 150, on: 'value' },
        detail: { rss_after_get_load_mb: afterLoadRss === null ? null : afterLoadRss / MB },
      },
    ];
  },
};
