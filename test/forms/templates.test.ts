/**
 * Official templates (read from ../shared/forms, which the repository does not
 * ship; skipped where absent): filled from fixture entries and read back with
 * pdf-lib, field by field; long names shrink or wrap inside their fields;
 * qpdf --check passes.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFCheckBox, PDFDocument, PDFTextField } from 'pdf-lib';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { fillTemplate, flattenForm, TemplateStore } from '../../plugins/forms/pdf/template.js';
import { save } from '../../plugins/forms/pdf/document.js';
import { prepareTemplate } from '../../plugins/forms/pdf/prepare.js';
import { saveIncremental } from '../../plugins/forms/pdf/incremental.js';
import { freezeStreams } from '../../plugins/forms/pdf/document.js';
import { choiceOptions, choiceSelected } from '../../plugins/forms/pdf/choice.js';
import { planForms } from '../../plugins/forms/select.js';
import { valuesForSigner } from '../../plugins/forms/values.js';
import ca from '../../states/ca/forms.js';
import { FIXTURE_VIN, fixtureEntry, LONG_NAME, type FixtureName } from '../support/fixtures.js';
import { checkTemplateFill, pageTexts, qpdfCheck, skipWithout } from '../support/tester.js';
import tx from '../../states/tx/forms.js';
import fl from '../../states/fl/forms.js';
import ny from '../../states/ny/forms.js';
import type { FormKind, StatePlugin } from '../../states/types.js';

const store = new TemplateStore(parseFormsOptions({}).templateDirs);
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'titled-templates-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function fill(
  state: StatePlugin,
  kind: FormKind,
  fixture: FixtureName,
  o: { borrowerName?: string; signer?: number } = {},
) {
  const plan = planForms(fixtureEntry(state.code, fixture, o), new Map([[state.code, state]]));
  const spec = state.templates[kind]!;
  const found = await store.load(spec.file);
  const values = o.signer === undefined ? plan.values! : valuesForSigner(plan.values!, plan.signers[o.signer]!);
  const { doc, report } = await fillTemplate(found!.bytes, spec, values);
  const pdf = await save(doc);
  const read = await PDFDocument.load(pdf);
  const form = read.getForm();
  const text = (n: string) => form.getTextField(n).getText() ?? '';
  const checked = (n: string) => form.getCheckBox(n).isChecked();
  const file = join(dir, `${state.code}-${kind}-${fixture}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return { plan, spec, values, doc, pdf, report, form, text, checked, file };
}

function needs(file: string) {
  return function (this: Mocha.Context) {
    if (!store.locate(file)) skipWithout(this, file, store.dirs);
  };
}

describe('forms: Texas 130-U', () => {
  before(needs('tx/130-U.pdf'));

  it('holds every mapped value and checkbox of a refinance with owner changes', async () => {
    const f = await fill(tx, 'form_title_application', 'full');
    expect(f.text('1 Vehicle Identification Number')).to.equal(FIXTURE_VIN);
    expect(f.text('2 Year')).to.equal('2019');
    expect(f.text('3 Make')).to.equal('Honda');
    expect(f.text('9 Odometer Reading no tenths')).to.equal('45210');
    expect(f.text('14 Applicant Photo ID Number or FEINEIN')).to.equal('D1234567');
    expect(f.text('16 Applicant First Name or Entity Name Middle Name Last Name Suffix if any')).to.equal(
      'Jane Q Borrower',
    );
    expect(f.text('17 Additional Applicant First Name if applicable Middle Name Last Name Suffix if any')).to.equal(
      'Carlos Added',
    );
    expect(f.text('18 Applicant Mailing Address City State Zip')).to.equal('PO Box 99, Springfield, TX 78702');
    expect(f.text('20 Previous Owner Name or Entity Name City State')).to.equal('Sam Seller, Reno, NV');
    expect(f.text('33 First Lien Date if any')).to.equal('11/01/2026');
    expect(f.text('34 First Lienholder Name if any Mailing Address City State Zip')).to.equal(
      'Acme Auto Finance LLC, 500 Lender Way, Suite 200, Dallas, TX 75201',
    );
    expect(f.text("Resident's previous state")).to.equal('Nevada');
    for (const on of [
      'Title Only',
      'Individual',
      'U.S. Driver License/ID Card',
      '$90 New Resident Tax  Previous State',
    ])
      expect(f.checked(on), on).to.equal(true);
    for (const off of ['AddRemove Lien', 'Not Actual', 'Exceeds Mechanical Limits', 'Exempt'])
      expect(f.checked(off), off).to.equal(false);
    expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
    expect(await qpdfCheck(f.file)).to.equal('');
  });

  it('marks a lien-only change as a corrected title (Add/Remove Lien)', async () => {
    const f = await fill(tx, 'form_title_application', 'ohv');
    expect(f.checked('AddRemove Lien')).to.equal(true);
    expect(f.checked('Title Only')).to.equal(false);
    expect(f.text('20 Previous Owner Name or Entity Name City State')).to.equal('');
  });

  it('shrinks a long name to fit its field', async () => {
    const f = await fill(tx, 'form_title_application', 'full', { borrowerName: LONG_NAME });
    expect(f.text('16 Applicant First Name or Entity Name Middle Name Last Name Suffix if any')).to.equal(LONG_NAME);
    const entry = f.report.text.find((t) => t.field.startsWith('16 '))!;
    expect(entry.size).to.be.lessThan(10);
    expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
  });
});

describe('forms: California REG 343, REG 227, REG 262', () => {
  before(needs('ca/Reg343.pdf'));

  it('REG 343: VIN in boxes, owners last name first, legal owner, odometer boxes, checkboxes', async () => {
    const f = await fill(ca, 'form_title_application', 'full');
    expect([...FIXTURE_VIN].map((_, i) => f.text(`Text9.${i + 1}`)).join('')).to.equal(FIXTURE_VIN);
    expect(f.text('Text62')).to.equal('BORROWER, JANE Q');
    expect(['Owner DL no', 'owner second digit', 'owner eighth digit'].map(f.text)).to.deep.equal(['D', '1', '7']);
    expect(f.text('Text73')).to.equal('ADDED, CARLOS');
    expect(f.text('Text118')).to.equal('ACME AUTO FINANCE LLC');
    expect(f.text('Text119')).to.equal('E12');
    expect(f.text('Text87')).to.equal('78701');
    expect(['Text132.0', 'Text132.1', 'Text132.5'].map(f.text)).to.deep.equal(['', '4', '0']);
    expect(f.checked('Check Box20')).to.equal(true); // auto
    expect(f.checked('Check Box70')).to.equal(true); // co-owner joined by AND
    expect(f.checked('Check Box130')).to.equal(true); // odometer upon date of purchase
    expect(f.checked('Check Box131')).to.equal(false);
    expect(f.text('Text156')).to.equal('21,500.00');
    expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
    expect(await qpdfCheck(f.file)).to.equal('');
  });

  it('REG 343: writes NONE when there is no legal owner', async () => {
    const plan = planForms(fixtureEntry('CA', 'ohv'), new Map([['CA', ca]]));
    const values = {
      ...plan.values!,
      lien: { ...plan.values!.lien, holder_name: '', holder_name_or_none: 'NONE', present: false },
    };
    const { doc } = await fillTemplate(
      (await store.load('ca/Reg343.pdf'))!.bytes,
      ca.templates.form_title_application!,
      values,
    );
    expect(doc.getForm().getTextField('Text118').getText()).to.equal('NONE');
  });

  it('REG 227: replacement of a lost title with transfer, owners of record and the new owners', async function () {
    if (!store.locate('ca/Reg227.pdf')) return this.skip();
    const f = await fill(ca, 'form_duplicate_title', 'full');
    expect(f.checked('App for2')).to.equal(true);
    expect(f.checked('App for')).to.equal(false);
    expect(f.checked('Check Box1')).to.equal(true); // lost
    expect(f.text('Vehicle/Vessel ID/Number1')).to.equal(FIXTURE_VIN);
    expect(f.text('1 True Full Name, Last')).to.equal('BORROWER, JANE Q');
    expect(f.text('1 True Full Name, Last-2')).to.equal('COOWNER, ROBERT T');
    expect(f.text('Name of bank, finance company, or individual having a lien on this vehicle')).to.equal(
      'OLD BANK NA',
    );
    expect(f.text('7 Name New Legal Owner')).to.equal('ACME AUTO FINANCE LLC');
    expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
    expect(await qpdfCheck(f.file)).to.equal('');
  });

  it('REG 262: the power of attorney section names the signer and the attorney-in-fact', async function () {
    if (!store.locate('ca/DMVREG262.pdf')) return this.skip();
    for (const signer of [0, 1]) {
      const f = await fill(ca, 'forms_poa', 'full', { signer });
      expect(f.text('I/We_1')).to.equal(f.values.signer.name.toUpperCase());
      expect(f.text('appoint')).to.equal('ACME AUTO FINANCE LLC');
      expect(f.text('IDENTIFICATION NUMBER')).to.equal(FIXTURE_VIN);
      expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
    }
  });

  it('wraps or shrinks a long name in every field it reaches (REG 343, 227, 262)', async function () {
    for (const kind of ['form_title_application', 'form_duplicate_title', 'forms_poa'] as const) {
      if (!store.locate(ca.templates[kind]!.file)) continue;
      const f = await fill(ca, kind, 'full', {
        borrowerName: LONG_NAME,
        ...(kind === 'forms_poa' ? { signer: 0 } : {}),
      });
      expect(await checkTemplateFill(f.spec, f.pdf, f.values), kind).to.deep.equal([]);
      const long = f.report.text.filter((t) => t.value.toUpperCase().includes('WOLFESCHLEGELSTEINHAUSEN'));
      expect(long.length, `${kind}: fields with the long name`).to.be.greaterThan(0);
      for (const t of long) expect(t.size, `${kind} ${t.field}`).to.be.lessThan(10);
    }
  });

  it('flattens a filled template for the packet: no form left, the values drawn on the page', async () => {
    const f = await fill(ca, 'form_title_application', 'full');
    flattenForm(f.doc);
    const flat = await save(f.doc);
    const again = await PDFDocument.load(flat);
    expect(again.getForm().getFields()).to.have.length(0);
    const file = join(dir, 'flat-343.pdf');
    writeFileSync(file, flat);
    expect(await qpdfCheck(file)).to.equal('');
    const { pageTexts } = await import('../support/tester.js');
    expect((await pageTexts(file))[0])
      .to.include('BORROWER, JANE Q')
      .and.include('ACME AUTO FINANCE LLC');
  });

  it('removes fields no page shows when it prepares a template (REG 343 carries a hidden duplicate set)', async () => {
    const prepared = await PDFDocument.load((await store.load('ca/Reg343.pdf'))!.bytes);
    const names = prepared
      .getForm()
      .getFields()
      .map((x) => x.getName());
    expect(names).to.include('Text62').and.not.include('Text1.0');
    expect(
      prepared
        .getForm()
        .getFields()
        .every((x) => x instanceof PDFTextField || x instanceof PDFCheckBox || x.constructor.name === 'PDFButton'),
    ).to.equal(true);
  });
});

describe('forms: copies of official forms prepared before filling', () => {
  it('saves a fill as an update of the prepared template: its bytes kept, only what changed appended, readable by pdf-lib, qpdf and poppler', async () => {
    const made = await PDFDocument.create();
    const form = made.getForm();
    for (let i = 0; i < 40; i++)
      form.createTextField(`f${i}`).addToPage(made.addPage([612, 792]), { x: 40, y: 700, width: 300, height: 16 });
    const baseBytes = await prepareTemplate(await made.save());
    const store = new TemplateStore([dir]);
    writeFileSync(join(dir, 'upd.pdf'), baseBytes);
    const found = (await store.open('upd.pdf'))!;
    const spec = { file: 'upd.pdf', name: 'Update test', fields: [{ field: 'f3', value: 'vehicle.vin' as const }] };
    const { values } = planForms(fixtureEntry('TX', 'ohv'), new Map([['TX', tx]]));
    await fillTemplate(found.doc, spec, values!);
    freezeStreams(found.doc);
    const pdf = (await saveIncremental(found.base.doc, found.base.bytes, found.doc))!;
    expect(
      Buffer.from(pdf.subarray(0, found.base.bytes.length)).equals(Buffer.from(found.base.bytes)),
      'the template bytes come first, unchanged',
    ).to.equal(true);
    const full = await save(found.doc);
    expect(pdf.length - found.base.bytes.length, 'the update is a fraction of a full save').to.be.lessThan(
      full.length / 4,
    );
    expect(Buffer.from(pdf).toString('latin1')).to.match(/\/Prev \d+/);
    const back = await PDFDocument.load(pdf);
    expect(back.getForm().getTextField('f3').getText()).to.equal(FIXTURE_VIN);
    expect(back.getForm().getTextField('f4').getText() ?? '').to.equal('');
    const file = join(dir, 'upd-filled.pdf');
    writeFileSync(file, pdf);
    expect(await qpdfCheck(file)).to.equal('');
    expect(await pageTexts(file), 'poppler reads it without errors').to.have.length(40);
  });

  it('puts a widget rectangle given the wrong way up in order (CO DR 2116), so a value fits its real height', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const field = doc.getForm().createTextField('upside');
    field.addToPage(page, { x: 40, y: 400, width: 300, height: 16 });
    field.acroField.getWidgets()[0]!.setRectangle({ x: 40, y: 416, width: 300, height: -16 }); // as DR 2116 gives fields 9, 10, 11, 18
    const prepared = await PDFDocument.load(await prepareTemplate(await doc.save()));
    const r = prepared.getForm().getTextField('upside').acroField.getWidgets()[0]!.getRectangle();
    expect(r).to.deep.equal({ x: 40, y: 400, width: 300, height: 16 });
  });

  it("FL: the tag agency's pre-ticked boxes and typed business name are cleared (HSMV 82040, 82053)", async function () {
    for (const f of ['fl/HSMV-82040.pdf', 'fl/HSMV-82053.pdf'])
      if (!store.locate(f)) return skipWithout(this, f, store.dirs);
    const app = await fill(fl, 'form_title_application', 'ohv'); // in-state, one owner: no Original box
    const form = app.form;
    for (const name of [
      'Are you a Florida Resident',
      'Are you a US Citizen',
      'Are you deaf or hard of hearing Voluntary',
    ]) {
      expect(choiceOptions(form.getField(name)), name).to.have.length(2); // YES / NO
      expect(choiceSelected(form.getField(name)), name).to.equal(undefined);
    }
    expect(app.checked('Original')).to.equal(false);
    expect(app.text('Vehicle Identification Number VIN')).to.equal(FIXTURE_VIN);
    const poa = await fill(fl, 'forms_poa', 'full', { signer: 0 });
    expect(poa.text('Full Legibly Printed Name is required')).to.equal('Acme Auto Finance LLC');
    expect(poa.text('Legibly Printed Name of Owner Grantor')).to.equal('Jane Q Borrower');
    // with no lienholder to appoint, the business name of the copy is not left behind
    const bare = await fillTemplate((await store.open('fl/HSMV-82053.pdf'))!.doc, fl.templates.forms_poa!, {
      ...poa.values,
      grantee: '',
    });
    expect(bare.doc.getForm().getTextField('Full Legibly Printed Name is required').getText() ?? '').to.equal('');
    expect(bare.doc.getForm().getCheckBox('Motor Vehicle').isChecked()).to.equal(true); // checked from the entry (an automobile), not left from the copy
  });

  it('decrypts an encrypted official copy (NY MV-82) and fills its radio groups and dropdowns', async function () {
    if (!store.locate('ny/MV-82.pdf')) return skipWithout(this, 'ny/MV-82.pdf', store.dirs);
    const f = await fill(ny, 'form_title_application', 'full');
    expect(f.text('VEHICLE IDENTIFICATION NUMBER')).to.equal(FIXTURE_VIN);
    expect(f.text('NAME OF PRIMARY REGISTRANT Last First Middle or Business Name')).to.equal('Borrower, Jane Q');
    expect(f.form.getRadioGroup('I WANT TO').getSelected()).to.equal('GET A TITLE ONLY');
    expect(f.form.getDropdown('PRIMARY REGISTRANT DATE OF BIRTH Month').getSelected()).to.deep.equal(['02']);
    expect(f.form.getDropdown('THE ADDRESS WHERE PRIMARY REGISTRANT GETS MAIL State').getSelected()).to.deep.equal([
      'NY',
    ]);
    expect(await checkTemplateFill(f.spec, f.pdf, f.values)).to.deep.equal([]);
    expect(await qpdfCheck(f.file)).to.equal('');
  });
});
