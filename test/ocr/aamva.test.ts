/**
 * AAMVA barcodes as issuers and scanners deliver them (issue 20): the
 * variant corpus (test/fixtures/ocr/aamva/variants.ts: versions 1-10, every
 * name form, header, designator, offset and separator deviations, Canadian
 * issuers, jurisdiction subfiles) parsed directly, rendered as license backs
 * and read through analyzeDocument, a few as 300-dpi scans through OCR and
 * one through `titled extract`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { analyzeDocument } from '../../plugins/ocr/analyze.js';
import { parseAamva } from '../../plugins/ocr/extract/aamva.js';
import { barcodeFields } from '../../plugins/ocr/extract/license.js';
import { runTool } from '../../plugins/ocr/read/exec.js';
import { aamvaVariants, payloadFor, renderBack, type Holder, type Variant } from '../fixtures/ocr/aamva/variants.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const variants = aamvaVariants();
const misses = (v: Variant, fields: Record<string, string>) =>
  Object.entries(v.expected)
    .filter(([k, want]) => (fields[k] ?? '') !== want)
    .map(([k, want]) => `${v.id} (${v.deviations.join(', ')}) ${k}: '${fields[k] ?? ''}' want '${want}'`);

const holder: Holder = {
  first: 'MARY ANN',
  middle: 'LEE',
  last: 'DE LA CRUZ',
  suffix: 'III',
  number: 'D1234567',
  dob: '1984-07-09',
  expiration: '2029-07-09',
  issued: '2021-03-02',
  sex: 'F',
  street: '12 OAK AVE',
  city: 'AUSTIN',
  state: 'TX',
  zip: '78701',
  country: 'USA',
  iin: '636015',
  heightIn: 65,
  weightLb: 140,
};

describe('AAMVA barcodes from the field', function () {
  this.timeout(600_000);

  it('the corpus covers every version, name form and deviation', () => {
    expect(new Set(variants.map((v) => v.version))).to.have.lengthOf(10);
    const devs = new Set(variants.flatMap((v) => v.deviations));
    for (const d of [
      'designator missing',
      'offsets shifted',
      'length short, sex after it',
      'AAMVA file type',
      'no compliance indicator',
      'Canadian issuer',
      'Z subfile before, offsets zero',
      'DAA first middle last',
      'DAA last,first,middle,suffix',
      'DCS/DAC first middle',
    ]) {
      expect(devs, d).to.include(d);
    }
    expect(variants.length).to.be.greaterThan(80);
  });

  it('parses every variant payload exactly', () => {
    const bad = variants.flatMap((v) => {
      const r = parseAamva(v.payload);
      return r ? misses(v, barcodeFields(r)) : [`${v.id} (${v.deviations.join(', ')}) not parsed`];
    });
    expect(bad).to.deep.equal([]);
  });

  it('keeps a field that lies past a miscounted subfile length, and the jurisdiction subfile', () => {
    const r = parseAamva(
      payloadFor(holder, 9, 'DCS/DAC/DAD', { offsets: 'short-length', sexLast: true, zSubfile: 'after' }),
    )!;
    expect(r).to.deep.include({
      sex: 'F',
      name_first: 'MARY ANN',
      name_middle: 'LEE',
      name_last: 'DE LA CRUZ',
      name_suffix: 'III',
      height: '5-05',
      weight_lb: '140',
    });
    expect(r.jurisdiction_elements).to.deep.equal({ ZVA: '015', ZVB: 'N', ZVC: '20210302' });
  });

  it('reads a barcode whose subfile designator is missing and whose offsets point nowhere', () => {
    const r = parseAamva(payloadFor(holder, 10, 'DCS/DAC/DAD', { designator: 'missing', offsets: 'zero' }))!;
    expect(r).to.deep.include({
      version: 10,
      jurisdiction: 'TX',
      license_number: 'D1234567',
      dob: '1984-07-09',
      expiration: '2029-07-09',
      zip: '78701',
    });
  });

  it('splits version 1 full names (DAA) in every form', () => {
    const daa = (name: string) => {
      const r = parseAamva(`@\n\x1e\rANSI 6360500101DL00290190DLDAQ1\nDAA${name}\nDBB19800131\r`)!;
      return [r.name_first, r.name_middle, r.name_last, r.name_suffix];
    };
    expect(daa('DOE,JOHN QUINCY')).to.deep.equal(['JOHN', 'QUINCY', 'DOE', '']);
    expect(daa('DOE,JOHN,QUINCY')).to.deep.equal(['JOHN', 'QUINCY', 'DOE', '']);
    expect(daa('DOE,JOHN,QUINCY,JR')).to.deep.equal(['JOHN', 'QUINCY', 'DOE', 'JR']);
    expect(daa('DOE,JOHN,,JR.')).to.deep.equal(['JOHN', '', 'DOE', 'JR']);
    expect(daa('DOE JR,JOHN Q')).to.deep.equal(['JOHN', 'Q', 'DOE', 'JR']);
    expect(daa('JOHN QUINCY DOE')).to.deep.equal(['JOHN', 'QUINCY', 'DOE', '']);
    expect(daa('JOHN QUINCY DOE III')).to.deep.equal(['JOHN', 'QUINCY', 'DOE', 'III']);
    expect(daa('VAN DYKE,JOHN V')).to.deep.equal(['JOHN', 'V', 'VAN DYKE', '']);
    expect(daa('DOE$JOHN$Q')).to.deep.equal(['JOHN', 'Q', 'DOE', '']);
  });

  it('reads dates in the order the version and the country use', () => {
    const us = parseAamva(payloadFor(holder, 8, 'DCS/DAC/DAD'))!;
    const ca = parseAamva(
      payloadFor({ ...holder, state: 'ON', iin: '636012', country: 'CAN', zip: 'M5V 2T6' }, 8, 'DCS/DAC/DAD'),
    )!;
    const v1 = parseAamva(payloadFor(holder, 1, 'DAB/DAC/DAD'))!;
    for (const r of [us, ca, v1])
      expect([r.dob, r.expiration, r.issued]).to.deep.equal(['1984-07-09', '2029-07-09', '2021-03-02']);
    expect(us.elements.DBB).to.equal('07091984');
    expect(ca.elements.DBB).to.equal('19840709');
    expect(ca).to.deep.include({ country: 'CAN', jurisdiction: 'ON', zip: 'M5V 2T6' });
  });

  it('reads every rendered variant as a license back with its fields exact', async () => {
    const bad: string[] = [];
    for (const v of variants) {
      const a = await analyzeDocument(Buffer.from(await renderBack(v)));
      if (a.document_type !== 'DRIVER_LICENSE_BACK') bad.push(`${v.id} read as ${a.document_type}`);
      bad.push(...misses(v, a.fields));
    }
    expect(bad).to.deep.equal([]);
  });

  it('reads scans (300 dpi PNG, OCR path) of deviating barcodes, one through `titled extract`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titled-aamva-'));
    try {
      const picked = ['designator missing', 'length short, sex after it', 'offsets zero', 'Canadian issuer'].map((d) =>
        variants.find((v) => v.deviations.includes(d))!,
      );
      for (const [i, v] of picked.entries()) {
        const png = await runTool('pdftoppm', ['-q', '-r', '300', '-gray', '-png', '-singlefile', '-'], {
          input: await renderBack(v),
          timeoutMs: 60_000,
          maxOutputBytes: 64 << 20,
        });
        let fields: Record<string, string>;
        let type: string;
        if (i === 0) {
          const file = join(dir, 'back.png');
          writeFileSync(file, png);
          const r = spawnSync(process.execPath, [CLI, 'extract', file, '--compact'], {
            encoding: 'utf8',
            env: { ...process.env, TITLED_LOG_LEVEL: 'silent' },
          });
          expect(r.status, r.stderr).to.equal(0);
          ({ fields, document_type: type } = JSON.parse(r.stdout) as {
            fields: Record<string, string>;
            document_type: string;
          });
        } else {
          const a = await analyzeDocument(png);
          ({ fields, document_type: type } = a);
          expect(a.pages[0]!.source).to.equal('ocr');
        }
        expect(type, v.id).to.equal('DRIVER_LICENSE_BACK');
        expect(misses(v, fields)).to.deep.equal([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
