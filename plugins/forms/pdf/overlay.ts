/**
 * Flattened official forms (no AcroForm fields): values are written onto the
 * page at the boxes the state plugin measured from the form (`overlay`), in
 * Helvetica, each fitted to its box at the largest size up to 10 pt at which
 * it fits, on one line or (in a box tall enough) wrapped; else wrapped smaller,
 * down to 4.5 pt; else cut (reported as truncated). A check mark is a
 * bold X centred in its box.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { FormValues, OverlayBox, OverlayMapping, TemplateSpec } from '../../../states/types.js';
import { resolveFlag, resolveText } from '../resolve.js';
import { LOAD_OPTIONS } from './document.js';
import { wrap } from './draw.js';
import { ASCENT, DESCENT, sanitize, widthOf } from './fonts.js';
import type { FillReport } from './template.js';

const PAD = 1.5;
const MAX_SIZE = 10;
const MIN_ONE_LINE = 6;
const MIN_WRAPPED = 4.5;
const LEAD = 1.12;

/** The text an overlay text mapping writes ('' when its `if` flag is false), WinAnsi-safe. */
export function overlayText(values: FormValues, m: Extract<OverlayMapping, { text: string }>): string {
  if (m.if && !resolveFlag(values, m.if)) return '';
  const t = sanitize(resolveText(values, m.value, m.join))
    .replace(/\s+/g, ' ')
    .trim();
  return m.upper ? t.toUpperCase() : t;
}

/** How a value sits in a box: font size and lines (the lines that fit; `cut` when some did not). */
export function fitOverlay(value: string, box: OverlayBox): { size: number; lines: string[]; cut: boolean } {
  const w = box[2] - box[0] - 2 * PAD;
  const h = box[3] - box[1];
  const start = Math.min(MAX_SIZE, h / (ASCENT + DESCENT + 0.05));
  const fits = (lines: number, size: number) => (lines - 1) * size * LEAD + size * (ASCENT + DESCENT) <= h;
  // the largest size at which the value fits, on one line or (in a box tall enough) on several
  for (let size = start; size >= MIN_ONE_LINE; size -= 0.5) {
    if (widthOf(value, 'regular', size) <= w) return { size, lines: [value], cut: false };
    const lines = wrap(value, 'regular', size, w);
    if (fits(lines.length, size)) return { size, lines, cut: false };
  }
  for (let size = MIN_ONE_LINE - 0.5; size >= MIN_WRAPPED; size -= 0.5) {
    const lines = wrap(value, 'regular', size, w);
    if (fits(lines.length, size)) return { size, lines, cut: false };
  }
  const lines = wrap(value, 'regular', MIN_WRAPPED, w);
  const fit = Math.max(1, Math.floor((h - MIN_WRAPPED * (ASCENT + DESCENT)) / (MIN_WRAPPED * LEAD)) + 1);
  return { size: MIN_WRAPPED, lines: lines.slice(0, fit), cut: lines.length > fit };
}

function pageOf(doc: PDFDocument, index: number, name: string): PDFPage {
  const pages = doc.getPages();
  const page = pages[index];
  if (!page) throw new Error(`overlay '${name}': the template has no page ${index + 1}`);
  if (page.getRotation().angle % 360 !== 0)
    throw new Error(`overlay '${name}': page ${index + 1} is rotated; boxes are measured on upright pages`);
  return page;
}

/** Writes one value into its box: bottom-aligned on one line (values sit on the form's rules), top-down when wrapped. */
function drawInBox(page: PDFPage, font: PDFFont, box: OverlayBox, fit: { size: number; lines: string[] }): void {
  const crop = page.getCropBox();
  const top = crop.y + crop.height;
  const { size, lines } = fit;
  const x = crop.x + box[0] + PAD;
  if (lines.length === 1) {
    const baseline = box[3] - size * DESCENT - 0.5;
    page.drawText(lines[0]!, { x, y: top - baseline, size, font });
    return;
  }
  let baseline = box[1] + size * ASCENT + 0.3;
  for (const l of lines) {
    page.drawText(l, { x, y: top - baseline, size, font });
    baseline += size * LEAD;
  }
}

const combSize = (box: OverlayBox, cells: number) =>
  Math.min(MAX_SIZE + 2, (box[3] - box[1]) * 0.6, ((box[2] - box[0]) / cells) * 0.9);

/** One character centred in each cell of a comb, on a common baseline. */
function drawComb(page: PDFPage, font: PDFFont, box: OverlayBox, cells: number, chars: readonly string[]): void {
  const crop = page.getCropBox();
  const size = combSize(box, cells);
  const cell = (box[2] - box[0]) / cells;
  const baseline = (box[1] + box[3]) / 2 + (size * ASCENT) / 2;
  chars.forEach((ch, i) => {
    const w = font.widthOfTextAtSize(ch, size);
    page.drawText(ch, {
      x: crop.x + box[0] + cell * i + (cell - w) / 2,
      y: crop.y + crop.height - baseline,
      size,
      font,
    });
  });
}

/** Fills a flattened template from its overlay map: returns the document (not saved) and what was written where. */
export async function fillOverlay(
  template: Uint8Array | PDFDocument,
  spec: TemplateSpec,
  values: FormValues,
): Promise<{ doc: PDFDocument; report: FillReport }> {
  if (!spec.overlay?.length) throw new Error(`template ${spec.file} has no overlay map`);
  // a parsed copy from the template cache is written on as it is; bytes are parsed here
  const doc = template instanceof PDFDocument ? template : await PDFDocument.load(template, LOAD_OPTIONS);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const report: FillReport = { text: [], checked: [], chosen: [], truncated: [] };
  for (const m of spec.overlay) {
    if ('mark' in m) {
      const page = pageOf(doc, m.page ?? 0, m.mark);
      if (!resolveFlag(values, m.when)) continue;
      const [l, t, r, b] = m.box;
      const size = Math.min(r - l, b - t) * 1.05;
      const crop = page.getCropBox();
      const w = bold.widthOfTextAtSize('X', size);
      const baseline = (t + b) / 2 + (size * ASCENT) / 2;
      page.drawText('X', { x: crop.x + (l + r) / 2 - w / 2, y: crop.y + crop.height - baseline, size, font: bold });
      report.checked.push(m.mark);
      continue;
    }
    const page = pageOf(doc, m.page ?? 0, m.text);
    const value = overlayText(values, m);
    if (!value) continue;
    if (m.comb) {
      const chars = [...value.replace(/\s+/g, '')].slice(0, m.comb);
      drawComb(page, font, m.box, m.comb, chars);
      report.text.push({ field: m.text, value: chars.join(''), size: combSize(m.box, m.comb), lines: 1 });
      if (value.replace(/\s+/g, '').length > m.comb) report.truncated.push(m.text);
      continue;
    }
    const fit = fitOverlay(value, m.box);
    drawInBox(page, font, m.box, fit);
    report.text.push({ field: m.text, value: fit.lines.join(' '), size: fit.size, lines: fit.lines.length });
    if (fit.cut) report.truncated.push(m.text);
  }
  return { doc, report };
}
