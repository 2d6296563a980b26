/**
 * The shared state plugin tester: every `test/states/<code>/forms.test.ts` is
 * one call, `testStatePlugin(plugin)`. Like ESLint's RuleTester it checks the
 * definition itself (unknown forms, mappings to values that do not exist,
 * missing sources), then renders every form the state declares for the
 * fixture entries (states/fixtures.ts) and checks the output:
 *
 * - every declared form is rendered by some fixture;
 * - `qpdf --check` passes on every PDF (forms, per-signer variants, packets);
 * - when an official template is present in the template folders: every
 *   mapped field is a real AcroForm field of the right type with a widget on
 *   a page, every mapped text field holds the expected value when read back
 *   with pdf-lib, every mapped checkbox is set exactly when its flag is, and
 *   no value is wider (or taller) than its widget;
 * - drawn forms show their title and the VIN (pdftotext);
 * - the packet's page count is the sum of its forms' and each index range
 *   holds exactly that form's pages (pdftotext page by page).
 *
 * The check functions are exported for tests of the tester itself.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { promisify } from 'node:util';
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFRadioGroup, PDFRef, PDFTextField } from 'pdf-lib';
import { expect } from 'chai';
import { FORM_CATALOG } from '../../plugins/forms/layouts/index.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { parseIndices } from '../../plugins/forms/packet.js';
import { LOAD_OPTIONS, save } from '../../plugins/forms/pdf/document.js';
import { widthOf } from '../../plugins/forms/pdf/fonts.js';
import { attachPrefix } from '../../plugins/forms/pdf/append.js';
import { choiceOptions, choiceSelected } from '../../plugins/forms/pdf/choice.js';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { renderPlan, type RenderedFile, type RenderResult } from '../../plugins/forms/render.js';
import { fitOverlay, overlayText } from '../../plugins/forms/pdf/overlay.js';
import { mappedText, pathExists, resolveFlag } from '../../plugins/forms/resolve.js';
import { planForms, type FormPlan } from '../../plugins/forms/select.js';
import { valuesForSigner } from '../../plugins/forms/values.js';
import { FIXTURES, fixtureEntry, type FixtureName, type FixtureOptions } from './fixtures.js';
import {
  FORM_KINDS,
  TRANSACTIONS,
  type FieldMapping,
  type FormKind,
  type FormValues,
  type OverlayBox,
  type StatePlugin,
  type TemplateSpec,
} from '../../states/types.js';

const run = promisify(execFile);

// ---------------------------------------------------------------------------
// Checks (pure; each returns the problems it found)
// ---------------------------------------------------------------------------

/** Problems with a plugin's definition: names, forms, mappings, rules, sources. */
export function checkDefinition(plugin: StatePlugin, sample: FormValues): string[] {
  const out: string[] = [];
  if (!/^[A-Z]{2}$/.test(plugin.code)) out.push(`code '${plugin.code}' is not two upper-case letters`);
  if (!plugin.name.trim()) out.push('name is empty');
  if (!plugin.agency.trim()) out.push('agency is empty');
  const kinds = new Set<string>(FORM_KINDS);
  const declared = new Set<string>();
  for (const [txn, forms] of Object.entries(plugin.forms)) {
    if (txn !== 'always' && !(TRANSACTIONS as readonly string[]).includes(txn))
      out.push(`forms: unknown transaction '${txn}'`);
    for (const f of forms ?? []) {
      if (!kinds.has(f)) out.push(`forms.${txn}: unknown form '${f}'`);
      declared.add(f);
    }
  }
  if (plugin.rules.untitledTypes.length) declared.add('form_ucc1');
  for (const [kind, spec] of Object.entries(plugin.templates) as [FormKind, TemplateSpec][]) {
    if (!kinds.has(kind)) out.push(`templates: unknown form '${kind}'`);
    else if (!declared.has(kind)) out.push(`templates.${kind}: the state never declares this form`);
    if (!/^[a-z0-9][a-z0-9._/-]*\.pdf$/i.test(spec.file) || spec.file.includes('..'))
      out.push(`templates.${kind}.file '${spec.file}' is not a relative .pdf path`);
    if (!spec.name.trim()) out.push(`templates.${kind}.name is empty`);
    if (!spec.fields.length && !spec.overlay?.length) out.push(`templates.${kind} maps no fields`);
    if (spec.overlay?.length) out.push(...checkOverlayDefinition(`templates.${kind}`, spec, sample));
    if (spec.when && !pathExists(sample, spec.when)) out.push(`templates.${kind}: '${spec.when}' is not a value path`);
    for (const att of spec.attach ?? []) {
      if (!/^[a-z0-9][a-z0-9._/-]*\.pdf$/i.test(att.file) || att.file.includes('..'))
        out.push(`templates.${kind}.attach '${att.file}' is not a relative .pdf path`);
      if (att.when && !pathExists(sample, att.when))
        out.push(`templates.${kind}.attach ${att.file}: '${att.when}' is not a value path`);
      for (const m of att.fields)
        for (const p of mappingPaths(m))
          if (!pathExists(sample, p)) out.push(`templates.${kind}.attach ${att.file}: '${p}' is not a value path`);
    }
    const seen = new Set<string>();
    for (const m of spec.fields) {
      for (const n of mappingNames(m)) {
        if (seen.has(n)) out.push(`templates.${kind}: field '${n}' is mapped twice`);
        seen.add(n);
      }
      for (const p of mappingPaths(m))
        if (!pathExists(sample, p)) out.push(`templates.${kind}: '${p}' is not a value path`);
    }
  }
  for (const [kind, spec] of Object.entries(plugin.drawn)) {
    if (!kinds.has(kind)) out.push(`drawn: unknown form '${kind}'`);
    for (const f of spec?.extraFields ?? [])
      if (!pathExists(sample, f.value)) out.push(`drawn.${kind}: '${f.value}' is not a value path`);
  }
  if (!plugin.rules.sources.length)
    out.push('rules.sources is empty: say where the rules come from (or that they are unsourced)');
  return out;
}

