/**
 * Issue 18, the drawn layouts: a signature line stays on the page of its
 * certification; the new lien's account id is the loan number; owners of
 * record carry the matching borrower's license (and address when the title
 * has none); every owner of record who must sign gets a power of attorney
 * (each AND co-owner; one of OR co-owners); the payee is a name.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TitleEntry } from '../../core/model/entry.js';
import { PERJURY } from '../../plugins/forms/layouts/common.js';
import { FORM_CATALOG } from '../../plugins/forms/layouts/index.js';
import { layout, wrap, PAGE, type Block } from '../../plugins/forms/pdf/draw.js';
import { drawnForm, renderDrawn } from '../../plugins/forms/render.js';
import { planForms } from '../../plugins/forms/select.js';
import { payeeName } from '../../plugins/forms/values.js';
import { fixtureEntry, type FixtureName } from '../support/fixtures.js';
import { loadStatePlugins } from '../../states/registry.js';
import { pageTexts } from '../support/tester.js';
import type { FormKind, FormValues } from '../../states/types.js';

const states = loadStatePlugins();
let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'titled-drawn-signers-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function drawnText(code: string, kind: FormKind, values: FormValues): Promise<string> {
  const state = states.get(code)!;
  const d = renderDrawn({ kind, values, state, spec: state.drawn[kind] ?? {}, generic: false });
  const file = join(dir, `${code}-${kind}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, d.pdf);
  return (await pageTexts(file)).join('\n').replace(/\s+/g, ' ');
}

type Ad = {
  vehicle: { title: { owners: Record<string, unknown>[]; conjunction?: string; is_and?: boolean; is_or?: boolean } };
  loan: Record<string, unknown>;
  sale: Record<string, unknown>;
};
function entryWith(code: string, fixture: FixtureName, change: (ad: Ad) => void): TitleEntry {
  const e = fixtureEntry(code, fixture);
  change(e.account_data as unknown as Ad);
  return e;
}

/** The page of the last line of a statement and of the first signature line after it. */
function pagesOf(blocks: Block[], statement: string): { statement: number; signature: number } {
  const { placed } = layout({ title: 'T', footer: 'f', blocks });
  const last = wrap(statement, 'regular', 9, PAGE.width - 2 * PAGE.margin).at(-1)!;
  const s = placed.filter((t) => t.text === last).at(-1)!;
  const sig = placed.find((t) => t.text.startsWith('Signature of'))!;
  return { statement: s.page, signature: sig.page };
}

