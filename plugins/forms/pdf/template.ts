/**
 * Official templates: found in the configured template folders, prepared once
 * (fields no page shows are removed, XFA dropped so readers show the AcroForm
 * values), filled from FormValues with every value fitted to its widget, and
 * flattened for the packet.
 */
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  PDFButton,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFField,
  PDFName,
  PDFNumber,
  PDFPage,
  PDFRef,
  PDFStream,
  PDFTextField,
  StandardFonts,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  PDFOperator,
  PDFOperatorNames,
  type PDFFont,
} from 'pdf-lib';
import type { FieldMapping, FormValues, TemplateSpec } from '../../../states/types.js';
import { mappedText, resolveFlag } from '../resolve.js';
import { updateCheckBox, updateTextField } from './appearance.js';
import { choiceOptions, choose } from './choice.js';
import { cloneDocument, hasKey, sourceOf } from './clone.js';
import { LOAD_OPTIONS } from './document.js';
import { annotationPages, prepareTemplateFile } from './prepare.js';
import { wrap } from './draw.js';
import { widthOf } from './fonts.js';

/** A prepared template: its bytes, and its parsed document (never filled itself: {@link TemplateStore.open} hands out copies). */
interface Prepared {
  bytes: Uint8Array;
  doc: PDFDocument;
}

/** Where templates are looked up, in order; the first folder holding the file wins. */
export class TemplateStore {
  private readonly cache = new Map<string, { mtimeMs: number; size: number; prepared: Promise<Prepared> }>();
  /** How many times a template file was read and parsed (once per file and change; tests check the cache holds). */
  parses = 0;

  constructor(readonly dirs: readonly string[]) {}

  /** The template file's full path, or null when no folder has it. */
  locate(file: string): string | null {
    if (isAbsolute(file) || file.split(/[\\/]/).includes('..'))
      throw new Error(`template file '${file}' must be a relative path inside a template folder`);
    for (const dir of this.dirs) {
      const p = join(dir, file);
      try {
        if (statSync(p).isFile()) return p;
      } catch {
        // not in this folder
      }
    }
    return null;
  }

  private prepared(file: string): { path: string; prepared: Promise<Prepared> } | null {
    const path = this.locate(file);
    if (!path) return null;
    const st = statSync(path);
    let hit = this.cache.get(path);
    if (!hit || hit.mtimeMs !== st.mtimeMs || hit.size !== st.size) {
      this.parses++;
      const prepared = prepareTemplateFile(path).then(async (bytes) => ({
        bytes,
        doc: await PDFDocument.load(bytes, LOAD_OPTIONS),
      }));
      hit = { mtimeMs: st.mtimeMs, size: st.size, prepared };
      prepared.catch(() => this.cache.delete(path));
      this.cache.set(path, hit);
    }
    return { path, prepared: hit.prepared };
  }

  /** The prepared template bytes (cached; re-read when the file changes), or null when absent. */
  async load(file: string): Promise<{ path: string; bytes: Uint8Array } | null> {
    const hit = this.prepared(file);
    return hit && { path: hit.path, bytes: (await hit.prepared).bytes };
  }

  /**
   * A fresh copy of the parsed template to fill (parsed once per process and file change), or null when absent;
   * `base` is the prepared template it copies (never to be changed), for saving the fill as an update of it.
   */
  async open(file: string): Promise<{ path: string; doc: PDFDocument; base: Readonly<Prepared> } | null> {
    const hit = this.prepared(file);
    if (!hit) return null;
    const base = await hit.prepared;
    return { path: hit.path, doc: cloneDocument(base.doc), base };
  }
}

export interface FillReport {
  /** Text fields set: name, value, font size chosen, lines (1 = single line). */
  text: { field: string; value: string; size: number; lines: number }[];
  checked: string[];
  /** Radio groups and dropdowns set: name and the option chosen. */
  chosen: { field: string; value: string }[];
  /** Fields whose value was cut to the field's maximum length. */
  truncated: string[];
}

const PADDING = 2;
const MIN_SIZE = 4;

/** The font size in a field's default appearance (`/Helv 10 Tf`), or 0 (auto). */
function daSize(field: PDFTextField): number {
  const m = /(\d+(?:\.\d+)?)\s+Tf/.exec(field.acroField.getDefaultAppearance() ?? '');
  return m ? Number(m[1]) : 0;
}

