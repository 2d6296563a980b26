/**
 * The drawn-form layout engine: a `DrawnForm` (title, sections of labelled
 * fields, statements, checkboxes, signature lines, notary blocks) flowed onto
 * US Letter pages. Values never overflow: a value that does not fit its box
 * shrinks (10 pt down to 7 pt), then wraps (words, then characters), and the
 * box grows; a block that does not fit the page moves to the next page.
 * Output is one content stream (text operators) per page.
 */
import { ASCENT, DESCENT, pdfString, sanitize, widthOf, type FontName } from './fonts.js';

export const PAGE: Readonly<{ width: number; height: number; margin: number; bottom: number }> = {
  width: 612,
  height: 792,
  margin: 40,
  bottom: 54,
};
const CONTENT_W = PAGE.width - 2 * PAGE.margin;
const VALUE_SIZES = [10, 9, 8, 7] as const;
const WRAP_SIZE = 8;
const LABEL_SIZE = 6.5;
const PAD = 3;

export interface Field {
  label: string;
  value: string;
  /** Columns of the 4-column grid (default 1). */ span?: number;
}
export type Block =
  | { kind: 'section'; heading: string }
  | { kind: 'fields'; fields: readonly Field[] }
  | { kind: 'text'; text: string; size?: number; font?: FontName }
  | { kind: 'checks'; items: readonly { label: string; checked: boolean }[] }
  | { kind: 'signatures'; signers: readonly { role: string; name: string }[] }
  | { kind: 'notary'; state: string };

export interface DrawnForm {
  title: string;
  /** Lines under the title (state, agency, the state's own form name). */
  subtitle?: readonly string[];
  /** Printed in every page's footer. */
  footer: string;
  blocks: readonly Block[];
}

/** A text drawn on a page, kept for checks (tests and the layout's own bound assertions). */
interface PlacedText {
  page: number;
  x: number;
  y: number;
  width: number;
  size: number;
  font: FontName;
  text: string;
  maxX: number;
}

/**
 * Where a signature goes: the space above a signature line, in PDF points
 * from the page's bottom-left corner (0-based page). `name` is the printed
 * name under the line, `role` what the signer signs as.
 */
export interface SignatureBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  role: string;
  name: string;
  /** The date line beside it (same baseline): where the signing date goes. */
  date?: { x: number; width: number };
}

interface DrawnPages {
  /** Content stream text per page. */
  pages: string[];
  placed: PlacedText[];
  /** Every signature line's box (not the notary's). */
  signatures: SignatureBox[];
}

const n = (v: number) => (Math.round(v * 100) / 100).toString();

