/**
 * The engine under test for the `submission` suite, in its own process:
 * stages intake, forms and submission, workers on, the portal worker filing
 * with the fake state portal at BENCH_PORTAL_URL (run by the suite) with
 * BENCH_CONCURRENCY browser contexts. Driven over IPC: `{ id, type, ... }` in,
 * `{ id, ok, ... }` out.
 *
 *   seed {n}       creates n TX entries (the forms fixture) and waits until their forms exist
 *   documents      the documents the portal gets for the first entry (base64), for the baseline
 *   memory         process.memoryUsage() of the daemon
 *   file {ids}     POST /title/{id}/submit (ONLINE_PORTAL) for each; resolves when all are SUBMITTED
 *
 * Environment: BENCH_DATA_DIR, BENCH_PORTAL_URL, BENCH_CONCURRENCY (default 4), BENCH_LOG_LEVEL (default warn).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../index.js';
import type { SubmissionPlugin } from '../plugins/submission/index.js';
import { fixtureEntry } from '../test/support/fixtures.js';
import { vinFor } from './lib/vin.js';

const dataDir = process.env.BENCH_DATA_DIR;
const portalUrl = process.env.BENCH_PORTAL_URL;
if (!dataDir || !portalUrl) throw new Error('BENCH_DATA_DIR and BENCH_PORTAL_URL are required');

const engine = await createEngine({
  port: 0,
  dataDir,
  stages: ['intake', 'forms', 'submission'],
  workers: { enabled: true, pollIntervalMs: 20 },
  plugins: {
    submission: {
      portals: { '*': { driver: 'fake-portal', url: portalUrl } },
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
      pollIntervalMs: 20,
      statusPollMs: 3_600_000,
    },
  },
  log: { level: (process.env.BENCH_LOG_LEVEL ?? 'warn') as 'warn' },
});
await engine.start();
const plugin = engine.plugins.find((p) => p.name === 'submission') as SubmissionPlugin;
const org = await engine.orgs.create('bench');
const p = await engine.principalFor(org.name);

const until = async (pred: () => Promise<boolean>) => {
  while (!(await pred())) await new Promise((r) => setTimeout(r, 25));
};

type Msg = { id: number; type: string; [k: string]: unknown };
const handlers: Record<string, (m: Msg) => Promise<Record<string, unknown>>> = {
  async memory() {
    return { memory: process.memoryUsage() };
  },
  async seed(m) {
    const ids: string[] = [];
    for (let i = 0; i < (m.n as number); i++) {
      const ad = fixtureEntry('TX', 'full').account_data as { vehicle: { vin: string } };
      ad.vehicle.vin = vinFor('1HGCM826', i);
      ids.push((await engine.service.create(p, { account_data: ad })).entryId);
    }
    for (const id of ids) await until(async () => (await engine.service.get(p, id)).job_status === 'complete');
    return { ids };
  },
  async documents(m) {
    const s = { id: 'x', orgId: org.id, entryId: m.entryId as string } as Parameters<
      SubmissionPlugin['service']['filingData']
    >[0];
    const dir = mkdtempSync(join(tmpdir(), 'titled-bench-filing-'));
    try {
      const d = await plugin.service.filingData(s, dir);
      return { documents: d.documents.map((x) => ({ ...x, bytes: readFileSync(x.path).toString('base64') })) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  async file(m) {
    const ids = m.ids as string[];
    const t0 = Date.now();
    const sids: [string, string][] = [];
    for (const id of ids)
      sids.push([id, String((await plugin.service.submit(p, id, { method: 'ONLINE_PORTAL' })).submissionId)]);
    // a light check (one COUNT, every 100 ms): reading the entries meanwhile would take CPU from the worker
    await until(async () => {
      await new Promise((r) => setTimeout(r, 75));
      const [row] = await engine.db.query<{ n: unknown }>(
        "SELECT COUNT(*) AS n FROM submissions WHERE status = 'PENDING'",
      );
      return Number(row?.n) === 0;
    });
    const t1 = Date.now();
    const statuses = await Promise.all(sids.map(async ([id, sid]) => (await plugin.service.get(p, id, sid)).status));
    const rows = await engine.db.query<{ ledger: string; createdAt: unknown; updatedAt: unknown }>(
      'SELECT ledger, "createdAt", "updatedAt" FROM submissions',
    );
    const steps: Record<string, number> = {};
    for (const r of rows) {
      for (const [k, v] of Object.entries((JSON.parse(r.ledger) as { timings?: Record<string, number> }).timings ?? {}))
        steps[k] = (steps[k] ?? 0) + v / rows.length;
    }
    const life = rows.reduce((a, r) => a + (Number(r.updatedAt) - Number(r.createdAt)) / rows.length, 0);
    return { t0, t1, statuses, steps, meanSubmitToFiledMs: life };
  },
};

process.on('message', (m: Msg) => {
  const h = handlers[m.type];
  if (!h) return process.send!({ id: m.id, ok: false, error: `unknown message ${m.type}` });
  h(m).then(
    (r) => process.send!({ id: m.id, ok: true, ...r }),
    (e: Error) => process.send!({ id: m.id, ok: false, error: e.stack ?? e.message }),
  );
});
process.on('SIGTERM', () => void engine.stop().then(() => process.exit(0)));
process.send!({ type: 'ready', port: 0 });
