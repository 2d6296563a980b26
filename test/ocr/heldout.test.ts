/**
 * The extractor on documents it was not built against: the held-out set
 * (test/fixtures/ocr/heldout: three title layouts, two license fronts, a
 * registration and a payoff letter unlike the corpus's, in other fonts,
 * vocabularies and arrangements), generated here from a fixed seed into a
 * temp folder, each as a digital PDF and as a 300-dpi scan. Floors: every
 * document classified right, >= 98% of fields exact on digital PDFs and
 * >= 90% on scans, no document under 75%. Plus the general rules those
 * documents called for, on synthetic word boxes.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeDocument, type DocumentAnalysis } from '../../plugins/ocr/analyze.js';
import { classifyPage } from '../../plugins/ocr/classify.js';
import { licenseFields } from '../../plugins/ocr/extract/license.js';
import { extractPayoff } from '../../plugins/ocr/extract/payoff.js';
import { extractRegistration } from '../../plugins/ocr/extract/registration.js';
import { extractTitle } from '../../plugins/ocr/extract/title.js';
import { repairVin } from '../../plugins/ocr/extract/vin.js';
import { findDates } from '../../plugins/ocr/layout/text.js';
import { scoreDoc, summarize, type DocScore } from '../fixtures/ocr/generator/score.js';
import { generateHeldout, type HeldDoc } from '../fixtures/ocr/heldout/generate.js';
import { wordBoxes } from './support.js';

describe('ocr on held-out layouts (documents unlike the corpus)', function () {
  this.timeout(300_000);
  const results: { doc: HeldDoc; analysis: DocumentAnalysis; score: DocScore }[] = [];
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'titled-heldout-test-'));
    const docs = await generateHeldout({ seed: 11, n: 1, out: dir });
    // all at once: the process-wide OCR queue runs one tesseract per core
    await Promise.all(
      docs.map(async (doc) => {
        const analysis = await analyzeDocument(await readFile(join(dir, doc.file)));
        results.push({ doc, analysis, score: scoreDoc(doc, analysis) });
      }),
    );
    results.sort((a, b) => a.doc.id.localeCompare(b.doc.id));
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const of = (condition: string) => results.filter((r) => r.doc.condition === condition);
  const report = (rs: typeof results) =>
    rs.flatMap((r) => r.score.misses.map((m) => `${r.doc.id} ${m.key}: got '${m.got}', want '${m.want}'`)).join('\n');

  it('has the layouts it promises, as digital PDFs and scans', () => {
    expect(new Set(results.map((r) => r.doc.layout)).size).to.be.at.least(7);
    expect(of('digital').length).to.equal(of('scan').length);
    for (const r of of('digital'))
      expect(
        r.analysis.pages.every((p) => p.source === 'text_layer'),
        r.doc.id,
      ).to.equal(true);
    for (const r of of('scan'))
      expect(
        r.analysis.pages.every((p) => p.source === 'ocr'),
        r.doc.id,
      ).to.equal(true);
  });

  it('classifies every document', () => {
    const wrong = results
      .filter((r) => !r.score.typeOk)
      .map((r) => `${r.doc.id}: ${r.analysis.document_type}, want ${r.doc.type}`);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it('>= 98% of fields exact on digital PDFs, the VIN exact on every one', () => {
    const rs = of('digital');
    const s = summarize(rs.map((r) => r.score));
    expect(s.accuracy, `${(s.accuracy * 100).toFixed(1)}%\n${report(rs)}`).to.be.at.least(0.98);
    expect(s.vinExact, report(rs)).to.equal(s.vinDocs);
  });

  it('>= 90% of fields exact on 300-dpi scans', () => {
    const rs = of('scan');
    const s = summarize(rs.map((r) => r.score));
    expect(s.accuracy, `${(s.accuracy * 100).toFixed(1)}%\n${report(rs)}`).to.be.at.least(0.9);
  });

  it('reads every layout: no document under 75% of its fields', () => {
    const low = results.filter((r) => r.score.exact < 0.75 * r.score.total);
    expect(
      low.map((r) => `${r.doc.id} ${r.score.exact}/${r.score.total}`),
      report(low),
    ).to.deep.equal([]);
  });
});

/** A word about as wide as its letters, `conf` as tesseract gives it. */
const { w, line, page } = wordBoxes({ width: 0.6, gap: 0.45 });

