import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { FakePortal } from '../../plugins/submission/fake-portal/server.js';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../plugins/submission/portal/browser.js';
import { rssOf, startChild } from '../lib/proc.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';
import { rpc } from './webhooks.js';

/** The daemon's default Chromium (its worker has no chromiumPath); the bare baseline drives the same binary. */
const CHROMIUM = chromiumExecutable();
const CONCURRENCY = 4;
/** Memory sampling interval: a filing takes seconds, so the peak of 4 at once lasts far longer than this. */
const SAMPLE_MS = 250;

interface Doc {
  filename: string;
  contentType: string;
  bytes: string;
}

/** Proportional set size of a process (shared pages split among their users), bytes; null when unreadable. */
function pssOf(pid: number): number | null {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** What a process of the tree is: `daemon`, Chromium's `browser`, or its `--type` (renderer, zygote, ...). */
function kindOf(pid: number, root: number): string {
  if (pid === root) return 'daemon';
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const sub = /--utility-sub-type=[\w.]*?(\w+)(?:[\s\0]|$)/.exec(cmd)?.[1];
    return sub ? `utility ${sub}` : (/--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser');
  } catch {
    return 'gone';
  }
}

interface TreeMemory {
  pss: number;
  rss: number;
  daemon: number;
  /** PSS in MB and process count per kind of process (kindOf). */
  kinds: Record<string, { processes: number; pss_mb: number }>;
}

/**
 * Memory of a process and all its descendants (the daemon and its Chromium), bytes: the sum of their
 * PSS (`rss`: the plain sum of RSS, which counts pages Chromium's processes share once per process).
 */
function treeMemory(root: number, exclude?: number): TreeMemory {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parent.get(p), hops++) {
      if (p === exclude) return false;
      if (p === root) return true;
    }
    return false;
  };
  const out: TreeMemory = { pss: 0, rss: 0, daemon: pssOf(root) ?? rssOf(root) ?? 0, kinds: {} };
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    const pss = pssOf(pid) ?? rssOf(pid) ?? 0;
    out.rss += rssOf(pid) ?? 0;
    out.pss += pss;
    const k = (out.kinds[kindOf(pid, root)] ??= { processes: 0, pss_mb: 0 });
    k.processes++;
    k.pss_mb = Math.round(k.pss_mb + pss / 1024 / 1024);
  }
  return out;
}

/**
 * Peak memory of a process tree, sampled every SAMPLE_MS until stop(): PSS (sum and per kind), the RSS sum,
 * the root's PSS and the rest's (Chromium's).
 */
class PeakSampler {
  pss = 0;
  rss = 0;
  root = 0;
  rest = 0;
  kinds: TreeMemory['kinds'] = {};
  private readonly timer: NodeJS.Timeout;

  /** `exclude`: a subtree left out (the daemon's, while the bench process's own Chromium is measured). */
  constructor(
    private readonly pid: number,
    private readonly exclude?: number,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): void {
    const m = treeMemory(this.pid, this.exclude);
    if (m.pss > this.pss) this.kinds = m.kinds;
    this.root = Math.max(this.root, m.daemon);
    this.rest = Math.max(this.rest, m.pss - m.daemon);
    this.pss = Math.max(this.pss, m.pss);
    this.rss = Math.max(this.rss, m.rss);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

/** The bare baseline: one application filed with plain playwright-core calls, as the driver files it. */
async function fileBare(page: Page, url: string, vin: string, ref: string, docs: string[]): Promise<void> {
  await page.goto(`${url}/login`);
  await page.fill('#username', 'titled');
  await page.fill('#password', 'titled');
  await Promise.all([page.waitForNavigation(), page.click('#login')]);
  await page.fill('#vin', vin);
  await page.fill('#year', '2019');
  await page.fill('#make', 'Honda');
  await Promise.all([page.waitForNavigation(), page.click('#next')]);
  await page.fill('#owner_name', 'Jane Q Borrower');
  await page.fill('#lienholder_name', 'Acme Auto Finance LLC');
  await page.fill('#reference', ref);
  await Promise.all([page.waitForNavigation(), page.click('#next')]);
  await page.setInputFiles('#document', docs);
  await Promise.all([page.waitForNavigation(), page.click('#next')]);
  await page.locator('#review-vin').textContent();
  await Promise.all([page.waitForNavigation(), page.click('#submit')]);
  if (!(await page.locator('#app-no').textContent())) throw new Error('no application number');
  await page.screenshot({ type: 'png', fullPage: true });
}

/** The documents as files (the driver uploads from disk too). */
function docFiles(dir: string, docs: Doc[]): string[] {
  return docs.map((d, i) => {
    mkdirSync(join(dir, String(i)));
    const path = join(dir, String(i), d.filename);
    writeFileSync(path, Buffer.from(d.bytes, 'base64'));
    return path;
  });
}

async function bare(url: string, n: number, docs: string[]): Promise<number> {
  const t0 = Date.now(); // the launch counts, as the worker's first launch counts in the daemon's time
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < n; i = next++) {
          const ctx = await browser.newContext({ viewport: { width: 1000, height: 800 } });
          await fileBare(await ctx.newPage(), url, `1HGCM82603B${String(i).padStart(6, '0')}`, `bare-${i}`, docs);
          await ctx.close();
        }
      }),
    );
    return Date.now() - t0;
  } finally {
    await browser.close();
  }
}

