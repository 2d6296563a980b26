/**
 * A minimal PDF writer for drawn pages: a catalog, a page tree, the three
 * standard Helvetica fonts (WinAnsi), one Flate content stream per page, an
 * info dictionary and a classic cross-reference table (PDF 1.4). Drawn forms
 * and all-drawn packets are written this way; going through pdf-lib's object
 * model cost more than drawing the pages.
 */
import { deflateSync } from 'node:zlib';
import { PAGE } from './draw.js';
import { FONT_RESOURCES } from './fonts.js';

/** Compresses a page's content stream (once; the form's file and the packet share the bytes). */
export function compressPage(content: string): Buffer {
  return deflateSync(Buffer.from(content, 'latin1'), { level: 6 });
}

/** A PDF text string: UTF-16BE with its byte order mark, as hex. */
export function textString(s: string): string {
  const b = Buffer.from(s, 'utf16le');
  b.swap16();
  return `<FEFF${b.toString('hex').toUpperCase()}>`;
}

interface WriteMeta {
  title: string;
  subject?: string;
}

export function writePdf(pages: readonly Buffer[], meta: WriteMeta): Uint8Array {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    size += buf.length;
  };
  const obj = (n: number, body: string | Buffer[]) => {
    offsets[n] = size;
    push(`${n} 0 obj\n`);
    if (typeof body === 'string') push(body);
    else for (const b of body) push(b);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n');
  const fonts = Object.values(FONT_RESOURCES);
  const firstPage = 4 + fonts.length; // 1 catalog, 2 pages, 3 info, fonts, then page + content pairs
  const kids = pages.map((_, i) => `${firstPage + 2 * i} 0 R`).join(' ');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  obj(
    3,
    `<< /Title ${textString(meta.title)}${meta.subject ? ` /Subject ${textString(meta.subject)}` : ''} /Producer (titled) /Creator (titled forms) >>`,
  );
  fonts.forEach((f, i) =>
    obj(4 + i, `<< /Type /Font /Subtype /Type1 /BaseFont /${f.standard} /Encoding /WinAnsiEncoding >>`),
  );
  const fontDict = fonts.map((f, i) => `/${f.resource} ${4 + i} 0 R`).join(' ');
  pages.forEach((content, i) => {
    const n = firstPage + 2 * i;
    obj(
      n,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << ${fontDict} >> /ProcSet [/PDF /Text] >> /Contents ${n + 1} 0 R >>`,
    );
    obj(n + 1, [
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  });
  const count = firstPage + 2 * pages.length;
  const xref = size;
  let table = `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let n = 1; n < count; n++) table += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  push(table);
  push(`trailer\n<< /Size ${count} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks, size);
}
