/**
 * `npm run bench`: runs the suites of bench/suites/ in sequence, prints a
 * table and writes bench/results.json. Speed targets are ratios against a
 * baseline measured in the same run, never absolute wall-clock times.
 *
 *   node dist/bench/run.js [--only foundation,ocr] [--scale 0.5] [--out file.json] [--keep] [--list] [--profile dir]
 *
 * --profile <dir> runs the servers under test with `node --cpu-prof` and
 * leaves one .cpuprofile per process in <dir> (open in Chrome DevTools).
 *
 * Each suite runs in a process of its own (this script, with --child): the
 * suites that measure in process (OCR, fees, forms) then carry only their own
 * modules and garbage. With every suite loaded in one process, the OCR suite's
 * heap was 55 MB of other suites' modules, which each of its hundred full
 * garbage collections walked (the OCR figures came out 3-5% lower).
 *
 * Exit code: 0 all targets met, 1 a target missed, 2 a suite failed to run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, arch, release, totalmem, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../core/paths.js';
import type { Metric, SuiteContext } from './lib/types.js';
import { SUITES } from './suites/index.js';

const USAGE =
  'usage: node dist/bench/run.js [--only foundation,ocr] [--scale 0.5] [--out file.json] [--keep] [--list] ' +
  '[--profile dir]\n(bench/README.md describes the suites and their figures)';

/** The options; an unknown or malformed one is the usage line and exit code 2, not a stack trace. */
function options() {
  try {
    return parseArgs({
      options: {
        only: { type: 'string' },
        scale: { type: 'string' },
        out: { type: 'string' },
        keep: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        profile: { type: 'string' },
        child: { type: 'string' },
        result: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const args = options();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

if (args.list) {
  for (const s of SUITES) console.log(`${s.name.padEnd(16)} ${(await s.load()).description}`);
  process.exit(0);
}

const only = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only?.filter((n) => !SUITES.some((s) => s.name === n)) ?? [];
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')} (known: ${SUITES.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const suites = only ? SUITES.filter((s) => only.includes(s.name)) : SUITES;
const scale = Number(args.scale ?? process.env.BENCH_SCALE ?? 1);
if (!(scale > 0)) throw new Error('--scale must be a positive number');
const outFile = resolve(args.out ?? join(packageRoot, 'bench', 'results.json'));

function git(...a: string[]): string | null {
  try {
    return execFileSync('git', a, { cwd: packageRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const cpuList = cpus();
const machine = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${platform()} ${release()} ${arch()}`,
  cpus: cpuList.length,
  cpu_model: cpuList[0]?.model ?? 'unknown',
  memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  loadavg_at_start: loadavg().map((l) => Math.round(l * 100) / 100),
  commit: git('rev-parse', '--short', 'HEAD'),
  dirty: (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '',
  scale,
};

const tmpDirs: string[] = [];
const ctx: SuiteContext = {
  benchDir: dirname(fileURLToPath(import.meta.url)),
  root: packageRoot,
  scale,
  execArgv: args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`] : [],
  log: (msg) => process.stderr.write(`  · ${msg}\n`),
  tmpDir(prefix) {
    const d = mkdtempSync(join(tmpdir(), prefix));
    tmpDirs.push(d);
    return d;
  },
};

/** Fills ratio and pass from value, baseline and target. */
function judge(m: Metric): Metric {
  if (m.baseline) m.ratio = m.value !== null && m.baseline.value ? m.value / m.baseline.value : null;
  if (!m.target) {
    m.pass = null;
    return m;
  }
  const x = m.target.on === 'ratio' ? m.ratio : m.value;
  m.pass = x === null || x === undefined ? null : m.target.op === '>=' ? x >= m.target.value : x <= m.target.value;
  return m;
}

interface SuiteResult {
  name: string;
  description: string;
  seconds: number;
  error?: string;
  metrics: Metric[];
}

/** Runs one suite in this process (the child's part). */
async function runHere(name: string): Promise<SuiteResult> {
  const t0 = performance.now();
  let description = '';
  try {
    const suite = await SUITES.find((s) => s.name === name)!.load();
    description = suite.description;
    process.stderr.write(`suite ${suite.name}: ${suite.description}\n`);
    const metrics = (await suite.run(ctx)).map(judge);
    return { name, description, seconds: (performance.now() - t0) / 1000, metrics };
  } catch (e) {
    const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
    process.stderr.write(`suite ${name} failed: ${error}\n`);
    return { name, description, seconds: (performance.now() - t0) / 1000, error, metrics: [] };
  }
}

if (args.child) {
  const result = await runHere(args.child);
  if (!args.keep) for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
  else process.stderr.write(`kept: ${tmpDirs.join(' ')}\n`);
  writeFileSync(args.result!, JSON.stringify(result));
  process.exit(0);
}

/** Runs one suite in a process of its own: this script with --child, its report in a temp file. */
async function runApart(name: string): Promise<SuiteResult> {
  const t0 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'titled-bench-result-'));
  const file = join(dir, 'result.json');
  const argv = [fileURLToPath(import.meta.url), '--child', name, '--result', file, '--scale', String(scale)];
  if (args.keep) argv.push('--keep');
  if (args.profile) argv.push('--profile', args.profile);
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [...process.execArgv, ...argv], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (c) => done(c));
    child.on('error', () => done(null));
  });
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SuiteResult;
  } catch {
    const error = `the suite's process ended (exit code ${code}) without a report`;
    process.stderr.write(`suite ${name} failed: ${error}\n`);
    return { name, description: '', seconds: (performance.now() - t0) / 1000, error, metrics: [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: SuiteResult[] = [];
const started = performance.now();
for (const suite of suites) results.push(await runApart(suite.name));

// --- table
const fmt = (v: number | null | undefined, digits?: number) => {
  if (v === null || v === undefined || Number.isNaN(v)) return '-';
  const d = digits ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2);
  return v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
};
const rows: string[][] = [['suite', 'metric', 'value', 'unit', 'baseline', 'ratio', 'target', 'result']];
for (const r of results) {
  if (r.error) rows.push([r.name, '(suite failed)', '-', '-', '-', '-', '-', 'ERROR']);
  for (const m of r.metrics) {
    rows.push([
      r.name,
      m.label,
      fmt(m.value),
      m.unit,
      m.baseline ? fmt(m.baseline.value) : '-',
      m.ratio === undefined ? '-' : fmt(m.ratio, 2),
      m.target ? `${m.target.on === 'ratio' ? 'ratio' : 'value'} ${m.target.op} ${m.target.value}` : '-',
      m.pass === true ? 'pass' : m.pass === false ? 'FAIL' : '-',
    ]);
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
const numeric = new Set([2, 4, 5]);
const line = (r: string[]) =>
  r.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
console.log('');
console.log(
  `titled bench — ${machine.date}, node ${machine.node}, ${machine.cpus} × ${machine.cpu_model}, load ${machine.loadavg_at_start.join(' ')}`,
);
console.log(line(rows[0]!));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows.slice(1)) console.log(line(r));

const failed = results.some((r) => r.metrics.some((m) => m.pass === false));
const errored = results.some((r) => r.error);
const report = { machine, seconds: (performance.now() - started) / 1000, pass: !failed && !errored, suites: results };
writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
console.log(`\nwrote ${outFile} (${report.seconds.toFixed(0)} s)`);
process.exit(errored ? 2 : failed ? 1 : 0);
