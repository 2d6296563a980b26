/**
 * Drawn layouts, read back with pdftotext: fields, checked boxes, signature
 * lines, the federal odometer statements; long values wrap inside their
 * boxes (pdftotext -bbox: every word inside the page's margins); text a
 * standard font cannot show is transliterated.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FORM_CATALOG } from '../../plugins/forms/layouts/index.js';
import { ODOMETER_STATEMENTS, ODOMETER_WARNING } from '../../plugins/forms/odometer.js';
import { layout, wrap, PAGE } from '../../plugins/forms/pdf/draw.js';
import { sanitize, widthOf } from '../../plugins/forms/pdf/fonts.js';
import { renderDrawn } from '../../plugins/forms/render.js';
import { planForms } from '../../plugins/forms/select.js';
import { valuesForSigner } from '../../plugins/forms/values.js';
import { FIXTURE_VIN, fixtureEntry, LONG_NAME } from '../support/fixtures.js';
import { loadStatePlugins } from '../../states/registry.js';
import { defineState } from '../../states/standard.js';
import { pageTexts, qpdfCheck } from '../support/tester.js';
import type { FormKind, FormValues } from '../../states/types.js';

const run = promisify(execFile);
const states = loadStatePlugins();
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'titled-drawn-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function draw(code: string, kind: FormKind, values: FormValues, generic = false) {
  const state = states.get(code)!;
  const d = renderDrawn({ kind, values, state, spec: state.drawn[kind] ?? {}, generic });
  const file = join(dir, `${code}-${kind}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, d.pdf);
  const pages = await pageTexts(file);
  return { ...d, file, pages, text: pages.join('\n').replace(/[ \t]+/g, ' ') };
}

/** Every word's box (pdftotext -bbox), in points from the top-left. */
async function words(
  file: string,
): Promise<{ text: string; xMin: number; xMax: number; yMin: number; yMax: number; page: number }[]> {
  const { stdout } = await run('pdftotext', ['-bbox', file, '-'], { maxBuffer: 16 * 1024 * 1024 });
  const out: { text: string; xMin: number; xMax: number; yMin: number; yMax: number; page: number }[] = [];
  let page = -1;
  for (const line of stdout.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (m) out.push({ xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, text: m[5]!, page });
  }
  return out;
}