/** The AcroForm field names a mapping writes. */
export function mappingNames(m: FieldMapping): string[] {
  return 'check' in m
    ? [m.check]
    : 'chars' in m
      ? [...m.chars]
      : 'radio' in m
        ? [m.radio]
        : 'select' in m
          ? [m.select]
          : [m.field];
}

/** The value paths a mapping reads. */
function mappingPaths(m: FieldMapping): string[] {
  const list = (x: string | readonly string[]) => (typeof x === 'string' ? [x] : [...x]);
  if ('check' in m) return list(m.when);
  if ('radio' in m) return m.choose.flatMap((c) => list(c.when));
  if ('select' in m) return [m.value];
  return [...list(m.value), ...(m.if ? [m.if] : [])];
}

/** Widget references on pages, for "does this field show anywhere". */
function widgetRefsOnPages(doc: PDFDocument): Set<string> {
  const out = new Set<string>();
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const r = annots!.get(i);
      if (r instanceof PDFRef) out.add(r.toString());
    }
  }
  return out;
}

/** Problems with a template's mappings: each must name a real field of its type with a widget on a page. */
export async function checkTemplateFields(spec: TemplateSpec, bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, LOAD_OPTIONS);
  const fields = new Map(
    doc
      .getForm()
      .getFields()
      .map((f) => [f.getName(), f]),
  );
  const shown = widgetRefsOnPages(doc);
  const out: string[] = [];
  const check = (name: string, kind: 'text' | 'checkbox' | 'radio' | 'dropdown', options: string[] = []) => {
    const f = fields.get(name);
    if (!f) return void out.push(`'${name}' is not a field of ${spec.file}`);
    if (kind === 'text' && !(f instanceof PDFTextField))
      out.push(`'${name}' is a ${f.constructor.name}, not a text field`);
    if (kind === 'checkbox' && !(f instanceof PDFCheckBox))
      out.push(`'${name}' is a ${f.constructor.name}, not a checkbox`);
    if (kind === 'radio') {
      const have = choiceOptions(f);
      if (!have) out.push(`'${name}' is a ${f.constructor.name}, not a radio group`);
      else
        for (const o of options)
          if (!have.includes(o))
            out.push(`'${name}' has no option ${JSON.stringify(o)} (it has ${JSON.stringify(have)})`);
    }
    if (kind === 'dropdown' && !(f instanceof PDFDropdown))
      out.push(`'${name}' is a ${f.constructor.name}, not a dropdown`);
    const visible = f.acroField.getWidgets().some((w) => shown.has(doc.context.getObjectRef(w.dict)?.toString() ?? ''));
    if (!visible) out.push(`'${name}' has no widget on any page of ${spec.file} (a hidden duplicate field?)`);
  };
  for (const m of spec.fields) {
    if ('check' in m) check(m.check, 'checkbox');
    else if ('radio' in m)
      check(
        m.radio,
        'radio',
        m.choose.map((c) => c.option),
      );
    else if ('select' in m) check(m.select, 'dropdown');
    else if ('chars' in m) m.chars.forEach((n) => check(n, 'text'));
    else check(m.field, 'text');
  }
  return out;
}

