/**
 * console: batch import and the operator console's entries list.
 *
 * - import rows/s vs `POST /title` in a tight loop (one request after
 *   another, the way a script would create a portfolio), same rows, same
 *   stages (intake), workers off in both so only creation is measured;
 * - peak RSS of `titled import` over 100,000 rows (x scale), from
 *   /proc/<pid>/status VmHWM;
 * - server time of the console's entries page (50 per page) vs
 *   `GET /title?limit=50` over 10,000 entries, from the daemon's own
 *   `titled_http_request_duration_seconds` histogram (sum/count by route).
 */
import { spawn } from 'node:child_process';
import { readFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { api } from '../lib/api.js';
import { launcherEnv, startChild, type Child } from '../lib/proc.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';
import { vinFor } from '../lib/vin.js';

const HEADER =
  'vin,year,make,model,title_state,borrower_first,borrower_last,borrower_street1,borrower_city,borrower_state,borrower_zip,loan_id,loan_amount';

function csvRow(prefix: string, n: number): string {
  return `${vinFor(prefix, n)},2019,HONDA,ACCORD,TX,Jane,Doe${n},100 Main St,Austin,TX,78701,LN-${n},18500`;
}
/** The POST /title body of the same row. */
function postBody(prefix: string, n: number): string {
  return JSON.stringify({
    account_data: {
      vehicle: { vin: vinFor(prefix, n), year: 2019, make: 'HONDA', model: 'ACCORD', title: { issuing_state: 'TX' } },
      loan: {
        loan_id: `LN-${n}`,
        loan_amount: 18500,
        borrower: [
          {
            name_first: 'Jane',
            name_last: `Doe${n}`,
            addr: { street1: '100 Main St', city: 'Austin', state: 'TX', zip: '78701' },
          },
        ],
      },
    },
  });
}

async function writeCsv(file: string, prefix: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(HEADER + '\n');
  for (let i = 0; i < rows; i++)
    if (!out.write(csvRow(prefix, i) + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(r));
}

/** Peak RSS (VmHWM) of a live process in bytes, or null. */
function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs `titled import` in its own process, with the environment bin/titled gives every command (launcherEnv), as a
 * user's `titled import` runs; returns its JSON summary and the highest VmHWM seen.
 */
async function runImport(
  ctx: SuiteContext,
  dataDir: string,
  file: string,
): Promise<{ summary: { rows: number; created: number; ms: number }; peak: number | null }> {
  const cli = join(ctx.benchDir, '..', 'bin', 'cli.js');
  const child = spawn(process.execPath, [...ctx.execArgv, cli, 'import', file, '--org', 'bench', '--json'], {
    env: { ...process.env, ...launcherEnv(), TITLED_DATA_DIR: dataDir, TITLED_LOG_LEVEL: 'warn', TITLED_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let peak: number | null = null;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  const timer = setInterval(() => {
    const p = peakRss(child.pid!);
    if (p !== null) peak = Math.max(peak ?? 0, p);
  }, 100);
  const code = await new Promise<number | null>((r) => child.once('close', r));
  clearInterval(timer);
  if (code !== 0) throw new Error(`titled import exited ${code}: ${err}`);
  return { summary: JSON.parse(out) as { rows: number; created: number; ms: number }, peak };
}

const startDaemon = (ctx: SuiteContext, dataDir: string): Promise<Child<{ key: string }>> =>
  startChild<{ key: string }>(join(ctx.benchDir, 'daemon.js'), {
    env: { BENCH_DATA_DIR: dataDir, BENCH_ORG: 'bench', BENCH_STAGES: 'intake', BENCH_WORKERS: '0' },
    execArgv: ctx.execArgv,
  });

/** Mean server seconds per request of a route, from two scrapes of /metrics. */
function meanSeconds(before: string, after: string, route: string): number | null {
  const read = (text: string, what: 'sum' | 'count') => {
    const re = new RegExp(
      `^titled_http_request_duration_seconds_${what}\\{method="GET",route="${route.replace(/[/]/g, '\\/')}",status="200"\\} (\\S+)$`,
      'm',
    );
    return Number(re.exec(text)?.[1] ?? 0);
  };
  const n = read(after, 'count') - read(before, 'count');
  return n > 0 ? (read(after, 'sum') - read(before, 'sum')) / n : null;
}

export const consoleSuite: Suite = {
  name: 'console',
  description:
    'batch import vs POST /title loop, import peak RSS at 100k rows, console entries page vs GET /title?limit=50 at 10k entries',
  async run(ctx) {
    const rows = Math.max(500, Math.round(2000 * ctx.scale));
    const bigRows = Math.max(1000, Math.round(100_000 * ctx.scale));
    const listRows = Math.max(1000, Math.round(10_000 * ctx.scale));

    // --- POST /title tight loop
    const dirA = ctx.tmpDir('titled-bench-post-loop-');
    const a = await startDaemon(ctx, dirA);
    let postRate: number;
    try {
      ctx.log(`POST /title tight loop: ${rows} creates, one after another`);
      const t0 = performance.now();
      for (let i = 0; i < rows; i++) {
        const r = await api(a.url, a.ready.key, 'POST', '/title', postBody('1FTFW1E5', i));
        if (r.status !== 200) throw new Error(`POST /title answered ${r.status}: ${r.text.slice(0, 200)}`);
      }
      postRate = rows / ((performance.now() - t0) / 1000);
    } finally {
      await a.stop();
    }

    // --- the same rows with titled import (its own timing: rows read to rows created, not process start-up)
    const dirB = ctx.tmpDir('titled-bench-import-');
    await (await startDaemon(ctx, dirB)).stop();
    const small = join(dirB, 'rows.csv');
    await writeCsv(small, '1FTFW1E5', rows);
    ctx.log(`titled import: the same ${rows} rows`);
    const imported = await runImport(ctx, dirB, small);
    const importRate = imported.summary.rows / (imported.summary.ms / 1000);

    // --- peak RSS at 100,000 rows
    const dirC = ctx.tmpDir('titled-bench-import-big-');
    await (await startDaemon(ctx, dirC)).stop();
    const big = join(dirC, 'big.csv');
    await writeCsv(big, '3GNAXUEV', bigRows);
    ctx.log(`titled import: ${bigRows} rows, peak RSS`);
    const bigRun = await runImport(ctx, dirC, big);

    // --- console entries page vs GET /title?limit=50 at 10,000 entries
    const dirD = ctx.tmpDir('titled-bench-console-');
    await (await startDaemon(ctx, dirD)).stop();
    const listCsv = join(dirD, 'list.csv');
    await writeCsv(listCsv, '5NPE24AF', listRows);
    ctx.log(`console list: importing ${listRows} entries`);
    await runImport(ctx, dirD, listCsv);
    const d = await startDaemon(ctx, dirD);
    let consoleS: number | null;
    let apiS: number | null;
    try {
      const login = await fetch(`${d.url}/console/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key: d.ready.key }).toString(),
      });
      const cookie = (login.headers.getSetCookie().find((c) => c.startsWith('titled_session=')) ?? '').split(';')[0]!;
      if (!cookie) throw new Error(`console login failed: ${login.status}`);
      const pages = Math.max(20, Math.round(100 * ctx.scale));
      const get = async (path: string, headers: Record<string, string>) => {
        const r = await fetch(d.url + path, { headers });
        const text = await r.text();
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 200)}`);
        return text;
      };
      for (let i = 0; i < 5; i++) {
        await get('/console/entries?limit=50', { cookie });
        await get('/title?limit=50', { authorization: `Bearer ${d.ready.key}` });
      }
      const before = await get('/metrics', {});
      ctx.log(`console list: ${pages} pages of 50 each way, alternating`);
      for (let i = 0; i < pages; i++) {
        const html = await get('/console/entries?limit=50', { cookie });
        // a row per entry (the template puts the cells on lines of their own)
        if ((html.match(/<tr>\s*<td><a href="\/console\/entries\//g) ?? []).length !== 50)
          throw new Error('the console page did not list 50 entries');
        await get('/title?limit=50', { authorization: `Bearer ${d.ready.key}` });
      }
      const after = await get('/metrics', {});
      consoleS = meanSeconds(before, after, '/console/entries');
      apiS = meanSeconds(before, after, '/title/') ?? meanSeconds(before, after, '/title');
    } finally {
      await d.stop();
    }

    const metrics: Metric[] = [
      {
        name: 'import_rows_per_s',
        label: `titled import, ${rows} rows`,
        value: Math.round(importRate),
        unit: 'rows/s',
        baseline: { label: 'POST /title tight loop, same rows', value: Math.round(postRate) },
        target: { op: '>=', value: 1, on: 'ratio' },
      },
      {
        name: 'import_peak_rss_mb',
        label: `titled import peak RSS, ${bigRows} rows`,
        value: bigRun.peak === null ? null : Math.round(bigRun.peak / 1048576),
        unit: 'MB',
        target: { op: '<=', value: 200, on: 'value' },
        detail: {
          rows: bigRun.summary.rows,
          created: bigRun.summary.created,
          rowsPerSecond: Math.round(bigRun.summary.rows / (bigRun.summary.ms / 1000)),
        },
      },
      {
        name: 'console_list_page_ms',
        label: `console entries page (50 of ${listRows})`,
        value: consoleS === null ? null : +(consoleS * 1000).toFixed(2),
        unit: 'ms',
        baseline: { label: 'GET /title?limit=50', value: apiS === null ? null : +(apiS * 1000).toFixed(2) },
        target: { op: '<=', value: 2, on: 'ratio' },
      },
    ];
    return metrics;
  },
};
