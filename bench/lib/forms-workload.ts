/**
 * The forms bench's workload: fixture entries whose packets hold 4 to 8
 * forms, for every state without official templates (drawn) or with them
 * (official), and a plain pdf-lib renderer of the same pages (the baseline).
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { TitleEntry } from '../../core/model/entry.js';
import { FORM_CATALOG } from '../../plugins/forms/layouts/index.js';
import type { LayoutContext } from '../../plugins/forms/layouts/common.js';
import { layout, PAGE } from '../../plugins/forms/pdf/draw.js';
import type { FontName } from '../../plugins/forms/pdf/fonts.js';
import { drawnForm } from '../../plugins/forms/render.js';
import { planForms, type FormPlan } from '../../plugins/forms/select.js';
import { valuesForSigner } from '../../plugins/forms/values.js';
import { fixtureEntry, type FixtureName } from '../../test/support/fixtures.js';
import type { StatePlugin } from '../../states/types.js';

const FIXTURES: readonly FixtureName[] = ['ohv', 'low_speed', 'trailer', 'boat', 'repossession', 'full'];

/** Variants of a fixture that move its packet between 4 and 8 forms (fewer or more signers, with or without a lien). */
const VARIANTS: readonly ((e: TitleEntry) => void)[] = [
  () => undefined,
  (e) => {
    delete e.account_data.loan!.new_lienholder;
  },
  (e) => {
    e.account_data.loan!.borrower![0]!.oats_names = [];
  },
  (e) => {
    e.account_data.loan!.borrower!.push({
      type: 'PERSON',
      name: 'Chris Coborrower',
      id: 'borrower-2',
      addr: { street1: '1 Main St', city: 'Springfield', zip: '78701' },
    });
  },
  (e) => {
    e.account_data.loan!.borrower!.push({
      type: 'PERSON',
      name: 'Chris Coborrower',
      id: 'borrower-2',
      oats_names: ['Christopher Coborrower'],
    });
  },
];

/** How many forms a plan's packet holds (per-signer forms once per signer). */
export function packetForms(plan: FormPlan): number {
  return plan.forms.reduce(
    (n, k) => n + (FORM_CATALOG[k].signers ? FORM_CATALOG[k].signers!(plan.signers).length : 1),
    0,
  );
}

/** Entries of the given states whose packets hold 4 to 8 forms, with their form counts. */
export function workload(
  states: ReadonlyMap<string, StatePlugin>,
  official: boolean,
): { entries: TitleEntry[]; forms: number[] } {
  const entries: TitleEntry[] = [];
  const forms: number[] = [];
  for (const [code, state] of states) {
    const hasTemplates = Object.keys(state.templates).length > 0;
    if (hasTemplates !== official) continue;
    for (const fx of FIXTURES) {
      for (const vary of VARIANTS) {
        const e = fixtureEntry(code, fx);
        vary(e);
        const n = packetForms(planForms(e, states));
        if (n >= 4 && n <= 8) {
          entries.push(e);
          forms.push(n);
        }
      }
    }
  }
  return { entries, forms };
}

/** The layout contexts of a plan's files, as renderPlan makes them (state version, plus the generic one of per-signer forms). */
function contexts(plan: FormPlan): { ctx: LayoutContext; inPacket: boolean }[] {
  const out: { ctx: LayoutContext; inPacket: boolean }[] = [];
  const state = plan.state!;
  for (const kind of plan.forms) {
    const entry = FORM_CATALOG[kind];
    const spec = state.drawn[kind] ?? {};
    if (entry.signers) {
      for (const s of entry.signers(plan.signers)) {
        const values = valuesForSigner(plan.values!, s);
        out.push(
          { ctx: { kind, values, state, spec, generic: false }, inPacket: true },
          { ctx: { kind, values, state, spec: {}, generic: true }, inPacket: false },
        );
      }
    } else out.push({ ctx: { kind, values: plan.values!, state, spec, generic: false, packet: [] }, inPacket: true });
  }
  return out;
}

const PDF_LIB_FONTS: Record<FontName, StandardFonts> = {
  regular: StandardFonts.Helvetica,
  bold: StandardFonts.HelveticaBold,
  italic: StandardFonts.HelveticaOblique,
};

/**
 * The baseline: the same plan, the same layout, the same texts at the same
 * places, but each form drawn with pdf-lib's drawText and saved by pdf-lib,
 * and the packet merged with copyPages (a straightforward pdf-lib renderer).
 */
export async function renderWithPdfLib(plan: FormPlan): Promise<{ files: number; pages: number; bytes: number }> {
  const docs: PDFDocument[] = [];
  let bytes = 0;
  for (const { ctx, inPacket } of contexts(plan)) {
    const drawn = layout(drawnForm(ctx));
    const doc = await PDFDocument.create({ updateMetadata: false });
    const fonts = {} as Record<FontName, PDFFont>;
    for (const f of Object.keys(PDF_LIB_FONTS) as FontName[]) fonts[f] = await doc.embedFont(PDF_LIB_FONTS[f]);
    const pages = drawn.pages.map(() => doc.addPage([PAGE.width, PAGE.height]));
    for (const t of drawn.placed)
      pages[t.page]!.drawText(t.text, { x: t.x, y: t.y, size: t.size, font: fonts[t.font] });
    bytes += (await doc.save()).byteLength;
    if (inPacket) docs.push(doc);
  }
  const packet = await PDFDocument.create({ updateMetadata: false });
  for (const d of docs) for (const p of await packet.copyPages(d, d.getPageIndices())) packet.addPage(p);
  bytes += (await packet.save()).byteLength;
  return { files: docs.length, pages: packet.getPageCount(), bytes };
}
