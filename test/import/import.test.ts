import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { CLI, runCli } from '../helpers/cli.js';
import { importCsv, mapColumns, rowBody, type RowResult } from '../../core/import/csv-import.js';
import { packageRoot } from '../../core/paths.js';
import { DIALECTS, eventually, startTestEngine } from '../helpers/engine.js';
import { accountsCsv, vinFor } from '../helpers/vins.js';

const run = runCli;

describe('batch import: column mapping', () => {
  it('maps aliases and dotted paths to account_data, numbers and booleans typed, empty cells skipped', () => {
    const header = [
      'vin',
      'year',
      'borrower_last',
      'coborrower_first',
      'loan_amount',
      'vehicle.title.is_electronic',
      'vehicle.color',
      'groupId',
      'sync_nmvtis',
    ];
    const { paths, unknown } = mapColumns(header);
    expect(unknown).to.deep.equal([]);
    const body = rowBody(header, paths, [
      '1HGCM82633A004352',
      '2003',
      'Doe',
      '',
      '$18,500.50',
      'TRUE',
      '',
      'west',
      'true',
    ]);
    expect(body).to.deep.equal({
      groupId: 'west',
      sync_nmvtis: true,
      account_data: {
        vehicle: { vin: '1HGCM82633A004352', year: 2003, title: { is_electronic: true } },
        loan: { borrower: [{ name_last: 'Doe' }], loan_amount: 18500.5 },
      },
    });
    expect(mapColumns(['vin', 'owner_ssn', 'loan.x']).unknown).to.deep.equal(['owner_ssn']);
  });
});

for (const dialect of DIALECTS) {
  describe(`batch import: the importer (${dialect})`, function () {
    this.timeout(120_000);

    it('creates one entry per row, reports bad rows, and a re-run creates nothing (idempotent by VIN)', async () => {
      const t = await startTestEngine({ dialect, listen: false, config: { stages: ['intake'] } });
      try {
        const p = await t.engine.principalFor(t.org.name);
        const csv =
          accountsCsv(40) +
          `${vinFor(3)},2020,DUP,X,TX,A,B,a@example.com,1 St,Austin,TX,78701,LN,1,Bank\n` +
          'BADVIN,2020,X,Y,TX,A,B,a@example.com,1 St,Austin,TX,78701,LN,1,Bank\n' +
          `${vinFor(900)},2020,X,Y,ZZ,A,B,a@example.com,1 St,Austin,TX,78701,LN,1,Bank\n`;
        const deps = { service: t.engine.service, db: t.engine.db, metrics: t.engine.metrics };
        const rows: RowResult[] = [];
        // batches of 7: the file's 43 rows make 7 batches, the last one short
        const first = await importCsv(deps, p, Readable.from([csv]), { batch: 7, onRow: (r) => rows.push(r) });
        expect({ ...first, ms: 0, errorRows: first.errorRows.map((r) => r.row) }).to.deep.equal({
          rows: 43,
          created: 40,
          exists: 1,
          errors: 2,
          errorRows: [43, 44],
          ms: 0,
        });
        expect(first.errorRows[0]!.error).to.match(/invalid VIN/);
        expect(first.errorRows[1]!.error).to.match(/issuing_state/);
        expect(rows.map((r) => r.row)).to.deep.equal(Array.from({ length: 43 }, (_, i) => i + 2));
        expect(rows.slice(40).map((r) => r.result)).to.deep.equal(['exists', 'error', 'error']);
        const listed = await eventually(
          async () => {
            const l = await t.engine.service.list(p, { limit: 500 });
            return l.count === 40 && (l.items as any[]).every((e) => e.job_status === 'complete') ? l : undefined;
          },
          { tries: 2000, what: "the imported entries' jobs complete" },
        );
        const one = (listed.items as any[]).find((e) => e.VIN === vinFor(7));
        expect(one.account_data.loan.borrower[0]).to.deep.include({ name_first: 'Pat7', name_last: 'Borrower7' });
        expect(one.account_data.loan.loan_amount).to.equal(10007);
        // each created entry's first event was written with it
        for (const e of listed.items as any[])
          expect((await t.engine.outbox.forEntry(e.entryId))[0]!.name).to.equal('title.job_status.pending');
        const again = await importCsv(deps, p, Readable.from([csv]));
        expect([again.created, again.exists, again.errors]).to.deep.equal([0, 41, 2]);
        expect((await t.engine.service.list(p, { limit: 500 })).count).to.equal(40);
        expect(await t.engine.db.query('SELECT id FROM duplicate_pointers')).to.have.length(0);
        const metrics = (await t.engine.metrics.scrape()).body;
        expect(metrics).to.include('titled_import_rows_total{result="created"} 40');
      } finally {
        await t.stop();
      }
    });
  });
}

