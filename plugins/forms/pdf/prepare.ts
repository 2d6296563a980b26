/**
 * Preparing an official template once per process, before any fill:
 *
 * - an encrypted copy (AES with an empty user password and "modify forms:
 *   allowed", as the AZ, GA, IN and NY forms come) is decrypted with qpdf:
 *   pdf-lib cannot read encrypted objects, and filling the form is what the
 *   permissions allow;
 * - fields no page shows are removed (REG 343 carries a hidden duplicate set),
 *   and widgets a page shows that no AcroForm field reaches are adopted as
 *   fields (a re-save by macOS Quartz left the FL HSMV forms' pages pointing
 *   at copies of the widgets the AcroForm lists);
 * - XFA is dropped so readers show the AcroForm values, and NeedAppearances
 *   so they show the appearances drawn at fill time;
 * - widget rectangles given corner to corner the wrong way up (CO DR 2116)
 *   are put in order, so fitting a value sees the widget's real height;
 * - every value is cleared: the copies we have of some forms were saved by a
 *   tag agency with boxes ticked and its business name typed in (SOURCES.md),
 *   and an official form is blank until the entry fills it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFName,
  PDFNull,
  PDFOptionList,
  PDFRadioGroup,
  PDFRef,
  PDFTextField,
  StandardFonts,
  type PDFPage,
} from 'pdf-lib';
import { choiceSelected, choose } from './choice.js';
import { LOAD_OPTIONS, save } from './document.js';

const run = promisify(execFile);

/** References of every annotation on every page, to the page holding it. */
export function annotationPages(doc: PDFDocument): Map<string, PDFPage> {
  const out = new Map<string, PDFPage>();
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = 0; i < annots.size(); i++) {
      const ref = annots.get(i);
      if (ref instanceof PDFRef) out.set(ref.toString(), page);
    }
  }
  return out;
}

/** The bytes of `path` decrypted by qpdf when the file is encrypted (as is otherwise). */
async function readDecrypted(path: string): Promise<Uint8Array> {
  const bytes = readFileSync(path);
  // the trailer (or cross-reference stream) names /Encrypt uncompressed; parsing an encrypted file with pdf-lib to ask would only log warnings
  if (!bytes.includes('/Encrypt')) return bytes;
  const dir = mkdtempSync(join(tmpdir(), 'titled-template-'));
  try {
    const out = join(dir, 'decrypted.pdf');
    await run('qpdf', ['--decrypt', path, out]).catch((e: { code?: number }) => {
      if (e.code !== 3) throw e; // 3: qpdf warned (damaged hint tables) but wrote the file
    });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Adds to the AcroForm the root field of every page widget no listed field reaches. */
function adoptPageWidgets(doc: PDFDocument): void {
  const form = doc.getForm();
  const reached = new Set<string>();
  for (const f of form.getFields())
    for (const w of f.acroField.getWidgets()) reached.add(doc.context.getObjectRef(w.dict)?.toString() ?? '');
  const added = new Set<string>();
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const ref = annots!.get(i);
      if (!(ref instanceof PDFRef) || reached.has(ref.toString())) continue;
      const annot = doc.context.lookup(ref);
      if (!(annot instanceof PDFDict) || annot.get(PDFName.of('Subtype'))?.toString() !== '/Widget') continue;
      let dict: PDFDict = annot;
      let root = ref;
      for (
        let parent = dict.get(PDFName.of('Parent'));
        parent instanceof PDFRef;
        parent = dict.get(PDFName.of('Parent'))
      ) {
        root = parent;
        dict = doc.context.lookup(parent, PDFDict);
      }
      if (!dict.has(PDFName.of('T')) || added.has(root.toString())) continue;
      added.add(root.toString());
      form.acroForm.addField(root);
    }
  }
}

/** Clears every value (text, checkbox, radio, choice) and redraws the text fields that held one. */
async function clearValues(doc: PDFDocument): Promise<void> {
  const cleared: PDFTextField[] = [];
  for (const f of doc.getForm().getFields()) {
    // a text field with no default appearance of its own or the form's (NC MVR-63, SC 400) cannot be drawn: give it one
    if (f instanceof PDFTextField && !hasDA(f)) f.acroField.setDefaultAppearance('/Helv 0 Tf 0 g');
    if (f instanceof PDFTextField && f.getText()) {
      f.setText(undefined);
      cleared.push(f);
    } else if (f instanceof PDFCheckBox && (f.isChecked() || choiceSelected(f)))
      choose(f, undefined); // every widget off (a several-state checkbox may be on in another state)
    else if (f instanceof PDFRadioGroup && f.getSelected()) f.clear();
    else if ((f instanceof PDFDropdown || f instanceof PDFOptionList) && f.getSelected().length) f.clear();
  }
  if (cleared.length) {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const f of cleared) f.defaultUpdateAppearances(font);
  }
}

/** Puts every widget's /Rect in lower-left, upper-right order (a rectangle may be given by any two opposite corners). */
function normalizeRects(doc: PDFDocument): void {
  for (const f of doc.getForm().getFields()) {
    for (const w of f.acroField.getWidgets()) {
      const r = w.getRectangle();
      if (r.width >= 0 && r.height >= 0) continue;
      const x = Math.min(r.x, r.x + r.width);
      const y = Math.min(r.y, r.y + r.height);
      w.setRectangle({ x, y, width: Math.abs(r.width), height: Math.abs(r.height) });
    }
  }
}

/**
 * Gives every missing object number a null object: pdf-lib writes the
 * cross-reference table of a file with gaps (the FL 82053 copy lacks objects
 * 9, 70 and 71) as several subsections, which poppler rejects.
 */
function fillObjectGaps(doc: PDFDocument): void {
  const ctx = doc.context;
  const have = new Set(ctx.enumerateIndirectObjects().map(([ref]) => ref.objectNumber));
  for (let n = 1; n <= ctx.largestObjectNumber; n++) if (!have.has(n)) ctx.assign(PDFRef.of(n), PDFNull);
}

function hasDA(f: PDFTextField): boolean {
  try {
    return !!f.acroField.getDefaultAppearance();
  } catch {
    return false;
  }
}

/** The prepared template bytes of the file at `path`. */
export async function prepareTemplateFile(path: string): Promise<Uint8Array> {
  return prepareTemplate(await readDecrypted(path));
}

/** Prepares a template's (unencrypted) bytes: hidden fields removed, page widgets adopted, XFA dropped, values cleared. */
export async function prepareTemplate(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, LOAD_OPTIONS);
  const form = doc.getForm();
  form.acroForm.dict.delete(PDFName.of('XFA'));
  // every field written gets its appearance drawn here; a reader regenerating them from /DA finds fonts the form's /DR lacks (FL 82040)
  form.acroForm.dict.delete(PDFName.of('NeedAppearances'));
  const onPage = annotationPages(doc);
  for (const field of form.getFields()) {
    const shown = field.acroField.getWidgets().some((w) => {
      const ref = doc.context.getObjectRef(w.dict);
      return ref && onPage.has(ref.toString());
    });
    if (!shown) form.acroForm.removeField(field.acroField);
  }
  adoptPageWidgets(doc);
  normalizeRects(doc);
  await clearValues(doc);
  fillObjectGaps(doc);
  return save(doc);
}
