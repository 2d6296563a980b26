/**
 * Small print on cards (issue 20): a card whose smallest labels (4.5-5 pt,
 * about 13 px at 300 dpi) are under what tesseract reads well is enlarged,
 * whatever its median glyph, so a one-letter value beside such a label (SEX
 * M) is read; a full page's fine print is left alone; a grainy card is enlarged at most 1.5 times; a license back
 * whose barcode reads is read at its own scale.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeDocument, planPage } from '../../plugins/ocr/analyze.js';
import { parseAamva } from '../../plugins/ocr/extract/aamva.js';
import { decodeImage, ocrScale, smallPrintScale } from '../../plugins/ocr/read/image.js';
import { generateHeldout } from '../fixtures/ocr/heldout/generate.js';
import { generateCorpus } from '../fixtures/ocr/generator/corpus.js';

const heights = (small: number, big: number, n = 100) =>
  Array.from({ length: n }, (_, i) => (i < n * 0.2 ? small : big));

describe('small print', function () {
  this.timeout(600_000);

  it('enlarges by the smallest print, not the median glyph, on a card-sized area only', () => {
    // a card at 300 dpi: labels 13 px, values 20 px
    expect(smallPrintScale(heights(13, 20), 1, 1020 * 648)).to.be.closeTo(20 / 13, 0.01);
    // its labels already large enough
    expect(smallPrintScale(heights(16, 22), 1, 1020 * 648)).to.equal(1);
    // a letter page at 300 dpi with the same fine print: enlarging would double its OCR time
    expect(smallPrintScale(heights(13, 28), 1, 2550 * 3300)).to.equal(1);
    // never past twice the native size; too few glyphs to tell: unchanged
    expect(smallPrintScale(heights(6, 20), 1, 600 * 400)).to.equal(2);
    expect(smallPrintScale(heights(10, 20, 10), 1, 600 * 400)).to.equal(1);
    // a grainy page: its smallest "glyphs" may be grain, enlarged at most 1.5 times
    expect(smallPrintScale(heights(6, 20), 1, 600 * 400, true)).to.equal(1.5);
    expect(smallPrintScale(heights(13, 20), 1, 1020 * 648, true)).to.equal(1.5);
    expect(smallPrintScale(heights(14, 20), 1, 1020 * 648, true)).to.be.closeTo(20 / 14, 0.01);
  });

  it('reads the grainy CA-like cards of the bench corpus whole (grain enlarged twice read as thousands of words)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titled-small-print-'));
    try {
      const docs = await generateCorpus(dir, { perLayout: 2, seed: 1, layouts: ['dl-b'], conditions: ['degraded'] });
      expect(docs).to.have.lengthOf(2);
      for (const d of docs) {
        const a = await analyzeDocument(readFileSync(join(dir, d.file)));
        expect(a.document_type, d.id).to.equal('DRIVER_LICENSE');
        expect(a.fields.license_number, d.id).to.equal(d.expected.license_number);
        expect(a.fields.name_last, d.id).to.equal(d.expected.name_last);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a license back whose barcode reads at its own scale, and enlarges a front', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titled-small-print-'));
    try {
      const docs = await generateCorpus(dir, {
        perLayout: 1,
        seed: 1,
        layouts: ['dl-b', 'dl-back'],
        conditions: ['scan'],
      });
      const back = docs.find((d) => d.layout === 'dl-back')!;
      const front = docs.find((d) => d.layout === 'dl-b')!;
      for (const d of [back, front]) expect(d.file, d.id).to.match(/\.png$/);
      const plan = async (file: string) => {
        const { gray, density } = await decodeImage(readFileSync(join(dir, file)), 40_000_000);
        return planPage(gray, ocrScale(gray, density));
      };
      const b = await plan(back.file);
      expect(b.plan.scale, 'back').to.equal(b.plan.base);
      expect(b.pdf417?.map(parseAamva).some((r) => r?.license_number === back.expected.license_number)).to.equal(true);
      const f = await plan(front.file);
      expect(f.plan.scale, 'front').to.be.above(f.plan.base);
      expect(f.pdf417).to.equal(undefined);
      // the back read at its own scale still reads as a back, its fields from the barcode
      const a = await analyzeDocument(readFileSync(join(dir, back.file)));
      expect(a.document_type).to.equal('DRIVER_LICENSE_BACK');
      expect(a.barcode).to.not.equal(null);
      expect(a.fields.license_number).to.equal(back.expected.license_number);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the SEX of every CA-like held-out card scan (seed 3: two lost it at native size)', async () => {
    const docs = await generateHeldout({ seed: 3, n: 3, layouts: ['dl-west'], conditions: ['scan'] });
    expect(docs).to.have.lengthOf(3);
    for (const d of docs) {
      const a = await analyzeDocument(Buffer.from(d.bytes));
      expect(a.document_type, d.id).to.equal('DRIVER_LICENSE');
      expect(a.fields.sex, d.id).to.equal(d.expected.sex);
    }
  });
});