describe('batch import: titled import', function () {
  this.timeout(180_000);
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'titled-import-'));
    expect((await run(['orgs', 'create', 'acme'], dataDir)).code).to.equal(0);
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('imports the example file, prints a summary, and a second run is safe', async () => {
    const example = join(packageRoot, 'examples', 'import', 'accounts.csv');
    const r = await run(['import', example, '--org', 'acme'], dataDir);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/3 rows, 3 created, 0 already present, 0 errors/);
    const again = await run(['import', example, '--org', 'acme', '--json'], dataDir);
    expect(JSON.parse(again.stdout)).to.deep.include({ rows: 3, created: 0, exists: 3, errors: 0 });
    const list = await run(['entries', 'get', '--org', 'acme', '--entry', 'nope'], dataDir);
    expect(list.code).to.equal(1);
  });

  it('without a terminal: plain progress lines and one line per bad row on stderr, the error report file, exit 1', async () => {
    const file = join(dataDir, 'big.csv');
    writeFileSync(
      file,
      accountsCsv(2100, { start: 10_000 }) + 'BADVIN,2020,X,Y,TX,A,B,a@example.com,1 St,Austin,TX,78701,LN,1,Bank\n',
    );
    const report = join(dataDir, 'errors.csv');
    const r = await run(['import', file, '--org', 'acme', '--errors', report], dataDir);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^import: 1000 rows \(1000 created, 0 present, 0 errors\), \d+ rows\/s$/m);
    expect(r.stderr).to.match(/^import: 2000 rows/m);
    expect(r.stderr).to.match(/^import: row 2102 \(BADVIN\): invalid VIN/m);
    expect(r.stderr).not.to.include('\u001b[');
    expect(r.stdout).to.match(/2101 rows, 2100 created, 0 already present, 1 errors/);
    expect(readFileSync(report, 'utf8')).to.match(/^row,vin,error\n2102,BADVIN,"invalid VIN/);
  });

  it('on a terminal: a progress bar (run under script(1) for a pseudo-terminal)', async function () {
    if (spawnSync('script', ['--version']).status !== 0) this.skip();
    const file = join(dataDir, 'tty.csv');
    writeFileSync(file, accountsCsv(300, { start: 50_000 }));
    const cmd = [process.execPath, CLI, 'import', file, '--org', 'acme'].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
      env: { ...process.env, TITLED_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(r.status, r.stdout).to.equal(0);
    expect(r.stdout).to.match(/import \|[█░]+\| 100% \| 300 rows: 300 created, 0 present, 0 errors/);
    expect(r.stdout).to.match(/300 rows, 300 created/);
  });

  it('--batch N: rows committed N at a time, the same counts; a bad --batch is a usage error', async () => {
    const file = join(dataDir, 'batched.csv');
    writeFileSync(
      file,
      accountsCsv(25, { start: 70_000 }) + accountsCsv(5, { start: 70_010 }).split('\n').slice(1).join('\n'),
    );
    const r = await run(['import', file, '--org', 'acme', '--batch', '4', '--json'], dataDir);
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.include({ rows: 30, created: 25, exists: 5, errors: 0 });
    for (const bad of ['0', '1001', '2.5', 'x']) {
      const b = await run(['import', file, '--org', 'acme', '--batch', bad], dataDir);
      expect(b.code).to.equal(2);
      expect(b.stderr).to.include('--batch must be 1 to 1000');
    }
  });

  it('refuses a file with unknown columns or no vin column, naming them (exit 2)', async () => {
    const file = join(dataDir, 'bad.csv');
    writeFileSync(file, 'vin,ssn\n1HGCM82633A004352,123\n');
    const r = await run(['import', file, '--org', 'acme'], dataDir);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('unknown column(s): ssn');
    writeFileSync(file, 'make\nHONDA\n');
    expect((await run(['import', file, '--org', 'acme'], dataDir)).stderr).to.include('needs a vin column');
    expect(existsSync(file)).to.equal(true);
  });
});
