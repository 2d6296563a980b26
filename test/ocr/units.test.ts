/**
 * The pieces of document intake without OCR: VIN repair, the AAMVA parser,
 * value parsers, sniffing, layout-aware extraction on synthetic word boxes
 * (arrangements the corpus does not have), classification, the merge rule.
 */
import { expect } from 'chai';
import { classifyPage } from '../../plugins/ocr/classify.js';
import { parseAamva } from '../../plugins/ocr/extract/aamva.js';
import { identifier } from '../../plugins/ocr/extract/common.js';
import { licenseFields } from '../../plugins/ocr/extract/license.js';
import { extractPayoff } from '../../plugins/ocr/extract/payoff.js';
import { extractTitle } from '../../plugins/ocr/extract/title.js';
import { repairVin } from '../../plugins/ocr/extract/vin.js';
import { findDates, findMoney, parseCityLine, parseName } from '../../plugins/ocr/layout/text.js';
import { mergeDocuments, type DocRecord } from '../support/merge.js';
import { sniff } from '../../plugins/ocr/sniff.js';
import { aamvaPayload } from '../fixtures/ocr/generator/others.js';
import { licenseTruth, Rng } from '../fixtures/ocr/generator/truth.js';
import { wordBoxes } from './support.js';

/** Words about as wide as a monospaced font makes them, one space apart. */
const { line, page } = wordBoxes({ width: 0.62, gap: 0.5 });

describe('VIN repair (check digit, 49 CFR 565.15)', () => {
  it('keeps a VIN whose check digit holds', () => {
    expect(repairVin('1HGCM82633A004352')).to.deep.include({ vin: '1HGCM82633A004352', status: 'valid' });
  });
  it('always reads I, O, Q as 1, 0, 0 (they never occur in a VIN)', () => {
    expect(repairVin('IHGCM82633AOO4352')).to.deep.include({
      vin: '1HGCM82633A004352',
      status: 'repaired',
      changed: [1, 12, 13],
    });
  });
  it('repairs one look-alike swap when the check digit confirms a single candidate', () => {
    expect(repairVin('1HGCM8Z633A004352')).to.deep.include({
      vin: '1HGCM82633A004352',
      status: 'repaired',
      changed: [7],
    });
    expect(repairVin('1HGCM82633A0O4352')).to.deep.include({ vin: '1HGCM82633A004352', status: 'repaired' });
  });
  it('keeps the read and flags it when no candidate or several candidates check', () => {
    const none = repairVin('WDDHF8JB0CA000001');
    expect(none).to.deep.include({ status: 'unverified', vin: 'WDDHF8JB0CA000001', candidates: 0 });
    // two wrong look-alikes: one swap cannot fix it, and two are never tried
    expect(repairVin('1HGCM8Z633A0O4352'.replace('0O', 'OO').replace('Z', 'Z').replace('8', 'B')).status).to.equal(
      'unverified',
    );
    expect(repairVin('1HGCM82633A00435').status).to.equal('malformed');
  });
  it('drops a glyph read twice ("1I", "O0") when exactly one VIN results', () => {
    expect(repairVin('1IN4UXU6F3PW565355')).to.deep.include({ vin: '1N4UXU6F3PW565355', status: 'repaired' });
    expect(repairVin('1FTTXCDWO0AP201184')).to.deep.include({ vin: '1FTTXCDW0AP201184', status: 'repaired' });
  });
});

