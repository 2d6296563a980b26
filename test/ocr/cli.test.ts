/** `titled extract FILE`: the same code path as the ocr stage, JSON on stdout. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { TitleTruth } from '../fixtures/ocr/generator/truth.js';
import { CORPUS_DIR, corpusDoc } from './support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TITLED_LOG_LEVEL: 'silent' },
  });

describe('titled extract', function () {
  this.timeout(60_000);

  it('prints the classification and the extracted fields of a local file as JSON', () => {
    const doc = corpusDoc('title-fl-0-digital');
    const r = run('extract', join(CORPUS_DIR, doc.file), '--compact');
    expect(r.status, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout);
    expect(out.document_type).to.equal('VEHICLE_TITLE');
    expect(out.fields).to.deep.include(doc.expected);
    expect(out.account_data.vehicle.vin).to.equal((doc.truth as TitleTruth).vehicle.vin);
    expect(out.pages[0].source).to.equal('text_layer');
  });

  it('exits 1 with the reason for a file that is not a PDF, JPEG or PNG; 2 without a file', () => {
    const r = run('extract', join(CORPUS_DIR, 'manifest.json'));
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('the document is JSON, not a PDF, JPEG or PNG');
    expect(run('extract').status).to.equal(2);
  });
});
