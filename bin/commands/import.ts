import { createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import cliProgress from 'cli-progress';
import { ENGINE_OPTION_HELP, ENGINE_OPTIONS, UsageError, print, withEngine, type Command } from '../command.js';
import type { RowResult } from '../../core/import/csv-import.js';

const csvCell = (v: unknown) => {
  const s = String(v ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Progress on stderr: a bar on a terminal, a plain line every `every` rows otherwise. */
function progress(total: number, tty: boolean) {
  const counts = { rows: 0, created: 0, exists: 0, errors: 0 };
  const started = Date.now();
  const rate = () => Math.round(counts.rows / Math.max(0.001, (Date.now() - started) / 1000));
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format:
            'import |{bar}| {percentage}% | {rows} rows: {created} created, {exists} present, {errors} errors | {rate} rows/s',
          stream: process.stderr,
          hideCursor: true,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(Math.max(total, 1), 0, { ...counts, rate: 0 });
  return {
    counts,
    row(r: RowResult, bytes: number) {
      counts.rows++;
      counts[r.result === 'error' ? 'errors' : r.result]++;
      if (bar) bar.update(Math.min(bytes, total), { ...counts, rate: rate() });
      else if (counts.rows % 1000 === 0)
        process.stderr.write(
          `import: ${counts.rows} rows (${counts.created} created, ${counts.exists} present, ${counts.errors} errors), ${rate()} rows/s\n`,
        );
      if (!bar && r.result === 'error')
        process.stderr.write(`import: row ${r.row}${r.vin ? ` (${r.vin})` : ''}: ${r.error}\n`);
    },
    stop() {
      if (bar) {
        bar.update(total, { ...counts, rate: rate() });
        bar.stop();
      }
    },
  };
}

/** SQLite's page cache in the import process (better-sqlite3's default, a daemon's, is 16 MB). */
const IMPORT_PAGE_CACHE_KIB = 4096;

/** A whole-number option from 1 to `max`. */
function intOption(v: unknown, dflt: number, max: number, name: string): number {
  const n = typeof v === 'string' ? Number(v) : dflt;
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${name} must be 1 to ${max}`);
  return n;
}

export const importCommand: Command = {
  name: 'import',
  summary: 'create entries from a CSV of accounts (idempotent by VIN; progress bar on a terminal)',
  usage: 'import FILE.csv --org NAME [--group G] [--errors FILE] [--batch N] [--concurrency N] [--json]',
  details:
    'Columns map to account_data (docs/import.md; example: examples/import/accounts.csv). A row whose VIN the organization\n' +
    "already has is left alone, so the same file can be imported again safely. The entries' jobs are queued for the daemon\n" +
    '(`titled serve` on the same data folder or database) to process. Exit code 1 when a row failed (see --errors).',
  options: {
    ...ENGINE_OPTIONS,
    org: { type: 'string' },
    group: { type: 'string' },
    errors: { type: 'string' },
    batch: { type: 'string' },
    concurrency: { type: 'string' },
    json: { type: 'boolean' },
  },
  optionHelp: [
    ['--org NAME', 'the organization the entries belong to (required)'],
    ['--group G', 'the group of every entry (a groupId column wins)'],
    ['--errors FILE', 'write the rows in error to FILE as CSV (row, vin, error)'],
    ['--batch N', 'rows written in one transaction, each in a savepoint of its own (default 100; 1 to 1000)'],
    ['--concurrency N', 'PostgreSQL: batches written at once (default 4); SQLite writes one at a time'],
    ['--json', 'print the summary as one JSON object'],
    ...ENGINE_OPTION_HELP,
  ],
  positionals: [1, 1],
  async run({ values, positionals }) {
    const file = positionals[0]!;
    const org = values.org;
    if (typeof org !== 'string' || !org) throw new UsageError('--org NAME is required');
    const concurrency = intOption(values.concurrency, 4, 64, '--concurrency');
    const batch = intOption(values.batch, 100, 1000, '--batch');
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw new Error(`cannot read ${file}`);
    }
    const { importCsv, ImportError } = await import('../../core/import/csv-import.js');
    return withEngine(values, async (engine) => {
      const p = await engine.principalFor(org, { userId: 'import' });
      // a batch's pages are written at its commit: a smaller cache than a daemon's costs no speed here
      engine.db.limitPageCache(IMPORT_PAGE_CACHE_KIB);
      let report: WriteStream | undefined;
      if (typeof values.errors === 'string') {
        report = createWriteStream(values.errors);
        report.write('row,vin,error\n');
      }
      const bar = progress(size, !!process.stderr.isTTY && !values.json);
      let summary;
      try {
        summary = await importCsv(
          { service: engine.service, db: engine.db, metrics: engine.metrics },
          p,
          createReadStream(file),
          {
            batch,
            concurrency,
            groupId: typeof values.group === 'string' ? values.group : undefined,
            onRow: (r, bytes) => {
              bar.row(r, bytes);
              if (r.result === 'error') report?.write(`${r.row},${csvCell(r.vin)},${csvCell(r.error)}\n`);
            },
          },
        );
      } catch (e) {
        if (e instanceof ImportError) throw new UsageError(`${file}: ${e.message}`);
        throw e;
      } finally {
        bar.stop();
        await new Promise<void>((res) => (report ? report.end(res) : res()));
      }
      const { errorRows, ...totals } = summary;
      if (values.json)
        print(
          JSON.stringify({
            ...totals,
            rowsPerSecond: Math.round(totals.rows / Math.max(0.001, totals.ms / 1000)),
            errorRows,
          }),
        );
      else {
        print(
          `imported ${file} into ${org}: ${totals.rows} rows, ${totals.created} created, ${totals.exists} already present, ${totals.errors} errors ` +
            `(${(totals.ms / 1000).toFixed(1)} s)`,
        );
        if (process.stderr.isTTY)
          for (const r of errorRows.slice(0, 20)) print(`  row ${r.row}${r.vin ? ` (${r.vin})` : ''}: ${r.error}`);
        if (totals.errors > 20 && process.stderr.isTTY)
          print(`  ... ${totals.errors - 20} more${report ? ` in ${String(values.errors)}` : ' (use --errors FILE)'}`);
      }
      return totals.errors ? 1 : 0;
    });
  },
};