describe('forms: drawn layouts', () => {
  const full = planForms(fixtureEntry('WY', 'full'), states);

  it('draws the title application with its fields, checked boxes and signature lines', async () => {
    const d = await draw('WY', 'form_title_application', full.values!);
    expect(d.text)
      .to.include('Application for Certificate of Title')
      .and.include('Wyoming - Wyoming Department of Transportation');
    expect(d.text)
      .to.include(FIXTURE_VIN)
      .and.include('Jane Q Borrower')
      .and.include('Carlos Added')
      .and.include('Acme Auto Finance LLC');
    expect(d.text).to.include('1 Main St, Springfield, WY 78701');
    expect(d.text).to.match(/X New title \(ownership change/); // a checked box prints an X
    expect(d.text)
      .to.match(/Signature of Applicant 1/)
      .and.match(/Printed name: Jane Q Borrower/);
    expect(await qpdfCheck(d.file)).to.equal('');
  });

  it('draws the federal odometer disclosure with the content 49 CFR 580.5 requires', async () => {
    const d = await draw('WY', 'form_odometer_disclosure', full.values!);
    const flat = d.text.replace(/\s+/g, ' ');
    expect(flat).to.include(ODOMETER_WARNING);
    for (const s of Object.values(ODOMETER_STATEMENTS)) expect(flat).to.include(s.slice(0, 60));
    expect(flat).to.include('45210').and.include('Miles').and.include('10/28/2026'); // reading, unit, date of transfer
    expect(flat).to.include('Sam Seller').and.include('3 Elm St, Reno, NV 89502'); // transferor name and address
    expect(flat).to.include('Jane Q Borrower').and.include('Transferee (buyer)'); // transferee
    expect(flat).to.include('Honda').and.include('Accord').and.include('4D SEDAN').and.include(FIXTURE_VIN); // vehicle identity
    expect(flat).to.match(
      /X I hereby certify that to the best of my knowledge the odometer reading reflects the actual mileage/,
    );
    expect(flat).to.include('Signature of Transferor (seller)');
  });

  it('prints the fields a state requires on a POA (New Jersey: SSN) and names the attorney-in-fact', async () => {
    const nj = planForms(fixtureEntry('NJ', 'ohv'), states);
    const d = await draw('NJ', 'forms_poa', valuesForSigner(nj.values!, nj.signers[0]!));
    expect(d.text).to.include('SOCIAL SECURITY NUMBER').and.include('111-22-3333').and.include('Acme Auto Finance LLC');
    const generic = await draw('NJ', 'forms_poa', valuesForSigner(nj.values!, nj.signers[0]!), true);
    expect(generic.text).to.include('Generic form for any jurisdiction').and.not.include('111-22-3333');
  });

  it('wraps a long name inside its box: every word within the margins, nothing cut', async () => {
    const long = planForms(fixtureEntry('WY', 'full', { borrowerName: LONG_NAME }), states);
    for (const kind of ['form_title_application', 'forms_poa', 'form_addr_oats', 'form_instructions'] as const) {
      const v = kind === 'forms_poa' ? valuesForSigner(long.values!, long.signers[0]!) : long.values!;
      const d = await draw('WY', kind, v);
      if (kind !== 'form_instructions') {
        for (const part of LONG_NAME.split(' ')) expect(d.text, `${kind}: '${part}'`).to.include(part);
      }
      for (const w of await words(d.file)) {
        expect(w.xMin, `${kind} '${w.text}'`).to.be.at.least(PAGE.margin - 0.5);
        expect(w.xMax, `${kind} '${w.text}'`).to.be.at.most(PAGE.width - PAGE.margin + 0.5);
        expect(w.yMax, `${kind} '${w.text}'`).to.be.at.most(PAGE.height - 20);
      }
    }
  });

  it('lays out every text inside its box (the layout records each placement)', () => {
    const long = planForms(fixtureEntry('WY', 'full', { borrowerName: LONG_NAME }), states);
    for (const kind of Object.keys(FORM_CATALOG) as FormKind[]) {
      const v = FORM_CATALOG[kind].signers ? valuesForSigner(long.values!, long.signers[0]!) : long.values!;
      const state = states.get('WY')!;
      const form = FORM_CATALOG[kind].layout;
      const drawn = layout({
        title: form.title,
        footer: 'x',
        blocks: form.build({ kind, values: v, state, spec: {}, generic: false, packet: [] }),
      });
      for (const p of drawn.placed) {
        expect(p.x + p.width, `${kind}: '${p.text}'`).to.be.at.most(p.maxX + 0.01);
        expect(p.text.endsWith('...'), `${kind}: '${p.text}' was cut`).to.equal(false);
        expect(p.y, `${kind}: '${p.text}'`).to.be.greaterThan(20);
      }
    }
  });

  it('adds what a state declares for a drawn form: title, its own form name, fields, statements, notary; a notarized POA', async () => {
    const state = defineState({
      code: 'WY',
      name: 'Wyoming',
      agency: 'Wyoming DOT',
      drawn: {
        form_title_application: {
          title: 'Wyoming Title Application',
          officialName: 'Form MVD-101',
          extraFields: [{ label: 'County of residence', value: 'owner1.addr.county' }],
          statements: ['The county clerk files this application.'],
          notarize: true,
        },
      },
      rules: { poaNotarized: true },
    });
    const v = planForms(fixtureEntry('WY', 'full'), new Map([['WY', state]])).values!;
    const d = renderDrawn({
      kind: 'form_title_application',
      values: v,
      state,
      spec: state.drawn.form_title_application!,
      generic: false,
    });
    const file = join(dir, 'wy-declared.pdf');
    writeFileSync(file, d.pdf);
    const text = (await pageTexts(file)).join('\n').replace(/\s+/g, ' ');
    expect(text).to.include('Wyoming Title Application').and.include('Prepared in support of: Form MVD-101');
    expect(text)
      .to.include('WYOMING REQUIREMENTS')
      .and.include('COUNTY OF RESIDENCE Travis')
      .and.include('The county clerk files this application.');
    expect(text).to.include('NOTARY ACKNOWLEDGMENT');
    const poa = renderDrawn({
      kind: 'forms_poa',
      values: valuesForSigner(v, planForms(fixtureEntry('WY', 'full'), new Map([['WY', state]])).signers[0]!),
      state,
      spec: {},
      generic: false,
    });
    writeFileSync(file, poa.pdf);
    expect((await pageTexts(file)).join(' ')).to.include('NOTARY ACKNOWLEDGMENT');
  });

  it('wraps by words, then breaks a word longer than the line', () => {
    expect(wrap('aaa bbb ccc', 'regular', 10, widthOf('aaa bbb', 'regular', 10))).to.deep.equal(['aaa bbb', 'ccc']);
    const parts = wrap('x'.repeat(300), 'regular', 10, 100);
    expect(parts.join('')).to.equal('x'.repeat(300));
    for (const p of parts) expect(widthOf(p, 'regular', 10)).to.be.at.most(100);
  });

  it('transliterates what the standard fonts cannot show and never drops text silently', async () => {
    expect(sanitize('Zoë Ødegård – “quoted” ‐ x')).to.equal('Zoë Ødegård – “quoted” - x');
    expect(sanitize('Łukasz Dvořák')).to.equal('Lukasz Dvorák'); // á is WinAnsi; ř is not
    expect(sanitize('李 🚗')).to.equal('? ?');
    const v = planForms(fixtureEntry('WY', 'ohv', { borrowerName: 'Łukasz Dvořák 李' }), states).values!;
    const d = await draw('WY', 'form_ohv_declaration', v);
    expect(d.text).to.include('Lukasz Dvorák ?');
    expect(await qpdfCheck(d.file)).to.equal('');
  });
});
