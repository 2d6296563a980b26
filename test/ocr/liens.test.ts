/**
 * A title that prints the plain `LIENHOLDER` label over both lien boxes
 * (issue 20): both liens are read, in reading order, each with its own date;
 * a repeated label whose box reads NONE, or that holds no party, is no
 * second lien.
 */
import { expect } from 'chai';
import { analyzeDocument } from '../../plugins/ocr/analyze.js';
import { extractTitle } from '../../plugins/ocr/extract/title.js';
import { Sheet } from '../fixtures/ocr/generator/sheet.js';
import { wordBoxes } from './support.js';

const { line, page } = wordBoxes({ width: 0.6, gap: 0.45 });
const head = [
  ...line('CERTIFICATE OF TITLE', 900, 60, 50),
  ...line('VIN', 100, 200),
  ...line('1HGCM82633A004352', 700, 200),
  ...line('OWNER', 100, 300, 20),
  ...line('JOHN Q PUBLIC', 100, 330),
  ...line('42 ELM ST', 100, 370),
  ...line('RENO, NV 89501', 100, 410),
];

describe('two lien boxes both labelled LIENHOLDER', function () {
  this.timeout(120_000);

  it('side by side: the left box is the first lien, the right the second, each with the date under its label', () => {
    const r = extractTitle([
      page([
        ...head,
        ...line('LIENHOLDER', 100, 600, 20),
        ...line('LIENHOLDER', 1300, 600, 20),
        ...line('FIRST NATIONAL BANK', 100, 630),
        ...line('ALLY FINANCIAL', 1300, 630),
        ...line('PO BOX 4410', 100, 670),
        ...line('PO BOX 8102', 1300, 670),
        ...line('OMAHA, NE 68103', 100, 710),
        ...line('COCKEYSVILLE, MD 21030', 1300, 710),
        ...line('LIEN DATE', 100, 800, 20),
        ...line('LIEN DATE', 1300, 800, 20),
        ...line('01/15/2023', 100, 830),
        ...line('06/01/2024', 1300, 830),
      ]),
    ]);
    expect(r.fields).to.deep.include({
      lienholder_name: 'FIRST NATIONAL BANK',
      lienholder_street: 'PO BOX 4410',
      lienholder_city: 'OMAHA',
      lienholder_state: 'NE',
      lienholder_zip: '68103',
      lien_date: '2023-01-15',
      lienholder_2_name: 'ALLY FINANCIAL',
      lienholder_2_street: 'PO BOX 8102',
      lienholder_2_city: 'COCKEYSVILLE',
      lienholder_2_state: 'MD',
      lienholder_2_zip: '21030',
      lien_2_date: '2024-06-01',
    });
    expect(r.account_data.vehicle!.title!.active_liens!.map((x) => [x.lienholder!.name, x.lien_date])).to.deep.equal([
      ['FIRST NATIONAL BANK', '2023-01-15'],
      ['ALLY FINANCIAL', '2024-06-01'],
    ]);
  });

  it('stacked: the upper box is the first lien; a second box reading NONE is no lien', () => {
    const stacked = (second: [string, number, number][]) =>
      extractTitle([
        page([
          ...head,
          ...line('LIENHOLDER', 100, 600, 20),
          ...line('LIEN DATE', 1300, 600, 20),
          ...line('FIRST NATIONAL BANK', 100, 630),
          ...line('01/15/2023', 1300, 630),
          ...line('PO BOX 4410', 100, 670),
          ...line('OMAHA, NE 68103', 100, 710),
          ...line('LIENHOLDER', 100, 900, 20),
          ...line('LIEN DATE', 1300, 900, 20),
          ...second.flatMap(([t, x, y]) => line(t, x, y)),
        ]),
      ]).fields;
    const two = stacked([
      ['LAKESHORE FEDERAL CREDIT UNION', 100, 930],
      ['06/01/2024', 1300, 930],
      ['88 SHORE DR', 100, 970],
      ['TOLEDO, OH 43611', 100, 1010],
    ]);
    expect(two).to.deep.include({
      lienholder_name: 'FIRST NATIONAL BANK',
      lien_date: '2023-01-15',
      lienholder_2_name: 'LAKESHORE FEDERAL CREDIT UNION',
      lienholder_2_city: 'TOLEDO',
      lien_2_date: '2024-06-01',
    });
    const none = stacked([['NONE', 100, 930]]);
    expect(none).to.deep.include({
      lienholder_name: 'FIRST NATIONAL BANK',
      lien_date: '2023-01-15',
      lienholder_2_name: '',
      lien_2_date: '',
    });
  });

  it('reads both liens of a digital title through analyzeDocument', async () => {
    const s = await Sheet.create(612, 792);
    s.text(306, 40, 'STATE OF NEVADA', { size: 14, font: 'sansBold', align: 'center' });
    s.text(306, 60, 'CERTIFICATE OF TITLE', { size: 16, font: 'sansBold', align: 'center' });
    s.box(40, 100, 300, 36, 'VEHICLE IDENTIFICATION NUMBER', ['1HGCM82633A004352']);
    s.box(350, 100, 110, 36, 'YEAR', ['2003']);
    s.box(470, 100, 100, 36, 'MAKE', ['HONDA']);
    s.box(40, 150, 530, 70, 'OWNER', ['JOHN Q PUBLIC', '42 ELM ST', 'RENO, NV 89501']);
    s.box(40, 240, 260, 90, 'LIENHOLDER', ['FIRST NATIONAL BANK', 'PO BOX 4410', 'OMAHA, NE 68103']);
    s.box(310, 240, 260, 90, 'LIENHOLDER', ['ALLY FINANCIAL', 'PO BOX 8102', 'COCKEYSVILLE, MD 21030']);
    s.box(40, 335, 260, 36, 'LIEN DATE', ['01/15/2023']);
    s.box(310, 335, 260, 36, 'LIEN DATE', ['06/01/2024']);
    const a = await analyzeDocument(Buffer.from(await s.save()));
    expect(a.document_type).to.equal('VEHICLE_TITLE');
    expect(a.fields).to.deep.include({
      vin: '1HGCM82633A004352',
      lienholder_name: 'FIRST NATIONAL BANK',
      lienholder_city: 'OMAHA',
      lien_date: '2023-01-15',
      lienholder_2_name: 'ALLY FINANCIAL',
      lienholder_2_street: 'PO BOX 8102',
      lienholder_2_zip: '21030',
      lien_2_date: '2024-06-01',
    });
  });
});