describe('forms: drawn layouts keep signers with what they sign (issue 18)', () => {
  it('keeps a certification and its signature line on one page, wherever the page breaks', () => {
    // rows of fields push the certification down by a little each time, across the whole page
    for (let rows = 0; rows < 30; rows++) {
      for (const extra of [0, 1, 2]) {
        const blocks: Block[] = [
          ...Array.from(
            { length: rows },
            () => ({ kind: 'fields', fields: [{ label: 'Field', value: 'value', span: 4 }] }) as Block,
          ),
          ...Array.from({ length: extra }, () => ({ kind: 'text', text: 'A line of filler text.' }) as Block),
          { kind: 'text', text: PERJURY },
          { kind: 'section', heading: 'Signatures' },
          { kind: 'signatures', signers: [{ role: 'Applicant', name: 'Jane Q Borrower' }] },
        ];
        const p = pagesOf(blocks, PERJURY);
        expect(p.signature, `${rows} rows, ${extra} lines: the signature line left its certification`).to.equal(
          p.statement,
        );
      }
    }
  });

  it('keeps the certification with the signature line on every drawn Texas form of the fixtures', () => {
    for (const fixture of ['full', 'repossession', 'trailer'] as FixtureName[]) {
      for (const borrowerName of [undefined, 'Maximiliana Alexandrina Evangelina Bartholomew-Fitzgerald de la Vega']) {
        const plan = planForms(fixtureEntry('TX', fixture, { borrowerName }), states);
        for (const kind of plan.forms.filter((k) => !FORM_CATALOG[k].signers)) {
          const form = drawnForm({ kind, values: plan.values!, state: states.get('TX')!, spec: {}, generic: false });
          const i = form.blocks.findIndex((b) => b.kind === 'signatures');
          const before = form.blocks
            .slice(0, i)
            .filter((b) => b.kind === 'text')
            .at(-1);
          if (i < 0 || !before || before.kind !== 'text') continue;
          const p = pagesOf([...form.blocks], before.text);
          expect(p.signature, `${fixture} ${kind}`).to.equal(p.statement);
        }
      }
    }
  });

  it("prints the loan number as the new lien's account id, and makes no lien of a loan number alone", async () => {
    const plan = planForms(fixtureEntry('TX', 'full'), states);
    expect(plan.values!.lien.lien_id).to.equal('LN-0001');
    const text = await drawnText('TX', 'form_title_application', plan.values!);
    expect(text).to.include('LIEN / ACCOUNT ID').and.include('LN-0001');
    const noHolder = planForms(
      entryWith('TX', 'minimal', (ad) => {
        delete ad.loan.new_lienholder;
      }),
      states,
    );
    expect(noHolder.values!.lien.present).to.equal(false);
    expect(noHolder.values!.loan.loan_id).to.equal('LN-0001');
  });

  it("lists owners of record with the matching borrower's license, and address when the title has none", async () => {
    // the title names Jane without an address; the loan has her address and license
    const bare = planForms(
      entryWith('TX', 'full', (ad) => {
        ad.vehicle.title.owners[0] = { type: 'PERSON', name: 'Jane Q Borrower' };
      }),
      states,
    );
    expect(bare.values!.record_owner1.dl_number).to.equal('D1234567');
    const text = await drawnText('TX', 'form_lien_add', bare.values!);
    expect(text).to.include('D1234567').and.include('1 Main St, Springfield, TX 78701');
    // the title's own address stays the address of record (the address affidavit compares the two)
    const own = planForms(fixtureEntry('TX', 'full'), states);
    expect(own.values!.record_owner1.addr.one_line).to.equal('77 Old Mill Rd, Reno, NV 89501');
    expect(own.values!.record_owner1.mailing_if_different.one_line).to.equal('');
    expect(own.values!.record_owner1.dl_number).to.equal('D1234567');
    expect(own.forms).to.include('form_addr_oats');
    const dup = await drawnText('TX', 'form_duplicate_title', own.values!);
    expect(dup).to.include('D1234567').and.include('77 Old Mill Rd, Reno, NV 89501');
  });

  it('gives every AND co-owner who must sign a power of attorney, and one of OR co-owners', () => {
    // New York: Jane and Robert own the car (AND); the sale is to Jane alone, so Robert signs his interest away
    const toJane = (conj: 'AND' | 'OR') =>
      entryWith('NY', 'full', (ad) => {
        delete ad.loan.add_owner;
        delete ad.loan.drop_owner;
        Object.assign(ad.vehicle.title, { conjunction: conj, is_and: conj === 'AND', is_or: conj === 'OR' });
        ad.sale = {
          buyer: [{ type: 'PERSON', name: 'Jane Q Borrower' }],
          date_of_sale: '2026-10-28',
          sale_price: 1,
          state: 'NY',
        };
      });
    const and = planForms(toJane('AND'), states);
    const poa = FORM_CATALOG.forms_poa.signers!(and.signers).map((s) => `${s.person.name} (${s.role})`);
    expect(poa).to.deep.equal(['Jane Q Borrower (Owner and borrower)', 'Robert T Coowner (Owner of record)']);
    const robert = and.signers.find((s) => s.person.name === 'Robert T Coowner')!;
    expect(robert.person.dl_number).to.equal('C7654321');
    const or = planForms(toJane('OR'), states);
    expect(FORM_CATALOG.forms_poa.signers!(or.signers).map((s) => s.person.name)).to.deep.equal(['Jane Q Borrower']);
    // a repossession is signed by the secured party: no POA for the debtors of record
    const repo = planForms(fixtureEntry('NY', 'repossession'), states);
    expect(FORM_CATALOG.forms_poa.signers!(repo.signers).map((s) => s.role)).to.not.include('Owner of record');
  });

  it('prints the payee as a name, not a paragraph', async () => {
    expect(
      payeeName(
        'County license plate issuing official (probate judge / license commissioner) of the county of residence, acting as designated agent of the Alabama Department of Revenue',
        'Jefferson',
      ),
    ).to.equal('Jefferson County license plate issuing official');
    expect(
      payeeName(
        'County Tax Collector of the county of residence (example: "Stan Nichols, Santa Rosa County Tax Collector"; Hillsborough asks for checks payable to "<name>, Tax Collector")',
        'Travis County',
      ),
    ).to.equal('Travis County Tax Collector');
    expect(
      payeeName(
        '<County> County Treasurer of the county of residence (e.g. "Iowa County Treasurer", "Polk County Treasurer")',
        'Polk',
      ),
    ).to.equal('Polk County Treasurer');
    expect(
      payeeName('Clerk of Courts of the county of residence (example: Shelby County Clerk of Courts)', ''),
    ).to.equal("Clerk of Courts of the owner's county");
    expect(
      payeeName(
        'Secretary of State (title and registration fees); tax is a separate payment to the Illinois Department of Revenue',
        'Cook',
      ),
    ).to.equal('Secretary of State');
    expect(payeeName('Commonwealth of Pennsylvania', 'Dauphin')).to.equal('Commonwealth of Pennsylvania');
    const al = planForms(fixtureEntry('AL', 'full'), states);
    const text = await drawnText('AL', 'form_instructions', al.values!);
    expect(text).to.include('MAKE FEES PAYABLE TO Travis County license plate issuing official');
    expect(text).to.not.include('acting as designated agent');
  });
});