/** Splits text into lines no wider than `width` at `size`: by words, and a word wider than a line by characters. */
export function wrap(text: string, font: FontName, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (widthOf(candidate, font, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    if (widthOf(word, font, size) <= width) {
      line = word;
      continue;
    }
    let part = '';
    for (const ch of word) {
      if (widthOf(part + ch, font, size) > width && part) {
        lines.push(part);
        part = '';
      }
      part += ch;
    }
    line = part;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** How a value sits in a box of inner width `w`: one line at the largest size that fits, else wrapped lines. */
function fitValue(
  value: string,
  w: number,
  font: FontName = 'regular',
  sizes: readonly number[] = VALUE_SIZES,
): { size: number; lines: string[] } {
  for (const size of sizes) if (widthOf(value, font, size) <= w) return { size, lines: [value] };
  const size = Math.min(WRAP_SIZE, sizes[sizes.length - 1]!);
  return { size, lines: wrap(value, font, size, w) };
}

class PageWriter {
  readonly pages: string[][] = [];
  readonly placed: PlacedText[] = [];
  readonly signatures: SignatureBox[] = [];
  y = 0;

  constructor(private readonly form: DrawnForm) {
    this.newPage();
  }

  get ops(): string[] {
    return this.pages[this.pages.length - 1]!;
  }

  newPage(): void {
    this.pages.push([]);
    this.y = PAGE.height - PAGE.margin;
    const first = this.pages.length === 1;
    this.text(
      PAGE.margin,
      this.y - 15,
      first ? this.form.title : `${this.form.title} (continued)`,
      'bold',
      first ? 15 : 11,
      PAGE.width - PAGE.margin,
      true,
    );
    this.y -= first ? 22 : 17;
    if (first) {
      for (const line of this.form.subtitle ?? []) {
        this.text(PAGE.margin, this.y - 9, line, 'regular', 9, PAGE.width - PAGE.margin, true);
        this.y -= 11.5;
      }
    }
    this.rule(this.y - 3, 1);
    this.y -= 10;
  }

  /** Makes room for `h` points, starting a new page when needed. */
  need(h: number): void {
    if (this.y - h < PAGE.bottom && this.y < PAGE.height - PAGE.margin - 60) this.newPage();
  }

  /** Draws text, shrinking a title line to fit and asserting nothing passes `maxX`. */
  text(x: number, y: number, raw: string, font: FontName, size: number, maxX: number, shrink = false, gray = 0): void {
    let t = sanitize(raw);
    if (!t) return;
    let w = widthOf(t, font, size);
    while (shrink && x + w > maxX && size > 6) {
      size -= 0.5;
      w = widthOf(t, font, size);
    }
    if (x + w > maxX + 0.01) {
      // a title too long even at 6 pt: wrap it is the caller's job; cut here rather than overflow
      while (t && x + widthOf(t + '...', font, size) > maxX) t = t.slice(0, -1);
      t += '...';
      w = widthOf(t, font, size);
    }
    const { resource } = FONT_REF[font];
    this.ops.push(
      `BT ${gray ? `${n(gray)} g ` : ''}/${resource} ${n(size)} Tf ${n(x)} ${n(y)} Td ${pdfString(t, font)} Tj ET${gray ? ' 0 g' : ''}`,
    );
    this.placed.push({ page: this.pages.length - 1, x, y, width: w, size, font, text: t, maxX });
  }

  rule(y: number, width = 0.5, x1 = PAGE.margin, x2 = PAGE.width - PAGE.margin, gray = 0): void {
    this.ops.push(`${n(gray)} G ${n(width)} w ${n(x1)} ${n(y)} m ${n(x2)} ${n(y)} l S 0 G`);
  }

  rect(x: number, y: number, w: number, h: number, gray = 0.55, fill?: number): void {
    if (fill !== undefined) this.ops.push(`${n(fill)} g ${n(x)} ${n(y)} ${n(w)} ${n(h)} re f 0 g`);
    this.ops.push(`${n(gray)} G 0.5 w ${n(x)} ${n(y)} ${n(w)} ${n(h)} re S 0 G`);
  }

  paragraph(text: string, size: number, font: FontName, x = PAGE.margin, width = CONTENT_W): void {
    const lead = size * 1.3;
    for (const line of wrap(sanitize(text), font, size, width)) {
      this.need(lead);
      this.text(x, this.y - size * ASCENT - 1, line, font, size, x + width);
      this.y -= lead;
    }
  }
}

const FONT_REF: Record<FontName, { resource: string }> = {
  regular: { resource: 'F1' },
  bold: { resource: 'F2' },
  italic: { resource: 'F3' },
};

function fieldsBlock(w: PageWriter, fields: readonly Field[]): void {
  const colW = CONTENT_W / 4;
  // pack into rows of 4 columns
  const rows: Field[][] = [];
  let row: Field[] = [];
  let used = 0;
  for (const f of fields) {
    const span = Math.min(4, Math.max(1, f.span ?? 1));
    if (used + span > 4) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push({ ...f, span });
    used += span;
  }
  if (row.length) rows.push(row);
  for (const r of rows) {
    // stretch the last field to the row's end so boxes line up
    const spans = r.map((f) => f.span!);
    spans[spans.length - 1]! += 4 - spans.reduce((a, b) => a + b, 0);
    const cells = r.map((f, i) => {
      const width = spans[i]! * colW;
      const inner = width - 2 * PAD;
      const labelLines = wrap(sanitize(f.label.toUpperCase()), 'bold', LABEL_SIZE, inner);
      const fit = fitValue(sanitize(f.value), inner);
      const h = PAD + labelLines.length * (LABEL_SIZE + 1) + 2 + Math.max(1, fit.lines.length) * fit.size * 1.18 + PAD;
      return { f, width, inner, labelLines, fit, h };
    });
    const h = Math.max(24, ...cells.map((c) => c.h));
    w.need(h);
    let x: number = PAGE.margin;
    for (const c of cells) {
      w.rect(x, w.y - h, c.width, h);
      let ty = w.y - PAD - LABEL_SIZE * ASCENT;
      for (const l of c.labelLines) {
        w.text(x + PAD, ty, l, 'bold', LABEL_SIZE, x + c.width - PAD, false, 0.35);
        ty -= LABEL_SIZE + 1;
      }
      ty -= 2 + c.fit.size * ASCENT - LABEL_SIZE * ASCENT + LABEL_SIZE * DESCENT;
      for (const l of c.fit.lines) {
        w.text(x + PAD, ty, l, 'regular', c.fit.size, x + c.width - PAD);
        ty -= c.fit.size * 1.18;
      }
      x += c.width;
    }
    w.y -= h;
  }
  w.y -= 6;
}

/** Checkboxes flowed left to right; an item whose label needs several lines gets rows of its own. A checked box shows an X. */
function checksBlock(w: PageWriter, items: readonly { label: string; checked: boolean }[]): void {
  const size = 9;
  const box = 8;
  const lineH = 13;
  const right = PAGE.width - PAGE.margin;
  const maxLabel = CONTENT_W - box - 4;
  let x: number = PAGE.margin;
  w.need(lineH);
  for (const it of items) {
    const lines = wrap(sanitize(it.label), 'regular', size, maxLabel);
    const itemW = box + 4 + widthOf(lines[0]!, 'regular', size) + 14;
    if (x > PAGE.margin && (lines.length > 1 || x + itemW > right)) {
      x = PAGE.margin;
      w.y -= lineH;
      w.need(lineH * lines.length);
    }
    w.rect(x, w.y - box - 2, box, box, 0.2);
    if (it.checked) w.text(x + 1.3, w.y - box - 0.6, 'X', 'bold', 8, x + box);
    lines.forEach((l, i) => {
      if (i > 0) w.y -= lineH;
      w.text(x + box + 4, w.y - size * ASCENT - 1.5, l, 'regular', size, right);
    });
    if (lines.length > 1) {
      x = right; // the next item starts a new row
    } else {
      x += itemW;
    }
  }
  w.y -= lineH + 4;
}

/** The height one signature line (with its printed name) needs. */
const SIGNATURE_H = 52;

function signaturesBlock(w: PageWriter, signers: readonly { role: string; name: string }[]): void {
  const sigW = CONTENT_W * 0.62;
  const dateX = PAGE.margin + sigW + 24;
  for (const s of signers) {
    w.need(SIGNATURE_H);
    const base = w.y - 26;
    w.text(PAGE.margin, base + 3, 'X', 'bold', 11, PAGE.margin + 12);
    w.rule(base, 0.7, PAGE.margin + 12, PAGE.margin + sigW);
    w.signatures.push({
      page: w.pages.length - 1,
      x: PAGE.margin + 14,
      y: base + 1,
      width: sigW - 16,
      height: 22,
      role: s.role,
      name: s.name,
      date: { x: dateX + 2, width: PAGE.width - PAGE.margin - dateX - 4 },
    });
    w.rule(base, 0.7, dateX, PAGE.width - PAGE.margin);
    w.text(PAGE.margin + 12, base - 9, `Signature of ${s.role}`, 'regular', 7, PAGE.margin + sigW, true, 0.3);
    w.text(dateX, base - 9, 'Date (MM/DD/YYYY)', 'regular', 7, PAGE.width - PAGE.margin, true, 0.3);
    const label = 'Printed name: ';
    const lw = widthOf(label, 'regular', 7);
    w.text(PAGE.margin + 12, base - 19, label, 'regular', 7, PAGE.margin + sigW, false, 0.3);
    const inner = sigW - 12 - lw;
    const fit = fitValue(sanitize(s.name), inner, 'bold', [9, 8, 7]);
    let y = base - 19;
    for (const l of fit.lines) {
      w.text(PAGE.margin + 12 + lw, y, l, 'bold', fit.size, PAGE.margin + sigW);
      y -= fit.size + 1.5;
    }
    w.y = Math.min(base - 26, y - 4);
  }
  w.y -= 4;
}

function notaryBlock(w: PageWriter, state: string): void {
  w.need(120);
  const top = w.y;
  w.y -= 4;
  w.text(PAGE.margin + 6, w.y - 9, 'NOTARY ACKNOWLEDGMENT', 'bold', 9, PAGE.width - PAGE.margin);
  w.y -= 14;
  w.paragraph(
    `State of ${state || '____________________'}        County of ______________________________`,
    9,
    'regular',
    PAGE.margin + 6,
    CONTENT_W - 12,
  );
  w.paragraph(
    'Subscribed and sworn to (or affirmed) before me on this date ____________________ by ______________________________________, proved to me on the basis of satisfactory evidence to be the person(s) who appeared before me.',
    9,
    'regular',
    PAGE.margin + 6,
    CONTENT_W - 12,
  );
  w.y -= 20;
  w.rule(w.y, 0.7, PAGE.margin + 6, PAGE.margin + 300);
  w.rule(w.y, 0.7, PAGE.margin + 330, PAGE.width - PAGE.margin - 6);
  w.text(PAGE.margin + 6, w.y - 9, 'Signature of Notary Public', 'regular', 7, PAGE.margin + 300, false, 0.3);
  w.text(PAGE.margin + 330, w.y - 9, 'My commission expires', 'regular', 7, PAGE.width - PAGE.margin, false, 0.3);
  w.text(PAGE.width - PAGE.margin - 40, w.y + 30, '(SEAL)', 'regular', 7, PAGE.width - PAGE.margin, false, 0.3);
  w.y -= 16;
  w.rect(PAGE.margin, w.y, CONTENT_W, top - w.y, 0.55);
  w.y -= 8;
}

/** Lays a drawn form out onto pages. */
export function layout(form: DrawnForm): DrawnPages {
  const w = new PageWriter(form);
  const blocks = form.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    // a certification stays on the page of the signature line under it: the statement, the heading and the first line move together
    const signs = (k: number) =>
      blocks[k]?.kind === 'signatures' || (blocks[k]?.kind === 'section' && blocks[k + 1]?.kind === 'signatures');
    if (b.kind === 'text' && signs(i + 1)) {
      const size = b.size ?? 9;
      const lines = wrap(sanitize(b.text), b.font ?? 'regular', size, CONTENT_W).length;
      w.need(lines * size * 1.3 + 4 + (blocks[i + 1]!.kind === 'section' ? 18 : 0) + SIGNATURE_H);
    }
    switch (b.kind) {
      case 'section': {
        w.need(18 + (blocks[i + 1]?.kind === 'signatures' ? SIGNATURE_H : 30)); // keep a heading with what follows
        w.rect(PAGE.margin, w.y - 14, CONTENT_W, 14, 0.6, 0.9);
        w.text(PAGE.margin + 4, w.y - 10.3, b.heading.toUpperCase(), 'bold', 8.5, PAGE.width - PAGE.margin - 4, true);
        w.y -= 18;
        break;
      }
      case 'fields':
        fieldsBlock(w, b.fields);
        break;
      case 'text':
        w.paragraph(b.text, b.size ?? 9, b.font ?? 'regular');
        w.y -= 4;
        break;
      case 'checks':
        checksBlock(w, b.items);
        break;
      case 'signatures':
        signaturesBlock(w, b.signers);
        break;
      case 'notary':
        notaryBlock(w, b.state);
        break;
    }
  }
  const total = w.pages.length;
  w.pages.forEach((ops, i) => {
    const footer = `${form.footer}  |  Page ${i + 1} of ${total}`;
    const size = 7;
    const fw = widthOf(sanitize(footer), 'regular', size);
    ops.push(`0.5 G 0.5 w ${PAGE.margin} 40 m ${PAGE.width - PAGE.margin} 40 l S 0 G`);
    const x = Math.max(PAGE.margin, PAGE.width - PAGE.margin - fw);
    ops.push(`BT 0.3 g /F1 ${size} Tf ${n(x)} 30 Td ${pdfString(sanitize(footer), 'regular')} Tj ET 0 g`);
    w.placed.push({
      page: i,
      x,
      y: 30,
      width: fw,
      size,
      font: 'regular',
      text: sanitize(footer),
      maxX: PAGE.width - PAGE.margin + 0.01,
    });
  });
  return { pages: w.pages.map((p) => p.join('\n')), placed: w.placed, signatures: w.signatures };
}
