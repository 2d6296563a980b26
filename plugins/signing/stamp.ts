/**
 * Placing signatures: each signer's typed or drawn signature goes into the
 * boxes the forms plugin recorded for him (the space above his signature
 * line), with the date and "signed electronically" under it. A document with
 * no recorded line for a signer (an official template) gets a signature page
 * appended, naming the document and the signer.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Box, SignerRow } from './store.js';

const WIN_ANSI = /[^\x20-\x7e\xa0-\xff]/g;
const safe = (s: string) => s.replace(WIN_ANSI, '?');

function fitSize(font: PDFFont, text: string, width: number, max: number): number {
  let size = max;
  while (size > 6 && font.widthOfTextAtSize(text, size) > width) size -= 0.5;
  return size;
}

async function drawSignature(
  doc: PDFDocument,
  page: PDFPage,
  box: Omit<Box, 'signer_id' | 'page'>,
  s: SignerRow,
  script: PDFFont,
  small: PDFFont,
) {
  const sig = s.signature!;
  // the note takes the box's top 5 points; the signature the rest (the box is the blank above the line)
  const room = Math.max(6, box.height - 6);
  if (sig.kind === 'drawn' && sig.png) {
    const img = await doc.embedPng(Buffer.from(sig.png, 'base64'));
    const scale = Math.min(box.width / img.width, (room - 1) / img.height);
    page.drawImage(img, { x: box.x, y: box.y + 1, width: img.width * scale, height: img.height * scale });
  } else {
    const text = safe(sig.text || s.name);
    page.drawText(text, {
      x: box.x,
      y: box.y + 3,
      size: fitSize(script, text, box.width, Math.min(16, room - 1)),
      font: script,
      color: rgb(0.05, 0.1, 0.45),
    });
  }
  const when = new Date(s.signedAt ?? Date.now()).toISOString().slice(0, 10);
  const note = safe(`Signed electronically by ${s.name} on ${when} (titled e-signature)`);
  page.drawText(note, {
    x: box.x,
    y: box.y + box.height - 4.5,
    size: fitSize(small, note, box.width, 4.5),
    font: small,
    color: rgb(0.3, 0.3, 0.3),
  });
}

/** The PDF with every signer's signature placed; `appended` lists signers who had no line and got the appended page. */
export async function placeSignatures(
  pdf: Uint8Array,
  boxes: Box[],
  signers: SignerRow[],
  title: string,
): Promise<{ pdf: Uint8Array; appended: string[] }> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const appended = await placeInto(doc, boxes, signers, title);
  return { pdf: await doc.save({ useObjectStreams: false }), appended };
}

/** Places every signer's signature into a loaded document (one load and save for placement and seal). */
export async function placeInto(
  doc: PDFDocument,
  boxes: Box[],
  signers: SignerRow[],
  title: string,
): Promise<string[]> {
  const script = await doc.embedFont(StandardFonts.TimesRomanBoldItalic);
  const small = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  const appended: string[] = [];
  for (const s of signers) {
    if (!s.signature) continue;
    const mine = boxes.filter((b) => b.signer_id === s.signerId && pages[b.page]);
    for (const b of mine) {
      await drawSignature(doc, pages[b.page]!, b, s, script, small);
      if (b.date) {
        const d = new Date(s.signedAt ?? Date.now());
        const text = `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
        pages[b.page]!.drawText(text, { x: b.date.x, y: b.y + 3, size: 10, font: small });
      }
    }
    if (!mine.length) appended.push(s.signerId);
  }
  if (appended.length) {
    const page = doc.addPage([612, 792]);
    page.drawText(safe(`Signature page: ${title}`), {
      x: 40,
      y: 740,
      size: 14,
      font: await doc.embedFont(StandardFonts.HelveticaBold),
    });
    page.drawText('The persons below signed the document above electronically (E-SIGN Act, 15 U.S.C. 7001; UETA).', {
      x: 40,
      y: 720,
      size: 9,
      font: small,
    });
    let y = 680;
    for (const id of appended) {
      const s = signers.find((x) => x.signerId === id)!;
      page.drawLine({ start: { x: 52, y }, end: { x: 400, y }, thickness: 0.7 });
      page.drawText('X', { x: 40, y: y + 3, size: 11, font: small });
      await drawSignature(doc, page, { x: 54, y: y + 1, width: 340, height: 22 }, s, script, small);
      page.drawText(safe(`Signature of ${s.name}`), { x: 54, y: y - 10, size: 7, font: small });
      y -= 70;
    }
  }
  return appended;
}
