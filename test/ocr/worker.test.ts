/**
 * PDFs read in worker threads (plugins/ocr/worker): the results are the
 * results of reading in the caller's thread, field for field, for every
 * digital PDF of the committed corpus, a file of several documents and a
 * license back with a barcode; a scanned PDF is handed back and read (OCR)
 * in the caller's thread; errors keep their type and code; an aborted
 * document stops its worker and the pool goes on.
 */
import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { analyzeDocument, DocumentRejected, type DocumentAnalysis } from '../../plugins/ocr/analyze.js';
import { relayStats } from '../../plugins/ocr/read/tool-relay.js';
import { readingPool, readingPoolUsers, retainReadingPool } from '../../plugins/ocr/worker/pool.js';
import { startTestEngine } from '../helpers/engine.js';
import { aamvaVariants, renderBack } from '../fixtures/ocr/aamva/variants.js';
import { corpus, corpusBytes, corpusDoc, joinPdfs } from './support.js';

const sansTimings = (a: DocumentAnalysis) => {
  const { timings_ms: _t, ...rest } = a;
  return rest;
};

describe('reading PDFs in worker threads', function () {
  this.timeout(600_000);
  // the pool of now: an engine stopped by another suite may have ended an earlier one
  let pool = readingPool();
  beforeEach(() => {
    pool = readingPool();
  });

  it('gives the same analysis as reading in this thread, for every digital PDF of the corpus', async () => {
    const files = [
      ...corpus()
        .filter((d) => d.file.endsWith('.pdf'))
        .map((d) => ({ id: d.id, bytes: corpusBytes(d) })),
      {
        id: 'title+license+payoff',
        bytes: await joinPdfs(['title-tx-0-digital', 'dl-back-0-digital', 'payoff-letter-0-digital']),
      },
      {
        id: 'aamva variant',
        bytes: Buffer.from(await renderBack(aamvaVariants().find((v) => v.deviations.includes('designator missing'))!)),
      },
    ];
    expect(files.length).to.be.greaterThan(15);
    const before = pool.stats.read;
    const relayed = relayStats.served;
    // all at once through the workers, as the stage reads documents in parallel
    const off = await Promise.all(files.map((f) => analyzeDocument(f.bytes)));
    expect(pool.stats.read - before).to.equal(files.length);
    // the workers' pdftotext runs were started by this thread's tool runner (read/tool-relay.ts)
    expect(relayStats.served - relayed).to.be.at.least(files.length);
    for (const [i, f] of files.entries()) {
      const here = await analyzeDocument(f.bytes, { offThread: false });
      expect(sansTimings(off[i]!), f.id).to.deep.equal(sansTimings(here));
      expect(
        off[i]!.pages.every((p) => p.source === 'text_layer'),
        f.id,
      ).to.equal(true);
    }
    expect(off.at(-1)!.fields).to.deep.include({ barcode: 'AAMVA' });
    expect(off.at(-2)!.documents!.map((d) => d.document_type)).to.deep.equal([
      'VEHICLE_TITLE',
      'DRIVER_LICENSE_BACK',
      'PAYOFF_LETTER',
    ]);
  });

  it('hands a scanned PDF back to this thread for OCR, with the same result', async () => {
    const png = corpusBytes(corpusDoc('title-tx-0-scan'));
    const doc = await PDFDocument.create();
    const img = await doc.embedPng(png);
    doc
      .addPage([img.width * 0.24, img.height * 0.24])
      .drawImage(img, { x: 0, y: 0, width: img.width * 0.24, height: img.height * 0.24 });
    const pdf = Buffer.from(await doc.save());
    const before = pool.stats.handedBack;
    const off = await analyzeDocument(pdf);
    expect(pool.stats.handedBack - before).to.equal(1);
    expect(off.pages[0]!.source).to.equal('ocr');
    expect(sansTimings(off)).to.deep.equal(sansTimings(await analyzeDocument(pdf, { offThread: false })));
    expect(off.fields.vin).to.equal(corpusDoc('title-tx-0-scan').expected.vin);
  });

  it('keeps the type and code of errors', async () => {
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]);
    for (const offThread of [true, false]) {
      const e = await analyzeDocument(broken, { offThread }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, String(offThread)).to.be.instanceOf(DocumentRejected);
      expect((e as DocumentRejected).code).to.equal('UNREADABLE');
    }
  });

  it('an aborted document fails with its abort; the pool reads the next one', async () => {
    const bytes = corpusBytes(corpusDoc('title-ca-0-digital'));
    const early = new AbortController();
    early.abort(new Error('stopped before'));
    expect(
      await analyzeDocument(bytes, { signal: early.signal }).then(
        () => 'read',
        (e: Error) => e.message,
      ),
    ).to.equal('stopped before');
    const ctl = new AbortController();
    const p = analyzeDocument(bytes, { signal: ctl.signal });
    ctl.abort(new Error('stopped while reading'));
    expect(
      await p.then(
        () => 'read',
        (e: Error) => e.message,
      ),
    ).to.equal('stopped while reading');
    const again = await analyzeDocument(bytes);
    expect(again.document_type).to.equal('VEHICLE_TITLE');
  });

  it('the last engine to stop stops the workers; a later read starts a new pool', async () => {
    const bytes = corpusBytes(corpusDoc('title-ca-0-digital'));
    const t = await startTestEngine({ listen: false });
    expect(readingPoolUsers()).to.be.greaterThan(0);
    const others = readingPoolUsers() - 1;
    const before = readingPool();
    await analyzeDocument(bytes);
    expect(before.threads).to.be.greaterThan(0);
    await t.stop();
    if (others === 0) {
      expect(before.threads, 'threads after the last engine stopped').to.equal(0);
      expect(readingPool()).to.not.equal(before);
    }
    expect((await analyzeDocument(bytes)).document_type).to.equal('VEHICLE_TITLE');
  });
});
