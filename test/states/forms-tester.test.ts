/**
 * The shared state plugin tester checks plugins, not only their output: it
 * must flag a broken definition, a mapping to a field the template does not
 * have (or only hides), and a fill that does not hold the expected values.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { planForms } from '../../plugins/forms/select.js';
import { fixtureEntry } from '../support/fixtures.js';
import ca from '../../states/ca/forms.js';
import tx from '../../states/tx/forms.js';
import { defineState } from '../../states/standard.js';
import { checkDefinition, checkTemplateFields, checkTemplateFill } from '../support/tester.js';
import type { FormKind, StatePlugin, TemplateSpec } from '../../states/types.js';

const store = new TemplateStore(parseFormsOptions({}).templateDirs);
const sample = planForms(fixtureEntry('TX', 'full'), new Map([['TX', tx]])).values!;

describe('state plugin tester: checks the plugins themselves', () => {
  it('accepts a good definition', () => {
    expect(checkDefinition(tx, sample)).to.deep.equal([]);
    expect(checkDefinition(ca, sample)).to.deep.equal([]);
  });

  it('flags unknown forms and transactions, bad value paths, undeclared templates, duplicate fields, missing sources', () => {
    const bad = {
      ...defineState({ code: 'ZZ', name: 'Nowhere', agency: 'Nowhere DMV' }),
      forms: { always: ['form_nonsense' as FormKind], teleport: ['forms_poa'] },
      templates: {
        form_ucc1: {
          file: '../escape.pdf',
          name: 'x',
          fields: [
            { field: 'A', value: 'vehicle.nope' },
            { check: 'A', when: 'txn.never' },
          ],
        } as unknown as TemplateSpec,
      },
      rules: { ...tx.rules, sources: [] },
    } as unknown as StatePlugin;
    const problems = checkDefinition(bad, sample).join('\n');
    expect(problems).to.include("forms.always: unknown form 'form_nonsense'");
    expect(problems).to.include("forms: unknown transaction 'teleport'");
    expect(problems).to.include('templates.form_ucc1: the state never declares this form');
    expect(problems).to.include("'../escape.pdf' is not a relative .pdf path");
    expect(problems).to.include("'vehicle.nope' is not a value path");
    expect(problems).to.include("'txn.never' is not a value path");
    expect(problems).to.include("field 'A' is mapped twice");
    expect(problems).to.include('rules.sources is empty');
  });

  it('flags mappings to fields a template lacks, of the wrong type, or only hidden (REG 343 duplicates)', async function () {
    const file = store.locate('ca/Reg343.pdf');
    if (!file) return this.skip();
    const spec: TemplateSpec = {
      file: 'ca/Reg343.pdf',
      name: 'REG 343',
      fields: [
        { field: 'No Such Field', value: 'vehicle.vin' },
        { field: 'Check Box20', value: 'vehicle.vin' },
        { check: 'Text62', when: 'always' },
        { field: 'Text1.0', value: 'vehicle.vin' },
        { field: 'Text62', value: 'owner1.name_lfm' },
      ],
    };
    const problems = await checkTemplateFields(spec, readFileSync(file));
    expect(problems).to.have.length(4);
    expect(problems.join('\n'))
      .to.include("'No Such Field' is not a field")
      .and.include("'Check Box20' is a PDFCheckBox, not a text field")
      .and.include("'Text62' is a PDFTextField, not a checkbox")
      .and.include("'Text1.0' has no widget on any page");
  });

  it('flags a fill whose values or checkboxes are not what the mapping says', async function () {
    const file = store.locate('tx/130-U.pdf');
    if (!file) return this.skip();
    const spec = tx.templates.form_title_application!;
    const doc = await PDFDocument.load(readFileSync(file));
    const form = doc.getForm();
    form.getTextField('1 Vehicle Identification Number').setText('WRONGVIN');
    form.getCheckBox('Exempt').check();
    const problems = (await checkTemplateFill(spec, await doc.save(), sample)).join('\n');
    expect(problems).to.include(`'1 Vehicle Identification Number' holds "WRONGVIN", expected "${sample.vehicle.vin}"`);
    expect(problems).to.include("checkbox 'Exempt' is checked, expected unchecked");
  });
});