/** Problems reading a filled template back: values, checkboxes, and fit (font size x width vs the widget). */
export async function checkTemplateFill(
  spec: TemplateSpec,
  pdf: Uint8Array,
  values: FormValues,
  prefix = '',
): Promise<string[]> {
  const doc = await PDFDocument.load(pdf, LOAD_OPTIONS);
  // an attached form's fields sit under its prefix (`MVR-181.Year`): read them by their names in the attached form
  const fields = new Map(
    doc
      .getForm()
      .getFields()
      .filter((f) => !prefix || f.getName().startsWith(`${prefix}.`))
      .map((f) => [prefix ? f.getName().slice(prefix.length + 1) : f.getName(), f]),
  );
  const out: string[] = [];
  const textOf = (name: string) => {
    const f = fields.get(name);
    return f instanceof PDFTextField ? f : null;
  };
  const expectText = (name: string, want: string) => {
    const f = textOf(name);
    if (!f) return void out.push(`'${name}' is missing from the filled form`);
    const max = f.getMaxLength();
    const expected = max !== undefined ? want.slice(0, max) : want;
    const got = f.getText() ?? '';
    if (got !== expected) out.push(`'${name}' holds ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    if (got) out.push(...fitProblems(f, got));
  };
  for (const m of spec.fields) {
    if ('radio' in m) {
      const f = fields.get(m.radio);
      const want = m.choose.find((c) => resolveFlag(values, c.when))?.option;
      if (!f || !choiceOptions(f)) out.push(`'${m.radio}' is missing from the filled form`);
      else if (choiceSelected(f) !== want)
        out.push(`radio '${m.radio}' is ${JSON.stringify(choiceSelected(f))}, expected ${JSON.stringify(want)}`);
    } else if ('select' in m) {
      const f = fields.get(m.select);
      const text = mappedText(values, { field: m.select, value: m.value }).toUpperCase();
      if (!(f instanceof PDFDropdown)) out.push(`'${m.select}' is missing from the filled form`);
      else {
        const want = f
          .getOptions()
          .filter((o) => o.toUpperCase() === text)
          .slice(0, 1);
        if (JSON.stringify(f.getSelected()) !== JSON.stringify(want))
          out.push(`dropdown '${m.select}' is ${JSON.stringify(f.getSelected())}, expected ${JSON.stringify(want)}`);
      }
    } else if ('check' in m) {
      const f = fields.get(m.check);
      const want = resolveFlag(values, m.when);
      if (!(f instanceof PDFCheckBox)) out.push(`'${m.check}' is missing from the filled form`);
      else if (f.isChecked() !== want)
        out.push(
          `checkbox '${m.check}' is ${f.isChecked() ? 'checked' : 'unchecked'}, expected ${want ? 'checked' : 'unchecked'}`,
        );
    } else if ('chars' in m) {
      const chars = [...mappedText(values, m)];
      m.chars.forEach((n, i) => expectText(n, (chars[i] ?? '').trim()));
    } else {
      expectText(m.field, mappedText(values, m));
    }
  }
  return out;
}

/** Whether a filled text field's value fits its smallest widget at the field's font size (wrapped when multiline). */
function fitProblems(f: PDFTextField, value: string): string[] {
  const m = /(\d+(?:\.\d+)?)\s+Tf/.exec(f.acroField.getDefaultAppearance() ?? '');
  const size = m ? Number(m[1]) : 0;
  if (!size) return [`'${f.getName()}' has no explicit font size (auto size cannot be checked)`];
  const rects = f.acroField.getWidgets().map((w) => w.getRectangle());
  const width = Math.min(...rects.map((r) => r.width));
  const height = Math.min(...rects.map((r) => r.height));
  if (!f.isMultiline()) {
    const w = widthOf(value, 'regular', size);
    return w <= width - 2 + 0.01
      ? []
      : [
          `'${f.getName()}': ${JSON.stringify(value)} is ${w.toFixed(1)} pt wide at ${size} pt, the field ${width.toFixed(1)} pt`,
        ];
  }
  const words = value.split(/\s+/);
  let lines = 1;
  let line = '';
  for (const word of words) {
    const cand = line ? `${line} ${word}` : word;
    if (widthOf(cand, 'regular', size) > width - 4 && line) {
      lines++;
      line = word;
    } else line = cand;
  }
  return lines * size * 1.2 <= height + 1.5
    ? []
    : [`'${f.getName()}': ${lines} lines at ${size} pt do not fit ${height.toFixed(1)} pt`];
}

/** Problems with an overlay map's definition: names, boxes, value paths, the printed form number. */
export function checkOverlayDefinition(where: string, spec: TemplateSpec, sample: FormValues): string[] {
  const out: string[] = [];
  if (!spec.printed?.trim())
    out.push(`${where}: an overlay template needs printed (the form number printed on the form)`);
  if (spec.fields.length) out.push(`${where}: a template has either AcroForm fields or an overlay, not both`);
  const seen = new Set<string>();
  for (const m of spec.overlay ?? []) {
    const name = 'mark' in m ? m.mark : m.text;
    if (seen.has(name)) out.push(`${where}: overlay '${name}' is mapped twice`);
    seen.add(name);
    const [l, t, r, b] = m.box;
    if (!(l >= 0 && t >= 0 && r > l && b > t))
      out.push(`${where}: overlay '${name}' box [${m.box.join(', ')}] is not [left, top, right, bottom]`);
    const paths: string[] =
      'mark' in m
        ? typeof m.when === 'string'
          ? [m.when]
          : [...m.when]
        : typeof m.value === 'string'
          ? [m.value]
          : [...m.value];
    if (!('mark' in m) && m.if) paths.push(m.if);
    for (const p of paths) if (!pathExists(sample, p)) out.push(`${where}: '${p}' is not a value path`);
  }
  return out;
}

/** A word of a PDF's text with its box (points from the page's top-left corner). */
export interface WordBox {
  page: number;
  text: string;
  box: OverlayBox;
}

/** Every word of a PDF with its box (`pdftotext -bbox`), and each page's size. */
export async function wordBoxes(
  file: string,
): Promise<{ words: WordBox[]; pages: { width: number; height: number }[] }> {
  const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  const words: WordBox[] = [];
  const pages: { width: number; height: number }[] = [];
  const unescape = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  for (const m of stdout.matchAll(
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
  )) {
    if (m[1]) pages.push({ width: Number(m[1]), height: Number(m[2]) });
    else
      words.push({
        page: pages.length - 1,
        text: unescape(m[7]!),
        box: [Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])],
      });
  }
  return { words, pages };
}

const centreIn = (w: WordBox, page: number, b: OverlayBox) => {
  const x = (w.box[0] + w.box[2]) / 2;
  const y = (w.box[1] + w.box[3]) / 2;
  return w.page === page && x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];
};

/** The words whose centre lies in a box, in reading order (lines top-down, words left to right). */
export function wordsIn(words: readonly WordBox[], page: number, box: OverlayBox): string[] {
  const inside = words.filter((w) => centreIn(w, page, box));
  inside.sort((a, b) => (Math.abs(a.box[1] - b.box[1]) > 2 ? a.box[1] - b.box[1] : a.box[0] - b.box[0]));
  return inside.map((w) => w.text);
}

/** Problems with an overlay map against the blank form: each box on its page and on blank space (no printed word inside). */
export async function checkOverlayLayout(spec: TemplateSpec, templateFile: string): Promise<string[]> {
  const { words, pages } = await wordBoxes(templateFile);
  const out: string[] = [];
  for (const m of spec.overlay ?? []) {
    const name = 'mark' in m ? m.mark : m.text;
    const page = m.page ?? 0;
    const size = pages[page];
    if (!size) {
      out.push(`overlay '${name}': ${spec.file} has no page ${page + 1}`);
      continue;
    }
    if (m.box[2] > size.width || m.box[3] > size.height)
      out.push(`overlay '${name}': box [${m.box.join(', ')}] leaves the page (${size.width} x ${size.height})`);
    // a scanned form's text layer may read a checkbox itself as a glyph or two: allowed under a mark
    const printed = wordsIn(words, page, m.box).filter((w) => !('mark' in m && w.length <= 2));
    if (printed.length)
      out.push(
        `overlay '${name}': box [${m.box.join(', ')}] covers printed text of the form: ${JSON.stringify(printed.join(' '))}`,
      );
  }
  if (
    spec.printed &&
    !words
      .map((w) => w.text)
      .join(' ')
      .includes(spec.printed)
  )
    out.push(`${spec.file} does not print its form number '${spec.printed}'`);
  return out;
}

/**
 * Problems reading a filled flattened form back (pdftotext -bbox of the output):
 * each mapped value is the text inside its box (what fits when it had to be cut),
 * a box with no value holds nothing, each mark is an X exactly when its flag is
 * set, and the form's printed number is in the text.
 */
export async function checkOverlayFill(
  spec: TemplateSpec,
  filledFile: string,
  values: FormValues,
  templateFile?: string,
): Promise<string[]> {
  const { words } = await wordBoxes(filledFile);
  const blank = templateFile ? (await wordBoxes(templateFile)).words : [];
  const out: string[] = [];
  const squash = (t: string) => t.replace(/\s+/g, '');
  for (const m of spec.overlay ?? []) {
    const page = m.page ?? 0;
    // what the blank form already prints in the box (a scanned checkbox read as a glyph) is not ours
    const got = wordsIn(words, page, m.box);
    for (const w of wordsIn(blank, page, m.box)) {
      const i = got.indexOf(w);
      if (i >= 0) got.splice(i, 1);
    }
    if ('mark' in m) {
      const want = resolveFlag(values, m.when);
      if (want && got.join(' ') !== 'X')
        out.push(`mark '${m.mark}' holds ${JSON.stringify(got.join(' '))}, expected X`);
      if (!want && got.length) out.push(`mark '${m.mark}' holds ${JSON.stringify(got.join(' '))}, expected nothing`);
      continue;
    }
    const value = overlayText(values, m);
    const want = !value
      ? ''
      : m.comb
        ? value.replace(/\s+/g, '').slice(0, m.comb)
        : fitOverlay(value, m.box).lines.join(' ');
    if (squash(got.join(' ')) !== squash(want))
      out.push(`'${m.text}' reads ${JSON.stringify(got.join(' '))}, expected ${JSON.stringify(want)}`);
  }
  const all = words.map((w) => w.text).join(' ');
  if (spec.printed && !all.includes(spec.printed))
    out.push(`the filled form does not show its number '${spec.printed}'`);
  return out;
}

/** Runs `qpdf --check` on a file; resolves to '' when it passes, else qpdf's complaint. */
export async function qpdfCheck(file: string): Promise<string> {
  try {
    await run('qpdf', ['--check', file]);
    return '';
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string; message: string };
    // exit code 3: warnings only (qpdf recovered); still a problem for us
    return `${file}: qpdf --check failed (${err.code}): ${(err.stderr || err.stdout || err.message).slice(0, 500)}`;
  }
}

/** The text of each page (pdftotext separates pages with form feeds). Throws when poppler reports a syntax error. */
export async function pageTexts(file: string): Promise<string[]> {
  const { stdout, stderr } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  // "Syntax Warning"s come from some official templates' colour profiles; an error is ours
  // (the NY MV-82's own radio option names are longer than PDF 1.7's 127 bytes: poppler warns, reads on;
  // the AK V1's fonts name CJK collections, which poppler reports as an error where poppler-data is not installed)
  const errors = stderr
    .split('\n')
    .filter(
      (l) => /Syntax Error|Internal Error/.test(l) && !/name token is longer than|Missing language pack for/.test(l),
    );
  if (errors.length) throw new Error(`${file}: pdftotext reports ${errors.slice(0, 3).join('; ')}`);
  const pages = stdout.split('\f');
  if (pages.length && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages;
}

/** Runs `fn` over items with at most `n` at a time. */
async function pool<T, R>(items: readonly T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** Skips a test that needs a template the folders lack, saying so in the test's title. */
export function skipWithout(ctx: Mocha.Context, file: string, dirs?: readonly string[]): never {
  if (ctx.test)
    ctx.test.title += ` (skipped: official template ${file} is not in the template folders${dirs ? ` ${JSON.stringify(dirs)}` : ''}; see docs/forms.md)`;
  return ctx.skip();
}

/** The text and dropdown values of a filled PDF, by field name (chars fields are joined by the caller). */
export async function fieldValues(pdf: Uint8Array): Promise<Map<string, string>> {
  const doc = await PDFDocument.load(pdf, LOAD_OPTIONS);
  const out = new Map<string, string>();
  for (const f of doc.getForm().getFields()) {
    if (f instanceof PDFTextField) out.set(f.getName(), f.getText() ?? '');
    else if (f instanceof PDFDropdown) out.set(f.getName(), f.getSelected().join(' '));
  }
  return out;
}

/**
 * Problems with a filled official form as a clerk reads it: the form number
 * printed on it is in its text (pdftotext), and its fields hold the VIN and
 * the applicant's (or, on a per-signer form, the signer's) name, whole or last name first.
 */
export async function checkOfficialForm(
  spec: TemplateSpec,
  file: string,
  pdf: Uint8Array,
  values: FormValues,
  perSigner: boolean,
): Promise<string[]> {
  const out: string[] = [];
  const text = (await pageTexts(file)).join(' ').replace(/\s+/g, ' ');
  for (const t of [spec, ...(spec.attach ?? []).filter((a) => !a.when || resolveFlag(values, a.when))]) {
    if (t.printed && !text.includes(t.printed))
      out.push(`${t.file}: the form number '${t.printed}' is not in the PDF's text`);
  }
  // a flattened form's values are text placed on the page (the overlay checks read each box); a fillable form's are its fields
  const byName = spec.overlay?.length ? new Map<string, string>() : await fieldValues(pdf);
  // a row of one-character boxes reads as one value
  const combs = spec.fields.flatMap((m) => ('chars' in m ? [m.chars.map((n) => byName.get(n) ?? '').join('')] : []));
  const fields = spec.overlay?.length ? [text, text.replace(/\s+/g, '')] : [...byName.values(), ...combs];
  if (!fields.some((v) => v.includes(values.vehicle.vin)))
    out.push(`${spec.file}: no field holds the VIN ${values.vehicle.vin}`);
  const person = perSigner ? values.signer : values.owner1;
  const names = [person.name, person.name_lfm, `${person.last}, ${person.first}`]
    .filter((n) => n.trim() && n !== ', ')
    .map((n) => n.toUpperCase());
  // a flattened form may print the name in parts (first, middle and last boxes): then each part must be on the page
  const parts = [person.first, person.last].map((x) => x.trim().toUpperCase()).filter(Boolean);
  const holds = (v: string, n: string) =>
    v.toUpperCase().includes(n) ||
    (!!spec.overlay?.length &&
      (v.toUpperCase().includes(n.replace(/\s+/g, '')) ||
        (parts.length === 2 && parts.every((x) => v.toUpperCase().includes(x)))));
  if (person.present && !fields.some((v) => names.some((n) => holds(v, n))))
    out.push(`${spec.file}: no field holds the name ${person.name}`);
  return out;
}

/** Writes the first page of a PDF as a 100 dpi PNG (pdftoppm), for people to review. */
export async function writeReviewImage(pdfFile: string, pngBase: string): Promise<void> {
  mkdirSync(dirname(pngBase), { recursive: true });
  await run('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', pdfFile, pngBase]);
}