/** Chooses a size (and single or multi line) so the value fits the field's smallest widget. */
function fitText(field: PDFTextField, value: string): { size: number; lines: number } {
  const rects = field.acroField.getWidgets().map((w) => w.getRectangle());
  const width = Math.min(...rects.map((r) => r.width)) - 2 * PADDING;
  const height = Math.min(...rects.map((r) => r.height)) - PADDING;
  const start = Math.min(daSize(field) || 10, 10, Math.max(MIN_SIZE, height / 1.15));
  for (let size = start; size >= 6; size -= 0.5) {
    if (widthOf(value, 'regular', size) <= width) return { size, lines: 1 };
  }
  for (let size = Math.min(start, 8); size >= MIN_SIZE; size -= 0.5) {
    const lines = wrap(value, 'regular', size, width).length;
    if (lines * size * 1.2 <= height + 1) return { size, lines };
  }
  return { size: MIN_SIZE, lines: wrap(value, 'regular', MIN_SIZE, width).length };
}

function setText(field: PDFTextField, name: string, value: string, report: FillReport): void {
  const max = field.getMaxLength();
  let v = value;
  if (max !== undefined && v.length > max) {
    v = v.slice(0, max);
    report.truncated.push(name);
  }
  if (!v) {
    field.setText(undefined);
    return;
  }
  const fit = fitText(field, v);
  if (fit.lines > 1) field.enableMultiline();
  field.setFontSize(fit.size);
  field.setText(v);
  report.text.push({ field: name, value: v, size: fit.size, lines: fit.lines });
}

/** Field names of each parsed template, in {@link PDFForm.getFields} order. */
const templateNames = new WeakMap<PDFDocument, string[]>();

/**
 * The full names of `fields` (`doc`'s, in getFields order). A fresh copy of a
 * template has its template's fields in the same order, so their names
 * (decoded from every level of the field tree: a fiftieth of a large form's
 * fill) are worked out once per template.
 */
function fieldNames(doc: PDFDocument, fields: readonly PDFField[]): string[] {
  const src = sourceOf(doc);
  const known = src && templateNames.get(src);
  if (known && known.length === fields.length) return known;
  const names = fields.map((f) => f.getName());
  if (src) templateNames.set(src, names);
  return names;
}

/** Fills a prepared template: returns the document (not saved) and what was written where. */
export async function fillTemplate(
  template: Uint8Array | PDFDocument,
  spec: TemplateSpec,
  values: FormValues,
): Promise<{ doc: PDFDocument; report: FillReport; font: PDFFont }> {
  const doc = template instanceof PDFDocument ? template : await PDFDocument.load(template, LOAD_OPTIONS);
  const form = doc.getForm();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const report: FillReport = { text: [], checked: [], chosen: [], truncated: [] };
  const touched = new Set<PDFTextField | PDFCheckBox>();
  // PDFForm.getTextField(name) walks every field each call: index them once
  const fields = form.getFields();
  const names = fieldNames(doc, fields);
  const byName = new Map(fields.map((f, i) => [names[i]!, f]));
  const missing = (name: string, kind: string) =>
    new Error(`template field '${name}' ${byName.has(name) ? `is not a ${kind}` : 'does not exist'}`);
  const text = (name: string): PDFTextField => {
    const f = byName.get(name);
    if (f instanceof PDFTextField) return f;
    throw missing(name, 'text field');
  };
  const box = (name: string): PDFCheckBox => {
    const f = byName.get(name);
    if (f instanceof PDFCheckBox) return f;
    throw missing(name, 'checkbox');
  };
  const typed = <T>(name: string, kind: abstract new (...a: never[]) => T, label: string): T => {
    const f = byName.get(name);
    if (f instanceof (kind as unknown as typeof PDFTextField)) return f as T;
    throw missing(name, label);
  };
  for (const m of spec.fields as readonly FieldMapping[]) {
    if ('radio' in m) {
      const field = byName.get(m.radio);
      if (!field || !choiceOptions(field)) throw missing(m.radio, 'radio group');
      const pick = m.choose.find((c) => resolveFlag(values, c.when));
      choose(field, pick?.option);
      if (pick) report.chosen.push({ field: m.radio, value: pick.option });
    } else if ('select' in m) {
      const field = typed(m.select, PDFDropdown as unknown as abstract new () => PDFDropdown, 'dropdown');
      const want = mappedText(values, { field: m.select, value: m.value });
      const option = field.getOptions().find((o) => o.toUpperCase() === want.toUpperCase());
      if (option) {
        field.select(option);
        report.chosen.push({ field: m.select, value: option });
      } else field.clear();
      field.defaultUpdateAppearances(font);
    } else if ('check' in m) {
      const field = box(m.check);
      if (resolveFlag(values, m.when)) {
        field.check();
        report.checked.push(m.check);
      } else field.uncheck();
      touched.add(field);
    } else if ('field' in m) {
      const field = text(m.field);
      setText(field, m.field, mappedText(values, m), report);
      touched.add(field);
    } else {
      const chars = [...mappedText(values, m)];
      m.chars.forEach((name, i) => {
        const field = text(name);
        setText(field, name, (chars[i] ?? '').trim(), report);
        touched.add(field);
      });
      if (chars.length > m.chars.length) report.truncated.push(m.chars[0]!);
    }
  }
  // appearances only for the fields written: regenerating every field of a large form costs more than the fill
  for (const f of touched) {
    if (f instanceof PDFTextField) updateTextField(f, font);
    else updateCheckBox(f);
  }
  return { doc, report, font };
}

