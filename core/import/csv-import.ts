/**
 * Batch import: a CSV of accounts becomes title entries (docs/import.md).
 *
 * Streamed with csv-parse (a batch of rows in memory, whatever the file's
 * size), each row created through the title service as POST /title would,
 * a batch of rows to a transaction, each row in a savepoint of its own.
 * Idempotent by VIN: a row whose VIN the organization already has is
 * reported as `exists` and left alone, so re-running a file (or resuming an
 * interrupted run) creates nothing twice.
 */
import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Principal } from '../auth/authenticator.js';
import type { Database, TxBatch } from '../db/database.js';
import { isTitledError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import type { TitleService } from '../service/title-service.js';
import { checkVin } from '../vin.js';
import { VinSet } from './vin-set.js';

/** Short column names and the account_data paths they fill (any other column is a dotted path, e.g. `vehicle.color`). */
export const COLUMN_ALIASES: Record<string, string> = {
  vin: 'vehicle.vin',
  year: 'vehicle.year',
  make: 'vehicle.make',
  model: 'vehicle.model',
  body: 'vehicle.body',
  color: 'vehicle.color',
  plate: 'vehicle.license_plate',
  title_number: 'vehicle.title.number',
  title_state: 'vehicle.title.issuing_state',
  issuing_state: 'vehicle.title.issuing_state',
  odometer: 'vehicle.title.odometer_reading',
  borrower_name: 'loan.borrower.0.name',
  borrower_first: 'loan.borrower.0.name_first',
  borrower_middle: 'loan.borrower.0.name_middle',
  borrower_last: 'loan.borrower.0.name_last',
  borrower_email: 'loan.borrower.0.contact_email',
  borrower_phone: 'loan.borrower.0.contact_phone',
  borrower_street1: 'loan.borrower.0.addr.street1',
  borrower_street2: 'loan.borrower.0.addr.street2',
  borrower_city: 'loan.borrower.0.addr.city',
  borrower_state: 'loan.borrower.0.addr.state',
  borrower_zip: 'loan.borrower.0.addr.zip',
  borrower_county: 'loan.borrower.0.addr.county',
  coborrower_first: 'loan.borrower.1.name_first',
  coborrower_last: 'loan.borrower.1.name_last',
  coborrower_email: 'loan.borrower.1.contact_email',
  loan_id: 'loan.loan_id',
  loan_amount: 'loan.loan_amount',
  payoff_amount: 'loan.payoff_amount',
  per_diem: 'loan.per_diem',
  security_agreement_date: 'loan.security_agreement_sign_date',
  lienholder_name: 'loan.new_lienholder.name',
  lienholder_elt_id: 'loan.new_lienholder.elt_id',
  lienholder_id: 'loan.new_lienholder.id',
  sale_price: 'sale.sale_price',
  date_of_sale: 'sale.date_of_sale',
};
/** Columns that are request members, not account data. */
const REQUEST_COLUMNS = new Set(['groupId', 'group', 'sync_nmvtis', 'sync_public', 'sync_private', 'dppa_exemption']);
const NUMBERS = new Set([
  'vehicle.year',
  'loan.loan_amount',
  'loan.payoff_amount',
  'loan.per_diem',
  'sale.sale_price',
  'vehicle.title.number_of_owners',
]);
const ROOTS = new Set(['vehicle', 'loan', 'sale', 'txn_quick_reference']);

export type RowOutcome = 'created' | 'exists' | 'error';
export interface RowResult {
  row: number;
  vin?: string;
  result: RowOutcome;
  entryId?: string;
  error?: string;
}
export interface ImportSummary {
  rows: number;
  created: number;
  exists: number;
  errors: number;
  /** The first `maxErrorRows` failed rows (every one goes to `onRow`). */
  errorRows: RowResult[];
  ms: number;
}
export interface ImportOptions {
  /** Called once per row, in row order, once the row's batch committed (progress bars, error reports). */
  onRow?: (r: RowResult, bytesRead: number) => void;
  /** Rows written in one transaction, each in a savepoint of its own (default 100). */
  batch?: number;
  /** PostgreSQL: batches written at once (default 4); on SQLite, whose one connection writes, one at a time. */
  concurrency?: number;
  /** Group of every created entry (a `groupId` column wins). */
  groupId?: string;
  maxErrorRows?: number;
}

export interface ImportDeps {
  service: TitleService;
  db: Database;
  metrics?: Metrics;
}

/** How each column fills a row's request: an account_data path, or a request member. */
export function mapColumns(header: string[]): { paths: (string | null)[]; unknown: string[] } {
  const unknown: string[] = [];
  const paths = header.map((raw) => {
    const h = raw.trim();
    if (REQUEST_COLUMNS.has(h)) return null;
    const path = COLUMN_ALIASES[h.toLowerCase()] ?? h;
    if (!ROOTS.has(path.split('.')[0]!) || !/^[A-Za-z0-9_.]+$/.test(path)) unknown.push(h);
    return path;
  });
  return { paths, unknown };
}

/** Sets `value` at a dotted path, making arrays for numeric parts. */
function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Record<string, unknown> | unknown[] = obj;
  parts.forEach((p, i) => {
    const key = /^\d+$/.test(p) ? Number(p) : p;
    if (i === parts.length - 1) {
      (cur as Record<string | number, unknown>)[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(parts[i + 1]!);
    const c = cur as Record<string | number, unknown>;
    if (!c[key] || typeof c[key] !== 'object') c[key] = nextIsIndex ? [] : {};
    cur = c[key] as Record<string, unknown>;
  });
}

function cellValue(path: string, v: string): unknown {
  if (NUMBERS.has(path)) return /^-?\d+(\.\d+)?$/.test(v.replace(/[$,]/g, '')) ? Number(v.replace(/[$,]/g, '')) : v;
  const last = path.split('.').pop()!;
  if (/^(is|has)_/.test(last) && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  return v;
}

/** The POST /title body of one row. */
export function rowBody(
  header: string[],
  paths: (string | null)[],
  cells: string[],
  groupId?: string,
): Record<string, unknown> {
  const account: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  cells.forEach((raw, i) => {
    const v = raw.trim();
    if (v === '' || i >= header.length) return;
    const path = paths[i];
    if (path) return setPath(account, path, cellValue(path, v));
    const h = header[i]!.trim();
    if (h === 'group' || h === 'groupId') body.groupId = v;
    else if (h === 'dppa_exemption') body.dppa_exemption = v;
    else body[h] = /^(true|1|yes)$/i.test(v);
  });
  // sparse borrower arrays (only a co-borrower column filled) become dense
  const loan = account.loan as { borrower?: unknown[] } | undefined;
  if (loan?.borrower) loan.borrower = loan.borrower.filter((b) => b !== undefined);
  body.groupId ??= groupId;
  if (body.groupId === undefined) delete body.groupId;
  return { ...body, account_data: account };
}

/** A row read and checked (VIN present, valid, not earlier in the file) that the database decides on. */
interface PendingRow {
  row: number;
  vin: string;
  body: Record<string, unknown>;
}
const isPending = (r: RowResult | PendingRow): r is PendingRow => 'body' in r;

/**
 * The input in slices of at most 4 KB: csv-parse parses each chunk it is given at once, so the rows of a 64 KB
 * chunk (about 500) would wait until the ones before them are created, living long enough for V8 to promote them
 * to its old space; an uploaded file comes as one chunk.
 */
async function* slices(input: Readable, size = 4096): AsyncGenerator<Buffer> {
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
  }
}

/** Imports a CSV stream for the principal's organization; see the module comment. */
export async function importCsv(
  deps: ImportDeps,
  p: Principal,
  input: Readable,
  o: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
  pipeline(Readable.from(slices(input)), parser, () => undefined);
  const summary: ImportSummary = { rows: 0, created: 0, exists: 0, errors: 0, errorRows: [], ms: 0 };
  const finish = (r: RowResult) => {
    summary.rows++;
    summary[r.result === 'error' ? 'errors' : r.result]++;
    if (r.result === 'error' && summary.errorRows.length < (o.maxErrorRows ?? 1000)) summary.errorRows.push(r);
    deps.metrics?.importRows.inc({ result: r.result });
    o.onRow?.(r, parser.info.bytes);
  };
  // SQLite has one writer: a second batch would only wait, its rows in memory
  const batches = new Batches(deps.db.dialect === 'sqlite' ? 1 : (o.concurrency ?? 4), finish);
  const seen = new VinSet();
  let header: string[] | undefined;
  let paths: (string | null)[] = [];
  let rows: (RowResult | PendingRow)[] = [];
  let row = 1;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = cells.map((c) => c.trim());
        paths = columnPaths(header);
        continue;
      }
      rows.push(checkRow(++row, rowBody(header, paths, cells, o.groupId), seen));
      if (rows.length < (o.batch ?? 100)) continue;
      await batches.add(createRows(deps, p, rows));
      rows = [];
    }
    await batches.add(createRows(deps, p, rows));
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('CSV_'))
      throw new ImportError(`the file is not valid CSV: ${(e as Error).message}`);
    throw e;
  } finally {
    parser.destroy();
    await batches.done();
  }
  if (!header) throw new ImportError('the file is empty (no header row)');
  summary.ms = Date.now() - started;
  return summary;
}