/** Where review images go (git-ignored). */
export const REVIEW_DIR = join(packageRoot, 'test-artifacts', 'forms');

// ---------------------------------------------------------------------------
// The mocha suite
// ---------------------------------------------------------------------------

export interface StateTestOptions {
  /** Template folders (default: as the forms plugin resolves them: `../shared/forms` when present). */
  templateDirs?: string[];
  /** Fixtures to render (default: all of states/fixtures.ts). */
  fixtures?: readonly FixtureName[];
  /** Further fixtures with options, rendered and checked like the others (a title the state itself issued, say). */
  variants?: readonly { name: string; fixture: FixtureName; options: FixtureOptions }[];
}

interface Rendered {
  fixture: string;
  plan: FormPlan;
  result: RenderResult;
  dir: string;
  packetText?: string[];
}

/** The values a rendered file was filled from (per-signer forms: the signer's). */
function valuesOf(r: Rendered, f: RenderedFile): FormValues {
  if (!f.signer) return r.plan.values!;
  const signers = FORM_CATALOG[f.kind].signers!(r.plan.signers);
  return valuesForSigner(r.plan.values!, signers[f.signer.index]!);
}

const fileName = (f: RenderedFile) => `${f.kind}${f.signer ? `-${f.signer.index}` : ''}-${f.variant}.pdf`;