/**
 * Online-portal filing: submissions filed per minute (POST /title/{id}/submit
 * to SUBMITTED, the worker's whole path: claim, ledger, browser context,
 * sign-in, three pages, upload, review, submit, screenshot, status move)
 * against a bare playwright-core script filling the same fake portal with
 * the same documents at the same concurrency; peak RSS of the daemon and
 * its Chromium while 4 submissions are filed at once.
 */
export const submission: Suite = {
  name: 'submission',
  description: 'portal submissions/min vs a bare playwright-core script; peak RSS of daemon + Chromium, 4 concurrent',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    if (!existsSync(CHROMIUM)) {
      ctx.log(`skipped: ${CHROMIUM} is missing`);
      return [
        {
          name: 'portal_submissions_per_min',
          label: 'portal submissions/min (skipped: no chromium)',
          value: null,
          unit: 'submissions/min',
        },
      ];
    }
    const n = Math.max(8, Math.round(24 * ctx.scale));
    const portal = new FakePortal();
    const url = await portal.start();
    const child = await startChild<Record<string, unknown>>(join(ctx.benchDir, 'submission-daemon.js'), {
      env: {
        BENCH_DATA_DIR: ctx.tmpDir('titled-bench-submission-'),
        BENCH_PORTAL_URL: url,
        BENCH_CONCURRENCY: String(CONCURRENCY),
      },
      execArgv: ctx.execArgv,
      timeoutMs: 60_000,
    });
    const call = rpc(child);
    try {
      ctx.log(`seeding ${n} TX entries with their forms`);
      const { ids } = await call<{ ids: string[] }>('seed', { n });
      const { documents } = await call<{ documents: Doc[] }>('documents', { entryId: ids[0] });
      ctx.log(`bare playwright-core: ${n} applications, ${CONCURRENCY} contexts`);
      // both sides are sampled alike: reading smaps_rollup walks a process's page tables (tens of ms for a big one)
      const basePeak = new PeakSampler(process.pid, child.pid);
      const baseMs = await bare(url, n, docFiles(ctx.tmpDir('titled-bench-docs-'), documents)).finally(() =>
        basePeak.stop(),
      );
      ctx.log(`titled: ${n} portal submissions, worker concurrency ${CONCURRENCY}`);
      const before = treeMemory(child.pid);
      const peak = new PeakSampler(child.pid);
      const r = await call<{
        t0: number;
        t1: number;
        statuses: string[];
        steps: Record<string, number>;
        meanSubmitToFiledMs: number;
      }>('file', { ids }).finally(() => peak.stop());
      const notFiled = r.statuses.filter((s) => s === 'PENDING' || s === 'ERROR');
      if (notFiled.length) throw new Error(`${notFiled.length} submissions not filed: ${notFiled.join(', ')}`);
      const perMin = n / ((r.t1 - r.t0) / 60_000);
      const basePerMin = n / (baseMs / 60_000);
      const docBytes = documents.reduce((s, d) => s + Buffer.from(d.bytes, 'base64').length, 0);
      return [
        {
          name: 'portal_submissions_per_min',
          label: `portal submissions/min, ${n} filings, ${CONCURRENCY} at once`,
          value: perMin,
          unit: 'submissions/min',
          baseline: {
            label: `bare playwright-core, same portal and documents, ${CONCURRENCY} contexts`,
            value: basePerMin,
          },
          target: { op: '>=', value: 0.7, on: 'ratio' },
          detail: {
            filings: n,
            chromium: CHROMIUM,
            seconds: (r.t1 - r.t0) / 1000,
            baseline_seconds: baseMs / 1000,
            documents: documents.length,
            document_bytes: docBytes,
            mean_step_ms: Object.fromEntries(Object.entries(r.steps).map(([k, v]) => [k, Math.round(v)])),
            mean_post_to_submitted_ms: Math.round(r.meanSubmitToFiledMs),
          },
        },
        {
          name: 'portal_peak_rss_mb',
          label: `peak memory (PSS), daemon + Chromium, ${CONCURRENCY} concurrent portal submissions`,
          value: peak.pss / 1024 / 1024,
          unit: 'MB',
          target: { op: '<=', value: 600, on: 'value' },
          detail: {
            note:
              'the daemon process and every descendant (Chromium browser, renderer, GPU and utility processes), ' +
              `sampled every ${SAMPLE_MS} ms (the baseline's Chromium alike); ` +
              'PSS counts a page shared by several processes once in total',
            chromium: CHROMIUM,
            peak_rss_sum_mb: peak.rss / 1024 / 1024,
            daemon_pss_before_filing_mb: before.daemon / 1024 / 1024,
            daemon_peak_pss_mb: peak.root / 1024 / 1024,
            chromium_peak_pss_mb: peak.rest / 1024 / 1024,
            at_peak_by_process_kind: peak.kinds,
            baseline_chromium_peak_pss_mb: basePeak.rest / 1024 / 1024,
            baseline_at_peak_by_process_kind: basePeak.kinds,
          },
        },
      ];
    } finally {
      await child.stop();
      await portal.stop();
    }
  },
};