/** The account_data paths of a header's columns; ImportError for a header that cannot be imported. */
function columnPaths(header: string[]): (string | null)[] {
  const mapped = mapColumns(header);
  if (mapped.unknown.length)
    throw new ImportError(`unknown column(s): ${mapped.unknown.join(', ')} (docs/import.md lists the columns)`);
  if (!mapped.paths.includes('vehicle.vin'))
    throw new ImportError('the file needs a vin column (rows are matched by VIN)');
  return mapped.paths;
}

/**
 * The batches being written, at most `limit` at once; their rows are reported in row order, each batch's once it
 * committed and the batches before it were reported.
 */
class Batches {
  private readonly inFlight = new Set<Promise<void>>();
  private reported: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly report: (r: RowResult) => void,
  ) {}

  /** Takes a batch's results; resolves when there is room for another batch. */
  async add(results: Promise<RowResult[]>): Promise<void> {
    const done = Promise.all([results, this.reported]).then(([rs]) => rs.forEach(this.report));
    this.reported = done;
    this.inFlight.add(done);
    // a failed batch stays in the set: `done` rejects with its error
    done.then(
      () => this.inFlight.delete(done),
      () => undefined,
    );
    if (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
  }

  async done(): Promise<void> {
    await Promise.all(this.inFlight);
  }
}

