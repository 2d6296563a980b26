/**
 * Draws a 4x6 inch shipping label (288 x 432 pt) with pdf-lib: the sender
 * (the borrower), the receiving facility, the service, a Code 128 barcode of
 * the tracking number (bwip-js) and the reference. The sandbox carrier uses it;
 * the bench compares it with pdf-lib + bwip-js called directly.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { CarrierAddress } from './carrier.js';

export interface LabelInput {
  from: CarrierAddress;
  to: CarrierAddress;
  carrier: string;
  service: string;
  tracking_number: string;
  reference: string;
  /** A banner across the top (the sandbox says it is not a real label). */
  banner?: string;
}

/**
 * The Code 128 barcode PNG of a tracking number, with a quiet zone so scanners read it. bwip-js is loaded on the
 * first label, not by every daemon (about 2.5 MB).
 */
export async function code128Png(text: string): Promise<Buffer> {
  const { default: bwipjs } = await import('bwip-js');
  return bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: 3,
    height: 14,
    includetext: true,
    paddingwidth: 12,
    paddingheight: 6,
    backgroundcolor: 'FFFFFF',
  });
}

function addressLines(a: CarrierAddress): string[] {
  return [a.name, a.company, a.street1, a.street2, `${a.city}, ${a.state} ${a.zip}`].filter((l): l is string => !!l);
}

function block(page: PDFPage, font: PDFFont, lines: string[], x: number, y: number, size: number): number {
  let at = y;
  for (const l of lines) {
    page.drawText(l.slice(0, 48), { x, y: at, size, font });
    at -= size + 2;
  }
  return at;
}

export async function drawLabel(input: LabelInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Return label ${input.tracking_number}`);
  doc.setCreator('titled title-collection');
  const page = doc.addPage([288, 432]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let y = 414;
  if (input.banner) {
    page.drawRectangle({ x: 0, y: 402, width: 288, height: 30, color: rgb(0, 0, 0) });
    page.drawText(input.banner.slice(0, 44), { x: 10, y: 412, size: 10, font: bold, color: rgb(1, 1, 1) });
    y = 388;
  }
  page.drawText(`${input.carrier.toUpperCase()}  ${input.service.toUpperCase()}`, { x: 10, y, size: 12, font: bold });
  page.drawLine({ start: { x: 0, y: y - 8 }, end: { x: 288, y: y - 8 }, thickness: 1.5 });
  page.drawText('FROM:', { x: 10, y: y - 22, size: 7, font: bold });
  const afterFrom = block(page, font, addressLines(input.from), 10, y - 32, 8);
  page.drawText('SHIP TO:', { x: 10, y: afterFrom - 10, size: 8, font: bold });
  const afterTo = block(page, bold, addressLines(input.to), 24, afterFrom - 24, 12);
  page.drawLine({ start: { x: 0, y: afterTo - 4 }, end: { x: 288, y: afterTo - 4 }, thickness: 1.5 });
  const png = await doc.embedPng(await code128Png(input.tracking_number));
  const w = 268;
  const h = Math.min(110, (png.height / png.width) * w);
  page.drawText('TRACKING #', { x: 10, y: afterTo - 18, size: 8, font: bold });
  page.drawImage(png, { x: 10, y: afterTo - 24 - h, width: w, height: h });
  page.drawText(`REF ${input.reference}`, { x: 10, y: 14, size: 7, font });
  return Buffer.from(await doc.save());
}