export function testStatePlugin(plugin: StatePlugin, o: StateTestOptions = {}): void {
  const states = new Map([[plugin.code, plugin]]);
  const store = new TemplateStore(o.templateDirs ?? parseFormsOptions({}).templateDirs);
  const fixtures = o.fixtures ?? FIXTURES;

  describe(`state plugin ${plugin.code} (${plugin.name})`, function () {
    this.timeout(120_000);
    const rendered: Rendered[] = [];
    let root = '';

    before(async () => {
      root = mkdtempSync(join(tmpdir(), `titled-state-${plugin.code.toLowerCase()}-`));
      const all = [...fixtures.map((f) => ({ name: f, fixture: f, options: {} })), ...(o.variants ?? [])];
      for (const { name: fixture, fixture: base, options } of all) {
        const plan = planForms(fixtureEntry(plugin.code, base, options), states);
        const result = await renderPlan(plan, store);
        const dir = join(root, fixture);
        rendered.push({ fixture, plan, result, dir });
        mkdirSync(dir, { recursive: true });
        for (const f of result.files) writeFileSync(join(dir, fileName(f)), f.pdf);
        if (result.packet) writeFileSync(join(dir, 'packet.pdf'), result.packet.pdf);
      }
    });
    after(() => {
      if (root && !process.env.TITLED_KEEP_FORMS) rmSync(root, { recursive: true, force: true });
    });

    it('has a well-formed definition', () => {
      const sample = planForms(fixtureEntry(plugin.code, 'full'), states).values!;
      expect(checkDefinition(plugin, sample)).to.deep.equal([]);
    });

    for (const [kind, main] of Object.entries(plugin.templates) as [FormKind, TemplateSpec][]) {
      if (main.overlay) {
        it(`places its overlay on blank space of ${main.file} (${kind}), which prints ${main.printed}`, async function () {
          const found = store.locate(main.file);
          if (!found) return skipWithout(this, main.file); // not in the configured folders: drawn instead, nothing to check
          expect(await checkOverlayLayout(main, found)).to.deep.equal([]);
        });
        continue;
      }
      for (const spec of [main, ...(main.attach ?? [])]) {
        it(`maps real AcroForm fields of ${spec.file} (${kind}${spec === main ? '' : `, attached to ${main.file}`})`, async function () {
          const found = await store.load(spec.file);
          if (!found) return skipWithout(this, spec.file); // not in the configured folders: drawn instead, nothing to check
          expect(await checkTemplateFields(spec, found.bytes)).to.deep.equal([]);
        });
      }
    }

    it('renders every form it declares, without errors', () => {
      const made = new Set(rendered.flatMap((r) => r.result.files.map((f) => f.kind)));
      const declared = new Set(Object.values(plugin.forms).flat());
      if (plugin.rules.untitledTypes.length) declared.add('form_ucc1');
      expect(
        [...declared].filter((k) => !made.has(k as FormKind)),
        'declared forms no fixture rendered',
      ).to.deep.equal([]);
      for (const r of rendered) {
        expect(r.plan.skipped, `${r.fixture}: ${r.plan.reason}`).to.equal(undefined);
        expect(r.result.errors, r.fixture).to.deep.equal([]);
        expect(
          r.result.files.filter((f) => f.templateError).map((f) => `${f.kind}: ${f.templateError}`),
          r.fixture,
        ).to.deep.equal([]);
      }
    });

    it('passes qpdf --check on every PDF', async () => {
      const files = rendered.flatMap((r) => [
        ...r.result.files.map((f) => join(r.dir, fileName(f))),
        ...(r.result.packet ? [join(r.dir, 'packet.pdf')] : []),
      ]);
      const problems = (await pool(files, 8, qpdfCheck)).filter(Boolean);
      expect(problems).to.deep.equal([]);
    });

    it('fills its official templates: every mapped field holds its value, fits, and checkboxes match', async () => {
      let checked = 0;
      for (const r of rendered) {
        for (const f of r.result.files.filter((x) => x.source === 'template')) {
          const spec = plugin.templates[f.kind]!;
          const problems = spec.overlay
            ? await checkOverlayFill(spec, join(r.dir, fileName(f)), valuesOf(r, f), f.template?.path)
            : await checkTemplateFill(spec, f.pdf, valuesOf(r, f));
          expect(problems, `${r.fixture} ${fileName(f)}`).to.deep.equal([]);
          for (const att of spec.attach ?? []) {
            if (!store.locate(att.file) || (att.when && !resolveFlag(valuesOf(r, f), att.when))) continue;
            expect(
              await checkTemplateFill(att, f.pdf, valuesOf(r, f), attachPrefix(att.file)),
              `${r.fixture} ${fileName(f)} + ${att.file}`,
            ).to.deep.equal([]);
          }
          checked++;
        }
      }
      const present = Object.values(plugin.templates).some((t) => store.locate(t!.file));
      if (present) expect(checked, 'template-filled files').to.be.greaterThan(0);
    });

    it('files its official forms: the printed form number in the text, the VIN and the applicant in the fields', async function () {
      const official = rendered.flatMap((r) =>
        r.result.files.filter((f) => f.source === 'template' && f.variant === 'state').map((f) => ({ r, f })),
      );
      const specs = Object.values(plugin.templates) as TemplateSpec[];
      if (!specs.length) return this.skip();
      const present = specs.filter((t) => store.locate(t.file));
      if (!present.length) return skipWithout(this, specs.map((t) => t.file).join(', '), store.dirs);
      const made = new Set(official.map((x) => x.f.template!.file));
      expect(
        present.map((t) => t.file).filter((f) => !made.has(f)),
        'official templates present but never filled',
      ).to.deep.equal([]);
      for (const { r, f } of official) {
        expect(
          await checkOfficialForm(
            plugin.templates[f.kind]!,
            join(r.dir, fileName(f)),
            f.pdf,
            valuesOf(r, f),
            !!f.signer,
          ),
          `${r.fixture} ${fileName(f)}`,
        ).to.deep.equal([]);
      }
    });

    it('writes a review image of each form it generates (first page, 100 dpi, test-artifacts/forms)', async () => {
      const seen = new Set<string>();
      const todo: { pdf: string; png: string }[] = [];
      for (const r of rendered) {
        for (const f of r.result.files.filter((x) => x.variant === 'state')) {
          const key = `${f.kind}-${f.source}`;
          if (seen.has(key)) continue;
          seen.add(key);
          todo.push({
            pdf: join(r.dir, fileName(f)),
            png: join(REVIEW_DIR, plugin.code.toLowerCase(), `${f.kind}-${f.source}-${r.fixture}`),
          });
        }
      }
      await pool(todo, 2, (t) => writeReviewImage(t.pdf, t.png));
      for (const t of todo) expect(statSync(`${t.png}.png`).size, t.png).to.be.greaterThan(1000);
    });

    it('draws legible forms: each page shows its title, and the VIN is on the form (pdftotext)', async () => {
      for (const r of rendered) {
        const packetPages = await pageTexts(join(r.dir, 'packet.pdf'));
        r.packetText = packetPages;
        const ranges = parseIndices(r.result.packet!.indices);
        // drawn forms in the packet are read from the packet (the same content streams as their files)
        const inPacket = r.result.files.filter((f) => f.variant === 'state');
        const generic = r.result.files.filter((f) => f.variant === 'generic');
        const genericTexts = await pool(generic, 4, (f) => pageTexts(join(r.dir, fileName(f))));
        const check = (f: RenderedFile, pages: string[]) => {
          const where = `${r.fixture} ${fileName(f)}`;
          expect(pages.length, `${where} pages`).to.equal(f.pages);
          pages.forEach((p, i) => expect(p.replace(/\s+/g, ' '), `${where} page ${i + 1}`).to.include(f.title));
          if (f.kind !== 'form_instructions')
            expect(pages.join(' ').replace(/\s+/g, ' '), where).to.include(r.plan.values!.vehicle.vin);
        };
        inPacket.forEach((f, i) => {
          if (f.source === 'drawn') check(f, packetPages.slice(ranges[i]!.first - 1, ranges[i]!.last));
        });
        generic.forEach((f, i) => check(f, genericTexts[i]!));
      }
    });

    it('packs every form into the packet in order: page count and indices', async () => {
      for (const r of rendered) {
        const packet = r.result.packet!;
        const parts = r.result.files.filter((f) => f.variant === 'state');
        expect(packet.pages, `${r.fixture} packet pages`).to.equal(
          parts.reduce((n, f) => n + ('drawn' in f.packet ? f.packet.drawn.length : f.packet.pages.length), 0),
        );
        const ranges = parseIndices(packet.indices);
        expect(ranges.map((x) => x.key)).to.deep.equal(
          parts.map((f) => (f.signer ? `${f.kind}[${f.signer.index}]` : f.kind)),
        );
        expect(
          ranges.map((x) => x.last - x.first + 1),
          `${r.fixture} range lengths`,
        ).to.deep.equal(parts.map((f) => f.pages));
        const packetPages = r.packetText ?? (await pageTexts(join(r.dir, 'packet.pdf')));
        expect(packetPages.length, `${r.fixture} pdftotext pages`).to.equal(packet.pages);
        for (const [i, f] of parts.entries()) {
          const range = ranges[i]!;
          const got = packetPages.slice(range.first - 1, range.last);
          if ('drawn' in f.packet) {
            // each page of a drawn form carries its title and its own page footer
            got.forEach((p, k) =>
              expect(p.replace(/\s+/g, ' '), `${r.fixture}: packet page ${range.first + k} is ${range.key}`)
                .to.include(`${f.title}`)
                .and.include(`Page ${k + 1} of ${f.pages}`),
            );
          } else {
            // a template's pages: the packet holds exactly the flattened form's pages
            const ownFile = join(r.dir, `flat-${fileName(f)}`);
            writeFileSync(ownFile, await save(f.packet.doc));
            const own = await pageTexts(ownFile);
            expect(got, `${r.fixture}: pages ${range.first}-${range.last} hold ${range.key}`).to.deep.equal(
              f.packet.pages.map((p) => own[p]!),
            );
          }
        }
      }
    });
  });
}
