/** The final packet: documented order, indices format, page counts, and both ways of assembling it. */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { PACKET_ORDER } from '../../plugins/forms/layouts/index.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { formatIndices, parseIndices } from '../../plugins/forms/packet.js';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { renderPlan } from '../../plugins/forms/render.js';
import { planForms } from '../../plugins/forms/select.js';
import { fixtureEntry } from '../support/fixtures.js';
import { loadStatePlugins } from '../../states/registry.js';
import { qpdfCheck } from '../support/tester.js';
import { FORM_KINDS } from '../../states/types.js';

const states = loadStatePlugins();
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'titled-packet-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('forms: the final packet', () => {
  it('orders every form kind once, the cover sheet first', () => {
    expect([...PACKET_ORDER].sort()).to.deep.equal([...FORM_KINDS].sort());
    expect(PACKET_ORDER[0]).to.equal('form_instructions');
  });

  it('writes and reads the indices format', () => {
    const ranges = [
      { key: 'form_instructions', first: 1, last: 1 },
      { key: 'form_title_application', first: 2, last: 3 },
      { key: 'forms_poa[0]', first: 4, last: 4 },
    ];
    expect(formatIndices(ranges)).to.equal('form_instructions:1,form_title_application:2-3,forms_poa[0]:4');
    expect(parseIndices(formatIndices(ranges))).to.deep.equal(ranges);
    expect(() => parseIndices('form_x:2-')).to.throw(/not a packet index item/);
  });

  for (const [code, how] of [
    ['WY', 'drawn only (written directly)'],
    ['CA', 'with official templates (their pages and what they reach, renumbered)'],
  ] as const) {
    it(`packs ${how}: pages = sum of forms, indices in packet order, qpdf clean`, async () => {
      const plan = planForms(fixtureEntry(code, 'repossession'), states);
      const result = await renderPlan(plan, new TemplateStore(parseFormsOptions({}).templateDirs));
      const parts = result.files.filter((f) => f.variant === 'state');
      expect(result.packet!.pages).to.equal(parts.reduce((n, f) => n + f.pages, 0));
      const keys = parseIndices(result.packet!.indices).map((r) => r.key.replace(/\[\d+\]$/, ''));
      expect(keys).to.deep.equal(parts.map((f) => f.kind));
      expect([...new Set(keys)]).to.deep.equal(PACKET_ORDER.filter((k) => keys.includes(k)));
      const file = join(dir, `${code}.pdf`);
      writeFileSync(file, result.packet!.pdf);
      expect(await qpdfCheck(file)).to.equal('');
      const doc = await PDFDocument.load(result.packet!.pdf);
      expect(doc.getPageCount()).to.equal(result.packet!.pages);
      expect(doc.getTitle()).to.match(new RegExp(`^Final packet - ${code === 'WY' ? 'Wyoming' : 'California'}`));
    });
  }
});