describe('AAMVA barcode parsing', () => {
  it("parses the generator's 2016/2020 payload", () => {
    const t = licenseTruth(new Rng(3), 'TX');
    const r = parseAamva(aamvaPayload(t))!;
    expect(r).to.deep.include({
      jurisdiction: 'TX',
      license_number: t.number,
      name_last: t.person.last,
      name_first: t.person.first,
      name_middle: t.person.middle,
      dob: t.dob,
      expiration: t.expiration,
      sex: t.sex,
      street: t.person.addr.street,
      city: t.person.addr.city,
      zip: t.person.addr.zip,
    });
  });
  it('reads version 1 (DAA full name) and Canadian dates (CCYYMMDD)', () => {
    const v1 =
      '@\n\x1e\rANSI 6360500101DL00290190DLDAQ123456789\nDAALASTNAME,FIRST,MIDDLE\nDBB19800131\nDBA20300131\nDBC1\nDAGONE MAIN ST\nDAIBOISE\nDAJID\nDAK83702\nDCGCAN\r';
    const r = parseAamva(v1)!;
    expect(r).to.deep.include({
      version: 1,
      license_number: '123456789',
      name_last: 'LASTNAME',
      name_first: 'FIRST',
      name_middle: 'MIDDLE',
      dob: '1980-01-31',
      sex: 'M',
      jurisdiction: 'ID',
    });
  });
  it('is null for other text', () => {
    expect(parseAamva('hello')).to.equal(null);
  });
});

describe('value parsers', () => {
  it('dates in the forms documents print them', () => {
    expect(
      findDates('03/15/2024 3-15-24 2024-03-15 MAR 15, 2024 15 MAR 2024 March 15, 2024 J anuary 2, 2026'),
    ).to.deep.equal(['2024-03-15', '2024-03-15', '2024-03-15', '2024-03-15', '2024-03-15', '2024-03-15', '2026-01-02']);
    expect(findDates('O3/I5/2O24')).to.deep.equal(['2024-03-15']);
    expect(findDates('13/45/2024')).to.deep.equal([]);
  });
  it('identifiers: a speck read as an apostrophe or quote inside one is dropped', () => {
    expect(identifier("Y'7035033")).to.equal('Y7035033');
    expect(identifier('4d DLN Y\u20197035033')).to.equal('Y7035033');
    expect(identifier('Y 124056514')).to.equal('Y124056514');
    expect(identifier("O'BRIEN")).to.equal(null);
  });
  it('money', () => {
    expect(findMoney('is $22,524.80. and $9.57 per day; total 1,234.50')).to.deep.equal([
      '22524.80',
      '9.57',
      '1234.50',
    ]);
  });
  it('city lines and names', () => {
    expect(parseCityLine('SACRAMENTO, CA 95814-1234')).to.deep.equal({ city: 'SACRAMENTO', state: 'CA', zip: '95814' });
    expect(parseCityLine('SAN DIEGO CA 921O1')).to.deep.equal({ city: 'SAN DIEGO', state: 'CA', zip: '92101' });
    expect(parseCityLine('SOMEWHERE, XX 12345')).to.equal(null);
    expect(parseName('DOE JR, JOHN Q')).to.deep.include({
      first: 'JOHN',
      middle: 'Q',
      last: 'DOE',
      suffix: 'JR',
      name: 'JOHN Q DOE JR',
    });
    expect(parseName('MARY ANN SMITH')).to.deep.include({ first: 'MARY', middle: 'ANN', last: 'SMITH' });
  });
});

describe('sniffing', () => {
  it('tells PDF, JPEG and PNG from their bytes and names what anything else looks like', () => {
    expect(sniff(Buffer.from('%PDF-1.7\n')).format).to.equal('pdf');
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0])).format).to.equal('jpeg');
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])).format).to.equal('png');
    expect(sniff(Buffer.from('<html><body>x</body></html>'))).to.deep.equal({
      format: null,
      looksLike: 'an HTML page',
    });
    expect(sniff(Buffer.from('GIF89a')).looksLike).to.equal('a GIF image');
    expect(sniff(Buffer.from([0x50, 0x4b, 0x03, 0x04])).looksLike).to.match(/ZIP/);
    expect(sniff(Buffer.alloc(0)).looksLike).to.equal('an empty file');
  });
});

