/**
 * The tester's overlay checks (flattened official forms) must fail on a bad
 * map: a missing form number, a box that is not a box, a path that is no value,
 * a box over the form's printed text, a value that is not where the map says,
 * a mark set against its flag. Those that need the official form skip, saying
 * so, when `../shared/forms` is absent.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { save } from '../../plugins/forms/pdf/document.js';
import { fillOverlay, fitOverlay } from '../../plugins/forms/pdf/overlay.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { planForms } from '../../plugins/forms/select.js';
import { fixtureEntry } from '../support/fixtures.js';
import oh from '../../states/oh/forms.js';
import { checkOverlayDefinition, checkOverlayFill, checkOverlayLayout } from '../support/tester.js';
import type { OverlayMapping, TemplateSpec } from '../../states/types.js';

const store = new TemplateStore(parseFormsOptions({}).templateDirs);
const spec = oh.templates.form_title_application!;
const values = planForms(fixtureEntry('OH', 'full'), new Map([['OH', oh]])).values!;
const template = store.locate(spec.file);
const needs = template
  ? ''
  : ` - skipped: ${spec.file} is in no template folder (${store.dirs.join(', ') || 'none configured'})`;
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'titled-overlay-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const withOverlay = (overlay: OverlayMapping[], extra: Partial<TemplateSpec> = {}): TemplateSpec => ({
  ...spec,
  ...extra,
  overlay,
});
const vinBox = spec.overlay!.find((m) => 'text' in m && m.text === 'VIN')!;

describe('state plugin tester: overlay maps of flattened forms', () => {
  it('flags a definition without a form number, a box that is not a box, unknown paths, a name mapped twice', () => {
    const bad = withOverlay(
      [
        { text: 'A', box: [10, 10, 5, 20], value: 'vehicle.nope' as never },
        { mark: 'A', box: [0, 0, 8, 8], when: 'txn.never' as never },
      ],
      { printed: '', fields: [{ field: 'x', value: 'vehicle.vin' }] },
    );
    const problems = checkOverlayDefinition('t', bad, values).join('\n');
    expect(problems).to.include('needs printed');
    expect(problems).to.include('either AcroForm fields or an overlay');
    expect(problems).to.include('box [10, 10, 5, 20] is not [left, top, right, bottom]');
    expect(problems).to.include("'vehicle.nope' is not a value path");
    expect(problems).to.include("'txn.never' is not a value path");
    expect(problems).to.include("overlay 'A' is mapped twice");
    expect(checkOverlayDefinition('t', spec, values)).to.deep.equal([]);
  });

  it('fits a value: one line at up to 10 pt, else wrapped, else cut', () => {
    expect(fitOverlay('2019', [0, 0, 100, 12])).to.deep.include({ lines: ['2019'], cut: false });
    const wrapped = fitOverlay('500 Lender Way, Suite 200, Dallas, TX 75201 and a little more text', [0, 0, 80, 20]);
    expect(wrapped.lines.length).to.be.greaterThan(1);
    expect(wrapped.cut).to.equal(false);
    const cut = fitOverlay('word '.repeat(80), [0, 0, 40, 8]);
    expect(cut.cut).to.equal(true);
  });

  it(`flags a box over the form's printed text and a form number the form does not print${needs}`, async function () {
    if (!template) return this.skip();
    // the label "APPLICANT'S PRINTED NAME" sits at 32-146 x 87-96
    const problems = await checkOverlayLayout(
      withOverlay([{ text: 'over the label', box: [30, 85, 200, 98], value: 'owner1.name' }], { printed: 'BMV 9999' }),
      template,
    );
    expect(problems.join('\n'))
      .to.include('covers printed text of the form')
      .and.include("does not print its form number 'BMV 9999'");
    expect(await checkOverlayLayout(spec, template)).to.deep.equal([]);
  });

  it(`reads values back where the map puts them: a shifted box, a wrong value, a mark against its flag are flagged${needs}`, async function () {
    if (!template) return this.skip();
    const found = await store.load(spec.file);
    const { doc } = await fillOverlay(found!.bytes, spec, values);
    const file = join(dir, 'oh.pdf');
    writeFileSync(file, await save(doc));
    expect(await checkOverlayFill(spec, file, values, template)).to.deep.equal([]);
    // the same page read against a map whose VIN box moved to the model's place
    const moved = withOverlay([{ ...vinBox, box: [230, 470.5, 316, 482.5] } as OverlayMapping]);
    expect((await checkOverlayFill(moved, file, values, template)).join('\n')).to.include(
      '\'VIN\' reads "Accord", expected "1HGCM82633A004352"',
    );
    // a mark whose flag is false where the page has an X, and one whose flag is true where the page has none
    const marks = withOverlay([
      { mark: 'ORIGINAL CERTIFICATE OF TITLE', box: [32.5, 176, 42.5, 185], when: 'title.is_stolen' },
      { mark: 'REPLACEMENT', box: [32.5, 401, 42.5, 410.5], when: 'always' },
    ]);
    const problems = (await checkOverlayFill(marks, file, values, template)).join('\n');
    expect(problems).to.include('mark \'ORIGINAL CERTIFICATE OF TITLE\' holds "X", expected nothing');
    expect(problems).to.include('mark \'REPLACEMENT\' holds "", expected X');
    // another form's number is not found in the filled page
    expect(await checkOverlayFill(withOverlay([], { printed: 'TR-11L' }), file, values, template)).to.deep.equal([
      "the filled form does not show its number 'TR-11L'",
    ]);
  });
});
