/**
 * Scanned PDFs without rendering: most scanners and scan-to-PDF tools
 * (img2pdf, pdf-lib, office copiers) write each page as one image placed
 * over the whole page and nothing else. For such a page the image itself
 * is what the page shows, so it is decoded directly (a JPEG by sharp, a
 * Flate image by zlib, or by sharp as a PNG when it carries PNG
 * predictors) instead of letting pdftoppm render it: about a fifth of the
 * CPU time, and the scanner's own pixels rather than a resampled copy.
 *
 * Only the plain case is taken: the page's content is exactly
 * `q a 0 0 d e f cm /Im Do Q` (the matrix may come as several `cm`; no
 * rotation or mirroring in the placement),
 * the image covers the page's crop box, its pixels are square, 8 bits
 * gray or RGB (or CMYK in a JPEG), with no mask or decode array. Anything
 * else, and any error, answers null and the caller rasterizes the page
 * with poppler as before. The page's /Rotate is applied.
 *
 * pdf-lib (already used by the forms stage) parses the file; it is
 * imported when a document first needs it, so text-layer PDFs never load it.
 */
import { inflateSync, crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import type { PDFDocument, PDFRawStream } from 'pdf-lib';
import type { Gray } from './types.js';

interface PdfImagePage {
  gray: Gray;
  dpi: number;
}

type PdfLib = typeof import('pdf-lib');
let lib: Promise<PdfLib> | undefined;
const pdfLib = () => (lib ??= import('pdf-lib'));

/** Opens a PDF for image extraction; null when pdf-lib cannot (encrypted, damaged): the caller rasterizes. */
export async function openPdf(bytes: Buffer): Promise<PDFDocument | null> {
  const { PDFDocument, ParseSpeeds } = await pdfLib();
  try {
    return await PDFDocument.load(bytes, {
      updateMetadata: false,
      parseSpeed: ParseSpeeds.Fastest,
      throwOnInvalidObject: true,
    });
  } catch {
    return null;
  }
}

type Matrix = [number, number, number, number, number, number];

/** m1 then m2 (PDF's `cm`: the new matrix is m2 x m1 in row-vector form). */
const multiply = (m2: Matrix, m1: Matrix): Matrix => [
  m2[0] * m1[0] + m2[1] * m1[2],
  m2[0] * m1[1] + m2[1] * m1[3],
  m2[2] * m1[0] + m2[3] * m1[2],
  m2[2] * m1[1] + m2[3] * m1[3],
  m2[4] * m1[0] + m2[5] * m1[2] + m1[4],
  m2[4] * m1[1] + m2[5] * m1[3] + m1[5],
];

/**
 * A content stream that only places one image: `q`, `Q`, `cm` and a single
 * `Do`, nothing else (tools write the placement as one or several `cm`).
 * Returns the image's name and the matrix it is drawn with, or null.
 */
export function singlePlacement(content: string): { name: string; matrix: Matrix } | null {
  const tokens = content.trim().split(/\s+/);
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let operands: string[] = [];
  let found: { name: string; matrix: Matrix } | null = null;
  for (const tok of tokens) {
    if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(tok) || /^\/[^\s/\[\]()<>{}%]+$/.test(tok)) {
      operands.push(tok);
      continue;
    }
    if (tok === 'q' && !operands.length) stack.push(ctm);
    else if (tok === 'Q' && !operands.length) ctm = stack.pop() ?? ctm;
    else if (tok === 'cm' && operands.length === 6 && operands.every((x) => x[0] !== '/'))
      ctm = multiply(operands.map(Number) as Matrix, ctm);
    else if (tok === 'Do' && operands.length === 1 && operands[0]![0] === '/' && !found)
      found = { name: operands[0]!.slice(1), matrix: ctm };
    else return null;
    operands = [];
  }
  return operands.length ? null : found;
}