describe('layout-aware extraction on arrangements the corpus does not have', () => {
  it('labels left of their values at a distance, in a landscape page, with a two-line owner block', () => {
    const l = page(
      [
        ...line('STATE OF NEVADA', 1200, 60, 50),
        ...line('CERTIFICATE OF TITLE', 1100, 130, 50),
        ...line('VIN', 100, 300),
        ...line('5YJ3E1EA7KF317000', 700, 300),
        ...line('MODEL YEAR', 100, 360),
        ...line('2019', 700, 360),
        ...line('MAKE', 100, 420),
        ...line('TESLA', 700, 420),
        ...line('TITLE NO.', 100, 480),
        ...line('NV123456', 700, 480),
        ...line('DATE ISSUED', 1800, 300),
        ...line('04/01/2020', 2300, 300),
        ...line('ODOMETER', 1800, 360),
        ...line('12,345', 2300, 360),
        ...line('OWNER', 100, 600),
        ...line('JANE Q PUBLIC', 100, 650),
        ...line('100 DESERT RD', 100, 700),
        ...line('LAS VEGAS, NV 89101', 100, 750),
        ...line('LIENHOLDER', 1800, 600),
        ...line('NONE', 1800, 650),
      ],
      3300,
      2550,
    );
    const r = extractTitle([l]);
    expect(r.fields).to.deep.include({
      vin: '5YJ3E1EA7KF317000',
      year: '2019',
      make: 'TESLA',
      title_number: 'NV123456',
      issue_date: '2020-04-01',
      odometer_reading: '12345',
      issuing_state: 'NV',
      owner_1_name: 'JANE Q PUBLIC',
      owner_street: '100 DESERT RD',
      owner_city: 'LAS VEGAS',
      owner_zip: '89101',
      lienholder_name: '',
    });
    expect(r.account_data.vehicle!.title!.has_liens).to.equal(false);
  });

  it("two lienholders with labels left of their values, each lien date on its lienholder's row under the same label", () => {
    const l = page([
      ...line('CERTIFICATE OF TITLE', 900, 60, 50),
      ...line('VIN', 100, 200),
      ...line('1HGCM82633A004352', 700, 200),
      ...line('OWNER', 100, 300),
      ...line('JOHN Q PUBLIC', 700, 300),
      ...line('42 ELM ST', 700, 350),
      ...line('RENO, NV 89501', 700, 400),
      ...line('1ST LIENHOLDER', 100, 500),
      ...line('FIRST NATIONAL BANK', 700, 500),
      ...line('LIEN DATE', 1700, 500),
      ...line('01/15/2023', 2100, 500),
      ...line('PO BOX 4410', 700, 550),
      ...line('OMAHA, NE 68103', 700, 600),
      ...line('2ND LIENHOLDER', 100, 700),
      ...line('ALLY FINANCIAL', 700, 700),
      ...line('LIEN DATE', 1700, 700),
      ...line('06/01/2024', 2100, 700),
      ...line('PO BOX 8102', 700, 750),
      ...line('COCKEYSVILLE, MD 21030', 700, 800),
      ...line('REMARKS', 100, 900),
      ...line('NONE', 700, 900),
    ]);
    const r = extractTitle([l]);
    expect(r.fields).to.deep.include({
      owner_1_name: 'JOHN Q PUBLIC',
      owner_street: '42 ELM ST',
      owner_city: 'RENO',
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
    const t = r.account_data.vehicle!.title!;
    expect(t.has_liens).to.equal(true);
    expect(t.active_liens).to.deep.equal([
      {
        lien_date: '2023-01-15',
        lienholder: {
          type: 'LIENHOLDER',
          name: 'FIRST NATIONAL BANK',
          addr: { street1: 'PO BOX 4410', city: 'OMAHA', state: 'NE', zip: '68103' },
        },
      },
      {
        lien_date: '2024-06-01',
        lienholder: {
          type: 'LIENHOLDER',
          name: 'ALLY FINANCIAL',
          addr: { street1: 'PO BOX 8102', city: 'COCKEYSVILLE', state: 'MD', zip: '21030' },
        },
      },
    ]);
  });

  it('stacked lien boxes with labels above values: the first lien\'s block ends at the second\'s label ("SECOND SECURED PARTY")', () => {
    const l = page([
      ...line('STATE OF OHIO', 900, 60, 50),
      ...line('CERTIFICATE OF TITLE', 900, 130, 50),
      ...line('OWNER NAME AND ADDRESS', 100, 1000, 20),
      ...line('DOE, JANE', 100, 1030),
      ...line('12 OAK AVE', 100, 1070),
      ...line('DAYTON, OH 45402', 100, 1110),
      ...line('LIENHOLDER', 1300, 1000, 20),
      ...line('LIEN DATE', 2000, 1000, 20),
      ...line('FIRST NATIONAL BANK', 1300, 1030),
      ...line('01-15-2023', 2000, 1030),
      ...line('PO BOX 4410', 1300, 1070),
      ...line('OMAHA, NE 68103', 1300, 1110),
      ...line('SECOND SECURED PARTY', 1300, 1160, 20),
      ...line('LIEN DATE', 2000, 1160, 20),
      ...line('LAKESHORE FEDERAL CREDIT UNION', 1300, 1190),
      ...line('06-01-2024', 2000, 1190),
      ...line('88 SHORE DR', 1300, 1230),
      ...line('TOLEDO, OH 43611', 1300, 1270),
    ]);
    const r = extractTitle([l]);
    expect(r.fields).to.deep.include({
      owner_1_name: 'JANE DOE',
      lienholder_name: 'FIRST NATIONAL BANK',
      lienholder_street: 'PO BOX 4410',
      lienholder_zip: '68103',
      lien_date: '2023-01-15',
      lienholder_2_name: 'LAKESHORE FEDERAL CREDIT UNION',
      lienholder_2_street: '88 SHORE DR',
      lienholder_2_city: 'TOLEDO',
      lienholder_2_state: 'OH',
      lienholder_2_zip: '43611',
      lien_2_date: '2024-06-01',
    });
    expect(r.account_data.vehicle!.title!.active_liens!.map((x) => [x.lienholder!.name, x.lien_date])).to.deep.equal([
      ['FIRST NATIONAL BANK', '2023-01-15'],
      ['LAKESHORE FEDERAL CREDIT UNION', '2024-06-01'],
    ]);
  });

  it('a second lien\'s label ("SECOND LIEN", "SECOND SECURED PARTY") is never read as the first lien, even when it is the only lien label', () => {
    const only = page([
      ...line('CERTIFICATE OF TITLE', 900, 60, 50),
      ...line('OWNER', 100, 300, 20),
      ...line('JANE DOE', 100, 330),
      ...line('12 OAK AVE', 100, 370),
      ...line('DAYTON, OH 45402', 100, 410),
      ...line('SECOND LIEN', 100, 500, 20),
      ...line('BAY AREA AUTO LENDING', 100, 530),
      ...line('220 HARBOR WAY', 100, 570),
      ...line('OAKLAND, CA 94607', 100, 610),
      ...line('SECOND LIEN DATE:', 100, 700),
      ...line('03/03/2024', 600, 700),
    ]);
    const r = extractTitle([only]);
    expect(r.fields).to.deep.include({
      lienholder_name: '',
      lienholder_street: '',
      lienholder_city: '',
      lienholder_state: '',
      lienholder_zip: '',
      lien_date: '',
      lienholder_2_name: 'BAY AREA AUTO LENDING',
      lienholder_2_street: '220 HARBOR WAY',
      lienholder_2_city: 'OAKLAND',
      lien_2_date: '2024-03-03',
    });
    // the liens the title shows, in order: here only the one it calls second
    expect(r.account_data.vehicle!.title!.has_liens).to.equal(true);
    expect(r.account_data.vehicle!.title!.active_liens!.map((x) => [x.lienholder!.name, x.lien_date])).to.deep.equal([
      ['BAY AREA AUTO LENDING', '2024-03-03'],
    ]);
    // a date label both liens use goes to the lien printed above it: the second
    const generic = page([
      ...line('CERTIFICATE OF TITLE', 900, 60, 50),
      ...line('SECOND SECURED PARTY', 100, 500, 20),
      ...line('ALLY FINANCIAL', 100, 530),
      ...line('PO BOX 8102', 100, 570),
      ...line('COCKEYSVILLE, MD 21030', 100, 610),
      ...line('LIEN DATE', 100, 680, 20),
      ...line('06/01/2024', 100, 710),
    ]);
    expect(extractTitle([generic]).fields).to.deep.include({
      lienholder_name: '',
      lien_date: '',
      lienholder_2_name: 'ALLY FINANCIAL',
      lien_2_date: '2024-06-01',
    });
  });

  it('without a second lien its fields are \'\' (a "2ND LIENHOLDER: NONE" block, or no second lien label at all)', () => {
    const none = page([
      ...line('CERTIFICATE OF TITLE', 900, 60, 50),
      ...line('1ST LIENHOLDER', 100, 500, 20),
      ...line('DATE OF LIEN:', 1200, 500, 20),
      ...line('01/15/2023', 1450, 497),
      ...line('FIRST NATIONAL BANK', 100, 530),
      ...line('PO BOX 4410', 100, 570),
      ...line('OMAHA, NE 68103', 100, 610),
      ...line('2ND LIENHOLDER', 100, 700, 20),
      ...line('NONE', 100, 730),
    ]);
    const blank = {
      lienholder_2_name: '',
      lienholder_2_street: '',
      lienholder_2_city: '',
      lienholder_2_state: '',
      lienholder_2_zip: '',
      lien_2_date: '',
    };
    const r = extractTitle([none]);
    expect(r.fields).to.deep.include({ lienholder_name: 'FIRST NATIONAL BANK', lien_date: '2023-01-15', ...blank });
    expect(r.account_data.vehicle!.title!.active_liens!.length).to.equal(1);
    const noLabel = page([
      ...line('CERTIFICATE OF TITLE', 900, 60, 50),
      ...line('LIENHOLDER', 100, 500, 20),
      ...line('NONE', 100, 530),
    ]);
    const n = extractTitle([noLabel]);
    expect(n.fields).to.deep.include({ lienholder_name: '', lien_date: '', ...blank });
    expect(n.account_data.vehicle!.title).to.deep.include({ has_liens: false, active_liens: [] });
  });

  it('values printed over a rule with small labels under them', () => {
    const l = page([
      ...line('1HGCM82633A004352', 100, 200, 34),
      ...line('VEHICLE IDENTIFICATION NUMBER', 100, 245, 20),
      ...line('2003', 900, 200, 34),
      ...line('YEAR', 900, 245, 20),
      ...line('HONDA', 1200, 200, 34),
      ...line('MAKE', 1200, 245, 20),
      ...line('ACCORD', 100, 330, 34),
      ...line('MODEL', 100, 375, 20),
      ...line('12/01/2021', 900, 330, 34),
      ...line('ISSUE DATE', 900, 375, 20),
    ]);
    expect(extractTitle([l]).fields).to.deep.include({
      vin: '1HGCM82633A004352',
      year: '2003',
      make: 'HONDA',
      model: 'ACCORD',
      issue_date: '2021-12-01',
    });
  });

  it('a table whose header row holds the labels', () => {
    const l = page([
      ...line('YEAR', 100, 200, 24),
      ...line('MAKE', 400, 200, 24),
      ...line('VIN', 900, 200, 24),
      ...line('TITLE NUMBER', 1700, 200, 24),
      ...line('2018', 100, 250),
      ...line('FORD', 400, 250),
      ...line('1FTEW1E50JFA00001', 900, 250),
      ...line('99887766', 1700, 250),
    ]);
    expect(extractTitle([l]).fields).to.deep.include({ year: '2018', make: 'FORD', title_number: '99887766' });
  });

  it('a license with labels the corpus does not use and the name on one line', () => {
    const l = page(
      [
        ...line('NEVADA', 60, 20, 50),
        ...line('DRIVER LICENSE', 500, 30, 30),
        ...line('LIC#', 300, 120, 18),
        ...line('1234567890', 380, 115),
        ...line('DOB', 300, 170, 18),
        ...line('07/04/1990', 380, 165),
        ...line('EXPIRES', 300, 220, 18),
        ...line('07/04/2030', 450, 215),
        ...line('PUBLIC, JOHN Q', 300, 280),
        ...line('42 ELM ST', 300, 330),
        ...line('RENO, NV 89501', 300, 380),
        ...line('SEX', 300, 440, 18),
        ...line('M', 370, 435),
      ],
      1012,
      638,
    );
    expect(licenseFields([l])).to.deep.include({
      license_number: '1234567890',
      dob: '1990-07-04',
      expiration: '2030-07-04',
      name_first: 'JOHN',
      name_middle: 'Q',
      name_last: 'PUBLIC',
      street: '42 ELM ST',
      city: 'RENO',
      addr_state: 'NV',
      zip: '89501',
      sex: 'M',
      license_state: 'NV',
    });
  });

  it('payoff amounts in running text, with other amounts around them', () => {
    const l = page([
      ...line('FIRST NATIONAL BANK', 100, 80, 60),
      ...line('Loan No. 4455-6677', 100, 400),
      ...line('Your principal balance is $10,000.00 and the net payoff', 100, 500),
      ...line('amount is $10,412.55 if received on or before 09/30/2026.', 100, 550),
      ...line('Interest accrues at $2.74 per diem after that date.', 100, 600),
    ]);
    expect(extractPayoff([l]).fields).to.deep.include({
      lienholder_name: 'FIRST NATIONAL BANK',
      account_number: '4455-6677',
      payoff_amount: '10412.55',
      per_diem: '2.74',
    });
  });

  it('classifies by cues, not by layout', () => {
    expect(
      classifyPage(
        page([
          ...line('ASSIGNMENT OF TITLE', 100, 100),
          ...line('SIGNATURE OF SELLER', 100, 200),
          ...line('PURCHASER', 100, 300),
        ]),
      ).type,
    ).to.equal('VEHICLE_TITLE_BACK');
    expect(classifyPage(page([...line('PAYOFF STATEMENT', 100, 100), ...line('Per Diem', 100, 200)])).type).to.equal(
      'PAYOFF_LETTER',
    );
    expect(classifyPage(page([...line('GROCERY RECEIPT', 100, 100), ...line('MILK 2.99', 100, 200)])).type).to.equal(
      'UNKNOWN',
    );
  });
});

describe('the merge rule', () => {
  const doc = (
    document_type: DocRecord['document_type'],
    account_data: DocRecord['account_data'],
    at = '2026-01-01T00:00:00Z',
  ): DocRecord => ({
    doc_id: `d-${document_type}-${at}`,
    store_key: `o/e/documents/${document_type}`,
    document_type,
    analyzed_at: at,
    account_data,
  });

  it('client values win; documents fill the rest; a title beats a registration', () => {
    const r = mergeDocuments({
      account_data: { vehicle: { make: 'ACURA' } },
      documents: [
        doc('VEHICLE_REGISTRATION', {
          vehicle: { vin: '1HGCM82633A004352', make: 'HONDA', license_plate: 'ABC123', year: 2003 },
        }),
        doc('VEHICLE_TITLE', { vehicle: { vin: '1HGCM82633A004352', make: 'HONDA', year: 2004 } }),
      ],
    });
    expect(r.account_data.vehicle).to.deep.equal({
      make: 'ACURA',
      vin: '1HGCM82633A004352',
      year: 2004,
      license_plate: 'ABC123',
    });
    expect(r.discrepancies.map((d) => d.field_path)).to.deep.equal(['/vehicle/make', '/vehicle/year']);
    expect(r.matches.map((m) => m.field_path)).to.deep.equal(['/vehicle/vin']);
    expect(Object.keys(r.provenance).sort()).to.deep.equal(['/vehicle/license_plate', '/vehicle/vin', '/vehicle/year']);
  });

  it('owner facts move as a group: a client owner keeps documents from adding the conjunction', () => {
    const r = mergeDocuments({
      account_data: { vehicle: { title: { owners: [{ name: 'JOHN DOE' }] } } },
      documents: [
        doc('VEHICLE_TITLE', {
          vehicle: {
            title: { owners: [{ name: 'JOHN DOE' }, { name: 'JANE DOE' }], is_and: true, conjunction: 'AND' },
          },
        }),
      ],
    });
    expect(r.account_data.vehicle!.title).to.deep.equal({ owners: [{ name: 'JOHN DOE' }] });
    expect(r.discrepancies.map((d) => d.field_path)).to.deep.equal(['/vehicle/title/owners']);
  });

  it("newer documents of a type win over older ones; the client's values stay", () => {
    const r = mergeDocuments({
      account_data: { vehicle: { model: 'CIVIC' } },
      documents: [
        doc('VEHICLE_TITLE', { vehicle: { make: 'HONDA', model: 'ACCORD' } }),
        doc('VEHICLE_TITLE', { vehicle: { make: 'ACURA', model: 'TL' } }, '2026-02-01T00:00:00Z'),
      ],
    });
    expect(r.account_data.vehicle).to.deep.equal({ make: 'ACURA', model: 'CIVIC' });
  });

  it("a title's two liens move as one group, whole, and compare by lienholder names in any order", () => {
    const A = { lien_date: '2023-01-15', lienholder: { type: 'LIENHOLDER' as const, name: 'FIRST NATIONAL BANK' } };
    const B = { lien_date: '2024-06-01', lienholder: { type: 'LIENHOLDER' as const, name: 'ALLY FINANCIAL' } };
    const r = mergeDocuments({
      account_data: {},
      documents: [
        doc('VEHICLE_TITLE', { vehicle: { title: { has_liens: true, active_liens: [B, A] } } }),
        doc('VEHICLE_TITLE', { vehicle: { title: { has_liens: true, active_liens: [A, B] } } }, '2026-02-01T00:00:00Z'),
      ],
    });
    expect(r.account_data.vehicle!.title).to.deep.equal({ has_liens: true, active_liens: [A, B] });
    expect(r.matches.map((m) => m.field_path)).to.include('/vehicle/title/active_liens');
    expect(r.discrepancies).to.deep.equal([]);
    // the client's one lien stands; the title's second lien is a discrepancy, not added to it
    const c = mergeDocuments({
      account_data: { vehicle: { title: { active_liens: [A] } } },
      documents: [doc('VEHICLE_TITLE', { vehicle: { title: { has_liens: true, active_liens: [A, B] } } })],
    });
    expect(c.account_data.vehicle!.title).to.deep.equal({ active_liens: [A] });
    expect(c.discrepancies.map((d) => d.field_path)).to.deep.equal(['/vehicle/title/active_liens']);
  });

  it("the license holder fills the matching borrower's missing members", () => {
    const r = mergeDocuments({
      account_data: { loan: { borrower: [{ name: 'John Q Public', contact_email: 'j@example.com' }] } },
      documents: [
        doc('DRIVER_LICENSE_BACK', {
          loan: { borrower: [{ type: 'PERSON', name: 'JOHN Q PUBLIC', dob: '1990-07-04', dlid: { number: 'D1' } }] },
        }),
      ],
    });
    expect(r.account_data.loan!.borrower![0]).to.deep.include({
      name: 'John Q Public',
      contact_email: 'j@example.com',
      dob: '1990-07-04',
      dlid: { number: 'D1' },
    });
    expect(r.matches.map((m) => m.field_path)).to.include('/loan/borrower/0/name');
  });
});