describe('general rules the held-out layouts called for (synthetic word boxes)', () => {
  it('a surname one edit from a stop label ("WRIGHT" / WEIGHT) is a name, not a label', () => {
    const f = extractTitle([
      page([
        ...line('WEIGHT', 1500, 200, 20),
        ...line('3636 LBS', 1500, 240),
        ...line('REGISTERED OWNER(S)', 100, 400, 20),
        ...line('WRIGHT, MELISSA C AND', 110, 440),
        ...line('RAMIREZ, RICHARD RAY', 110, 480),
        ...line('13238 S GRANT AVE', 110, 520),
        ...line('TACOMA, WA 98402', 110, 560),
      ]),
    ]).fields;
    expect(f).to.include({
      owner_1_name: 'MELISSA C WRIGHT',
      owner_2_name: 'RICHARD RAY RAMIREZ',
      conjunction: 'AND',
      owner_city: 'TACOMA',
    });
  });

  it('labels in slash-separated words and combined values ("PLATE/TAG", "Yr/Make  2021 NISSAN"), and a label word printed as two ("First Lien Holder")', () => {
    const reg = extractRegistration([
      page([
        ...line('PLATE/TAG', 100, 100, 20),
        ...line('VALID TO', 500, 100, 20),
        ...line('ULT-982', 100, 130),
        ...line('12/19/2025', 500, 130),
      ]),
    ]).fields;
    expect(reg).to.include({ plate: 'ULT982', registration_expiration: '2025-12-19' });
    const t = extractTitle([
      page([
        ...line('Yr/Make', 100, 100, 22),
        ...line('2021 NISSAN', 500, 100),
        ...line('First Lien Holder', 100, 300, 22),
        ...line('ALLY FINANCIAL', 500, 300),
        ...line('PO BOX 8102', 500, 340),
        ...line('COCKEYSVILLE MD 21030', 500, 380),
        ...line('Lien Release', 100, 460, 22),
        ...line('The first lien holder releases its interest.', 500, 460),
      ]),
    ]).fields;
    expect(t).to.include({ year: '2021', make: 'NISSAN', lienholder_name: 'ALLY FINANCIAL' });
  });

  it('blocks above their labels on a page that prints values over rules, labels under them', () => {
    const t = extractTitle([
      page(
        [
          ...line('1GCKYLZ72AE735618', 100, 100),
          ...line('2010', 900, 100),
          ...line('Identification Number', 100, 140, 18),
          ...line('Model Year', 900, 140, 18),
          ...line('U394320132', 100, 240),
          ...line('03-OCT-2016', 700, 240),
          ...line('Certificate No.', 100, 280, 18),
          ...line('Date of Issuance', 700, 280, 18),
          ...line('AMY ADAMS', 100, 400),
          ...line('OR MICHAEL C REMICK', 100, 440),
          ...line('8556 BIRCHWOOD CT', 100, 480),
          ...line('TUCSON, AZ 85701', 100, 520),
          ...line('Owner Name(s) and Address', 100, 565, 18),
          ...line('NONE', 1400, 520),
          ...line('Lienholder Name and Address', 1400, 565, 18),
        ],
        3300,
        2550,
      ),
    ]).fields;
    expect(t).to.include({
      vin: '1GCKYLZ72AE735618',
      year: '2010',
      title_number: 'U394320132',
      issue_date: '2016-10-03',
      owner_1_name: 'AMY ADAMS',
      owner_2_name: 'MICHAEL C REMICK',
      conjunction: 'OR',
      owner_zip: '85701',
      lienholder_name: '',
    });
  });

  it('a dot leader OCR read as a run of unsure words ties a label to a value across the page', () => {
    const junk = (x: number, y: number) =>
      ['OeeeERUEETEOOEE', 'CER', 'eee', 'reece', 'eee', 'rere', 'eeeeee', 'reer', 'errr'].map((t, i) =>
        w(t, x + i * 150, y + 8, 22, 5),
      );
    const f = extractPayoff([
      page([
        ...line('CAPITAL ONE AUTO FINANCE', 200, 100, 50),
        ...line('Amount required to pay in full', 250, 1300),
        ...junk(760, 1300),
        ...line('$24,429.86', 2050, 1300),
        ...line('Daily interest', 250, 1380),
        ...junk(520, 1380),
        ...line('$9.66', 2150, 1380),
        ...line('Quote valid until', 250, 1460),
        ...junk(620, 1460),
        ...line('06/04/2026', 2050, 1460),
      ]),
    ]).fields;
    expect(f).to.include({ payoff_amount: '24429.86', per_diem: '9.66', good_through: '2026-06-04' });
  });

  it('a license whose small labels did not read: classified by its card, address and dates; "LAST, FIRST MIDDLE" under the card heading', () => {
    const card = page(
      [
        ...line('California', 40, 10, 40),
        ...line('o C2525340', 740, 100, 33),
        ...line('exe 12/13/2029', 740, 160, 29),
        ...line('IDENTIFICATION CARD', 300, 200, 26),
        ...line('LINDQVIST III, MELISSA A', 310, 250, 30),
        ...line('4103 E COLFAX AVE', 310, 310, 24),
        ...line('SAN JOSE, CA 95113', 310, 345, 26),
        ...line('cos 12/13/1953', 310, 400, 28),
        ...line('sixM', 310, 500, 26),
      ],
      1018,
      647,
    );
    expect(classifyPage(card).type).to.equal('DRIVER_LICENSE');
    expect(licenseFields([card])).to.include({
      name_first: 'MELISSA',
      name_middle: 'A',
      name_last: 'LINDQVIST',
      name_suffix: 'III',
      license_number: 'C2525340',
      license_state: 'CA',
      dob: '1953-12-13',
      expiration: '2029-12-13',
      street: '4103 E COLFAX AVE',
      zip: '95113',
      sex: 'M',
    });
  });

  it('dates as 03-OCT-2016; an 18-character VIN read with a speck as O', () => {
    expect(findDates('Issued 03-OCT-2016, renewed OCT-05-2017')).to.deep.equal(['2016-10-03', '2017-10-05']);
    expect(repairVin('5NPND6OKV5CL360617')).to.deep.include({ vin: '5NPND6KV5CL360617', status: 'repaired' });
  });
});