/** Draws every visible widget's appearance into its page and removes the form (the packet copy). */
export function flattenForm(doc: PDFDocument): void {
  const form = doc.getForm();
  const onPage = annotationPages(doc);
  const widgetRefs = new Set<string>();
  // PDFContext.getObjectRef scans every object: index the references once (it was most of a large form's flattening)
  const refOf = new Map<unknown, PDFRef>();
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) refOf.set(obj, ref);
  const xobjects = new Map<PDFPage, PDFDict>();
  for (const field of form.getFields()) {
    for (const widget of field.acroField.getWidgets()) {
      const ref = refOf.get(widget.dict);
      if (!ref) continue;
      widgetRefs.add(ref.toString());
      if (field instanceof PDFButton) continue; // a form's own PRINT / CLEAR buttons (GA MV-1) are not printed on the filed copy
      const page = onPage.get(ref.toString());
      const flags = widget.dict.lookup(PDFName.of('F'));
      if (!page || (flags instanceof PDFNumber && flags.asNumber() & 2)) continue;
      const ap = appearanceRef(widget.dict, field instanceof PDFCheckBox ? field.acroField.getValue() : undefined);
      if (!ap) continue;
      // an appearance stream may omit /Subtype /Form (readers tolerate it there); drawn with Do it must be a form XObject
      const stream = doc.context.lookup(ap);
      if (stream instanceof PDFStream) {
        if (!stream.dict.has(PDFName.of('Subtype'))) stream.dict.set(PDFName.of('Subtype'), PDFName.of('Form'));
        if (!stream.dict.has(PDFName.of('Type'))) stream.dict.set(PDFName.of('Type'), PDFName.of('XObject'));
        if (!stream.dict.has(PDFName.of('BBox'))) {
          const r = widget.getRectangle();
          stream.dict.set(PDFName.of('BBox'), doc.context.obj([0, 0, r.width, r.height]));
        }
      }
      const rect = widget.getRectangle();
      const name = newXObject(page, xobjects, ap);
      page.pushOperators(pushGraphicsState(), moveTo(rect.x, rect.y), drawObject(name), popGraphicsState());
    }
  }
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const ref = annots.get(i);
      if (ref instanceof PDFRef && widgetRefs.has(ref.toString())) annots.remove(i);
    }
  }
  doc.catalog.delete(PDFName.of('AcroForm'));
}

const [ONE, ZERO] = [PDFNumber.of(1), PDFNumber.of(0)];

/** What translate(x, y) writes (`1 0 0 1 x y cm`), its constant operands made once (formatting numbers was a fiftieth of a fill). */
function moveTo(x: number, y: number): PDFOperator {
  return PDFOperator.of(PDFOperatorNames.ConcatTransformationMatrix, [
    ONE,
    ZERO,
    ZERO,
    ONE,
    PDFNumber.of(x),
    PDFNumber.of(y),
  ]);
}

/**
 * What PDFPageLeaf.newXObject does (the same names from the context's seeded
 * suffixes, the same entries), with the page's XObject dictionary looked up
 * once per page: pdf-lib normalizes the page and lists the dictionary's keys
 * for every widget, quadratic in a page's widgets.
 */
function newXObject(page: PDFPage, xobjects: Map<PDFPage, PDFDict>, ap: PDFRef): PDFName {
  let dict = xobjects.get(page);
  if (!dict) {
    dict = page.node.normalizedEntries().XObject;
    xobjects.set(page, dict);
  }
  let key = PDFName.of(dict.context.addRandomSuffix('FlatWidget', 10));
  while (hasKey(dict, key)) key = PDFName.of(dict.context.addRandomSuffix('FlatWidget', 10));
  dict.set(key, ap);
  return key;
}

/** The normal appearance stream of a widget (for a checkbox, the one of its current state). */
function appearanceRef(widget: PDFDict, state?: PDFName): PDFRef | undefined {
  const ap = widget.lookup(PDFName.of('AP'));
  if (!(ap instanceof PDFDict)) return undefined;
  const n = ap.get(PDFName.of('N'));
  if (n instanceof PDFRef) {
    const target = widget.context.lookup(n);
    if (target instanceof PDFStream) return n;
    if (target instanceof PDFDict) return pick(target, state);
    return undefined;
  }
  if (n instanceof PDFDict) return pick(n, state);
  return undefined;
}

function pick(states: PDFDict, state?: PDFName): PDFRef | undefined {
  const chosen = (state && states.get(state)) ?? states.get(PDFName.of('Off'));
  return chosen instanceof PDFRef ? chosen : undefined;
}
