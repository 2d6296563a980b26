/**
 * Files that hold several documents (a title, a license and a payoff letter
 * scanned or saved into one PDF): split into documents by page, each read
 * by its own type, through analyzeDocument (the path of the ocr stage and
 * `titled extract`); and how pages are grouped (splitDocuments).
 */
import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { analyzeDocument, splitDocuments } from '../../plugins/ocr/analyze.js';
import type { Classification, DocumentType } from '../../plugins/ocr/classify.js';
import { scoreDoc } from '../fixtures/ocr/generator/score.js';
import { corpusBytes, corpusDoc, joinPdfs } from './support.js';

/** One PDF of corpus scans (PNG/JPEG), one image per page at 300 dpi. */
async function scansPdf(ids: string[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  for (const id of ids) {
    const png = await sharp(corpusBytes(corpusDoc(id)))
      .png()
      .toBuffer();
    const img = await out.embedPng(png);
    const page = out.addPage([(img.width * 72) / 300, (img.height * 72) / 300]);
    page.drawImage(img, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return Buffer.from(await out.save());
}

const cls = (type: DocumentType, score = 8, barcode = false): Classification => ({
  type,
  confidence: 0.9,
  scores: { [type]: score },
  ...(barcode ? { barcode } : {}),
});

describe('splitDocuments: the documents a file holds, by page', () => {
  it('keeps an ordinary document whole: a title and its back, a letter of several pages, a license front and back', () => {
    expect(splitDocuments([cls('VEHICLE_TITLE'), cls('VEHICLE_TITLE_BACK')])).to.deep.equal([[0, 1]]);
    expect(splitDocuments([cls('PAYOFF_LETTER'), cls('UNKNOWN', 0), cls('UNKNOWN', 0)])).to.deep.equal([[0, 1, 2]]);
    expect(splitDocuments([cls('DRIVER_LICENSE'), cls('DRIVER_LICENSE_BACK', 100, true)])).to.deep.equal([[0, 1]]);
    expect(splitDocuments([cls('UNKNOWN', 0)])).to.deep.equal([[0]]);
  });
  it('starts a new document at a page that reads plainly as another kind', () => {
    expect(
      splitDocuments([
        cls('VEHICLE_TITLE'),
        cls('VEHICLE_TITLE_BACK'),
        cls('DRIVER_LICENSE'),
        cls('PAYOFF_LETTER'),
        cls('UNKNOWN', 0),
      ]),
    ).to.deep.equal([[0, 1], [2], [3, 4]]);
    // a cover page with no clear type goes with the document after it
    expect(
      splitDocuments([cls('UNKNOWN', 0), cls('VEHICLE_REGISTRATION'), cls('DRIVER_LICENSE_BACK', 100, true)]),
    ).to.deep.equal([[0, 1], [2]]);
  });
  it("does not split on a page whose other type rests on weak cues (a letter's second page that mentions a lienholder)", () => {
    expect(splitDocuments([cls('PAYOFF_LETTER'), cls('VEHICLE_TITLE', 3)])).to.deep.equal([[0, 1]]);
  });
});

describe('a file of several documents through analyzeDocument', function () {
  this.timeout(180_000);

  it('a digital PDF of a title (and its back), a license and a payoff letter: three documents, each read as its own', async () => {
    const ids = ['title-tx-0-digital', 'title-back-0-digital', 'dl-a-0-digital', 'payoff-letter-0-digital'];
    const a = await analyzeDocument(await joinPdfs(ids));
    expect(a.documents?.map((d) => [d.part, d.document_type, d.pages])).to.deep.equal([
      [1, 'VEHICLE_TITLE', [1, 2]],
      [2, 'DRIVER_LICENSE', [3]],
      [3, 'PAYOFF_LETTER', [4]],
    ]);
    // each document's fields are what the same document alone gives
    for (const [n, id] of [
      [0, 'title-tx-0-digital'],
      [1, 'dl-a-0-digital'],
      [2, 'payoff-letter-0-digital'],
    ] as const) {
      const d = a.documents![n]!;
      expect(scoreDoc(corpusDoc(id), d).misses, id).to.deep.equal([]);
    }
    // the top level describes the first document, and says what the file holds
    expect(a.document_type).to.equal('VEHICLE_TITLE');
    expect(a.fields.vin).to.equal(corpusDoc('title-tx-0-digital').expected.vin);
    expect(a.warnings.join(' ')).to.match(/holds 3 documents/);
    expect(a.documents![2]!.account_data.loan?.payoff_amount).to.be.a('number');
  });

  it('scanned pages: a registration and a license back (its barcode read from its own page)', async () => {
    const a = await analyzeDocument(await scansPdf(['reg-card-0-scan', 'dl-back-0-scan']));
    expect(a.documents?.map((d) => d.document_type)).to.deep.equal(['VEHICLE_REGISTRATION', 'DRIVER_LICENSE_BACK']);
    expect(a.documents![0]!.barcode).to.equal(null);
    expect(a.documents![1]!.barcode).to.not.equal(null);
    expect(scoreDoc(corpusDoc('reg-card-0-scan'), a.documents![0]!).misses).to.deep.equal([]);
    expect(scoreDoc(corpusDoc('dl-back-0-scan'), a.documents![1]!).misses).to.deep.equal([]);
  });

  it('a file of one document has no documents list', async () => {
    const a = await analyzeDocument(await joinPdfs(['title-pa-0-digital', 'title-back-0-digital']));
    expect(a.documents).to.equal(undefined);
    expect(a.document_type).to.equal('VEHICLE_TITLE');
  });
});

describe('documents scanned on their side or upside down', function () {
  this.timeout(180_000);
  for (const id of ['dl-a-0-scan', 'title-ca-0-scan']) {
    for (const deg of [90, 180, 270]) {
      it(`${id} turned ${deg} degrees: found upright and read as the upright scan is`, async () => {
        const turned = await sharp(corpusBytes(corpusDoc(id)))
          .rotate(deg)
          .png()
          .withMetadata({ density: 300 })
          .toBuffer();
        const a = await analyzeDocument(turned);
        expect(a.document_type).to.equal(corpusDoc(id).type);
        expect(Math.round(((a.pages[0]!.rotated ?? 0) + deg) / 90) % 4, 'turned back').to.equal(0);
        expect(scoreDoc(corpusDoc(id), a).misses).to.deep.equal([]);
      });
    }
  }
});
