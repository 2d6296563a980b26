import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORD_DIR, loadStateFeeSchedule, type FeeRecord } from '../../states/fee-data.js';
import { STATE_CODES, parseStateFeeSchedule, stateDir, writeFeeRecords } from '../../states/fee-schema.js';

const feeFile = (code: string) => join(stateDir(code), 'fees.json');
const validateNow = (code: string, file = feeFile(code)) =>
  parseStateFeeSchedule(code, readFileSync(file, 'utf8'), file);
const readRecord = (dir: string, code: string) =>
  JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')) as FeeRecord;

describe('states: fee data records (validated at build, checked at run time)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-fee-records-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the build recorded every state, and each record holds what validating the file now gives', () => {
    const { written, failed } = writeFeeRecords(dir);
    expect(failed).to.deep.equal([]);
    expect(written).to.deep.equal([...STATE_CODES]);
    for (const code of STATE_CODES) {
      const now = validateNow(code);
      // defaults applied: a record is the validated schedule, not the raw file
      expect(now.late_fees, code).to.be.an('array');
      expect(readRecord(dir, code).schedule, code).to.deep.equal(now);
      expect(loadStateFeeSchedule(code, { recordDir: dir }), code).to.deep.equal(now);
      // the records `npm run build` wrote are the same
      expect(readRecord(RECORD_DIR, code), `${code}: dist/states/validated is stale, run npm run build`).to.deep.equal(
        readRecord(dir, code),
      );
    }
  });

  it('a record is used only for the file bytes and the schema it was made with', () => {
    writeFeeRecords(dir);
    const rec = readRecord(dir, 'TX');
    // mark the record: seen only when the loader takes the record
    const marked = { ...rec, schedule: { ...rec.schedule, name: 'from the record' } };
    writeFileSync(join(dir, 'TX.json'), JSON.stringify(marked));
    expect(loadStateFeeSchedule('TX', { recordDir: dir }).name).to.equal('from the record');

    // the same data in other bytes (an edit since the build): validated now
    const copy = join(dir, 'tx-fees.json');
    writeFileSync(copy, readFileSync(feeFile('TX'), 'utf8') + '\n');
    const now = loadStateFeeSchedule('TX', { recordDir: dir, file: copy });
    expect(now.name).to.not.equal('from the record');
    expect(now).to.deep.equal(validateNow('TX'));

    // a record made by other schema code is not used
    writeFileSync(join(dir, 'TX.json'), JSON.stringify({ ...marked, schema_sha256: '0'.repeat(64) }));
    expect(loadStateFeeSchedule('TX', { recordDir: dir })).to.deep.equal(validateNow('TX'));
    // nor a damaged one, nor none
    writeFileSync(join(dir, 'TX.json'), '{"file_sha256":');
    expect(loadStateFeeSchedule('TX', { recordDir: dir })).to.deep.equal(validateNow('TX'));
    rmSync(join(dir, 'TX.json'));
    expect(loadStateFeeSchedule('TX', { recordDir: dir })).to.deep.equal(validateNow('TX'));
  });

  it('a file edited since the build is refused with the zod issue, though a record exists for the old one', () => {
    writeFeeRecords(dir);
    const data = JSON.parse(readFileSync(feeFile('CA'), 'utf8')) as Record<string, unknown>;
    const bad = join(dir, 'ca-fees.json');
    writeFileSync(bad, JSON.stringify({ ...data, state: 'CA', surprise: 1 }));
    expect(() => loadStateFeeSchedule('CA', { recordDir: dir, file: bad })).to.throw(/fee data for CA is invalid/);
    writeFileSync(bad, JSON.stringify({ ...data, state: 'NV' }));
    expect(() => loadStateFeeSchedule('CA', { recordDir: dir, file: bad })).to.throw(/expected "CA", got "NV"/);
    writeFileSync(bad, '{ not json');
    expect(() => loadStateFeeSchedule('CA', { recordDir: dir, file: bad })).to.throw(/fee data for CA: cannot read/);
  });
});