/** One PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** A Flate stream with PNG predictors is a PNG's IDAT: wrap it so sharp decodes (and un-filters) it. */
function asPng(idat: Uint8Array, width: number, height: number, channels: 1 | 3): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 1 ? 0 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from(idat.buffer, idat.byteOffset, idat.byteLength)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Lib = PdfLib;

/** The single filter of a stream (`/FlateDecode`, `/DCTDecode`), undefined for none or a chain. */
function soleFilter(t: Lib, img: PDFRawStream): string | undefined {
  const f = img.dict.lookup(t.PDFName.of('Filter'));
  if (f instanceof t.PDFArray) return f.size() === 1 ? f.lookupMaybe(0, t.PDFName)?.asString() : undefined;
  return f instanceof t.PDFName ? f.asString() : undefined;
}

/** Components of an image's colour space: 1 (gray), 3 (RGB), 4 (CMYK), or 0 when it is anything else (indexed, Lab, separation). */
function colorChannels(t: Lib, doc: PDFDocument, img: PDFRawStream): number {
  const cs = img.dict.lookup(t.PDFName.of('ColorSpace'));
  const resolved = cs instanceof t.PDFRef ? doc.context.lookup(cs) : cs;
  if (resolved instanceof t.PDFName)
    return (
      ({ '/DeviceGray': 1, '/CalGray': 1, '/DeviceRGB': 3, '/CalRGB': 3, '/DeviceCMYK': 4 } as Record<string, number>)[
        resolved.asString()
      ] ?? 0
    );
  if (resolved instanceof t.PDFArray) {
    const kind = resolved.lookupMaybe(0, t.PDFName)?.asString();
    if (kind === '/CalGray') return 1;
    if (kind === '/CalRGB') return 3;
    if (kind === '/ICCBased')
      return resolved.lookupMaybe(1, t.PDFRawStream)?.dict.lookupMaybe(t.PDFName.of('N'), t.PDFNumber)?.asNumber() ?? 0;
  }
  return 0;
}

/**
 * A decoder for one image XObject: a JPEG (gray, RGB or CMYK), or Flate
 * 8-bit gray or RGB with or without PNG predictors; null for anything else
 * (JBIG2, CCITT, JPEG 2000, indexed colour, 16 bits, filter chains).
 */
function imageDecoder(t: Lib, doc: PDFDocument, img: PDFRawStream, maxPixels: number): Sharp | null {
  const num = (k: string, from = img.dict) => from.lookupMaybe(t.PDFName.of(k), t.PDFNumber)?.asNumber();
  const width = num('Width');
  const height = num('Height');
  if (!width || !height || width * height > maxPixels) return null;
  const filter = soleFilter(t, img);
  if (filter === '/DCTDecode')
    return sharp(Buffer.from(img.contents), { limitInputPixels: maxPixels, failOn: 'error' });
  const channels = colorChannels(t, doc, img);
  if (filter !== '/FlateDecode' || num('BitsPerComponent') !== 8 || (channels !== 1 && channels !== 3)) return null;
  const parms = img.dict.lookup(t.PDFName.of('DecodeParms'));
  const p =
    parms instanceof t.PDFArray ? parms.lookupMaybe(0, t.PDFDict) : parms instanceof t.PDFDict ? parms : undefined;
  const predictor = p ? (num('Predictor', p) ?? 1) : 1;
  if (predictor >= 10) {
    if (
      (num('Colors', p) ?? 1) !== channels ||
      (num('BitsPerComponent', p) ?? 8) !== 8 ||
      (num('Columns', p) ?? 1) !== width
    )
      return null;
    return sharp(asPng(img.contents, width, height, channels), { limitInputPixels: maxPixels, failOn: 'error' });
  }
  if (predictor !== 1) return null;
  const size = width * height * channels;
  const pixels = inflateSync(img.contents, { maxOutputLength: size + 1 });
  return pixels.length === size ? sharp(pixels, { raw: { width, height, channels } }) : null;
}

async function toGray(s: Sharp): Promise<Gray | null> {
  const { data, info } = await s
    .flatten({ background: '#ffffff' })
    .grayscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return info.channels === 1 ? { data, width: info.width, height: info.height } : null;
}