/** A row's result when it needs no database (no VIN, an invalid one, one earlier in the file), else the row. */
function checkRow(row: number, body: Record<string, unknown>, seen: VinSet): RowResult | PendingRow {
  const rawVin = (body.account_data as { vehicle?: { vin?: unknown } }).vehicle?.vin;
  if (typeof rawVin !== 'string' || !rawVin) return { row, result: 'error', error: 'no VIN (the vin column is empty)' };
  const check = checkVin(rawVin);
  if (!check.valid) return { row, vin: rawVin, result: 'error', error: `invalid VIN: ${check.reason}` };
  const vin = check.vin;
  if (!seen.add(vin)) return { row, vin, result: 'exists', error: 'the VIN appears earlier in this file' };
  return { row, vin, body };
}

/** Creates a batch's rows in one transaction, each in a savepoint of its own (a row in error rolls back alone). */
async function createRows(deps: ImportDeps, p: Principal, rows: (RowResult | PendingRow)[]): Promise<RowResult[]> {
  if (!rows.some(isPending)) return rows as RowResult[];
  return deps.db.batch(async (batch) => {
    const results: RowResult[] = [];
    for (const r of rows) results.push(isPending(r) ? await createRow(deps, p, r, batch) : r);
    return results;
  });
}

async function createRow(deps: ImportDeps, p: Principal, r: PendingRow, batch: TxBatch): Promise<RowResult> {
  const { row, vin } = r;
  const [hit] = await deps.db.query<{ id: string }>('SELECT id FROM entries WHERE "orgId" = ? AND vin = ?', [
    p.org.id,
    vin,
  ]);
  if (hit) return { row, vin, result: 'exists', entryId: hit.id };
  try {
    const created = await deps.service.create(p, r.body, { batch });
    return { row, vin, result: 'created', entryId: created.entryId };
  } catch (e) {
    if (isTitledError(e)) return { row, vin, result: 'error', error: e.message };
    throw e;
  }
}

/** A file that cannot be imported at all (bad header, empty). */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}