/**
 * The scanned image of page `index` (0-based) as grayscale with its
 * resolution, or null when the page is not one plain full-page image.
 */
export async function pageScanImage(doc: PDFDocument, index: number, maxPixels: number): Promise<PdfImagePage | null> {
  const t = await pdfLib();
  try {
    if (index >= doc.getPageCount()) return null;
    const page = doc.getPage(index);
    const rotate = ((page.getRotation().angle % 360) + 360) % 360;
    if (rotate % 90) return null;
    const crop = page.getCropBox();

    // the content: exactly one image placement over the crop box
    const contents = page.node.Contents();
    const streams = contents instanceof t.PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    let text = '';
    for (const s of streams) {
      if (!(s instanceof t.PDFRawStream)) return null;
      text += `${Buffer.from(t.decodePDFRawStream(s).decode()).toString('latin1')}\n`;
      if (text.length > 400) return null;
    }
    const placed = singlePlacement(text);
    if (!placed) return null;
    const [a, b, c, d, e, f] = placed.matrix;
    if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return null;
    const tol = (n: number) => Math.max(2, n * 0.02);
    if (
      Math.abs(e - crop.x) > tol(crop.width) ||
      Math.abs(f - crop.y) > tol(crop.height) ||
      Math.abs(a - crop.width) > tol(crop.width) ||
      Math.abs(d - crop.height) > tol(crop.height)
    )
      return null;

    // the image: no mask, no decode array, square pixels
    const img = page.node
      .Resources()
      ?.lookupMaybe(t.PDFName.of('XObject'), t.PDFDict)
      ?.lookup(t.PDFName.of(placed.name));
    if (
      !(img instanceof t.PDFRawStream) ||
      img.dict.lookupMaybe(t.PDFName.of('Subtype'), t.PDFName)?.asString() !== '/Image'
    )
      return null;
    if (
      ['SMask', 'Mask', 'Decode'].some((k) => img.dict.has(t.PDFName.of(k))) ||
      img.dict.lookupMaybe(t.PDFName.of('ImageMask'), t.PDFBool)?.asBoolean()
    )
      return null;
    const width = img.dict.lookupMaybe(t.PDFName.of('Width'), t.PDFNumber)?.asNumber() ?? 0;
    const height = img.dict.lookupMaybe(t.PDFName.of('Height'), t.PDFNumber)?.asNumber() ?? 0;
    const dpiX = width / (a / 72);
    const dpiY = height / (d / 72);
    if (!(dpiX > 0) || Math.abs(dpiX - dpiY) > dpiX * 0.02) return null;

    const decoder = imageDecoder(t, doc, img, maxPixels);
    if (!decoder) return null;
    const gray = await toGray(rotate ? decoder.rotate(rotate) : decoder);
    return gray ? { gray, dpi: dpiX } : null;
  } catch {
    return null;
  }
}

/** Every image drawn on a page (any placement), decoded to grayscale, at most `limit`: for a barcode search on a text-layer page. */
export async function pageImages(doc: PDFDocument, index: number, maxPixels: number, limit = 4): Promise<Gray[]> {
  const t = await pdfLib();
  const out: Gray[] = [];
  try {
    const xobjects = doc.getPage(index).node.Resources()?.lookupMaybe(t.PDFName.of('XObject'), t.PDFDict);
    for (const [, ref] of xobjects?.entries() ?? []) {
      if (out.length >= limit) break;
      const s = doc.context.lookup(ref);
      if (
        !(s instanceof t.PDFRawStream) ||
        s.dict.lookupMaybe(t.PDFName.of('Subtype'), t.PDFName)?.asString() !== '/Image'
      )
        continue;
      const decoder = imageDecoder(t, doc, s, maxPixels);
      const g = decoder ? await toGray(decoder).catch(() => null) : null;
      if (g) out.push(g);
    }
  } catch {
    // an image that cannot be found or decoded: the caller rasterizes the page
  }
  return out;
}
