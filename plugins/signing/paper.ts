/**
 * Paper: the WET_SIGN print-and-sign packet (instructions, return address,
 * then the documents), and the notarial certificate page a completed RON
 * session adds to each document.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { RonSession } from './ron.js';
import type { DocumentRow, SignerRow } from './store.js';

const safe = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function lines(page: PDFPage, font: PDFFont, bold: PDFFont, items: [string, boolean?, number?][], y0 = 740): void {
  let y = y0;
  for (const [text, isBold, size = 10] of items) {
    const f = isBold ? bold : font;
    let cur = '';
    for (const w of safe(text).split(' ')) {
      const next = cur ? `${cur} ${w}` : w;
      if (f.widthOfTextAtSize(next, size) > 530 && cur) {
        page.drawText(cur, { x: 40, y, size, font: f });
        y -= size * 1.4;
        cur = w;
      } else {
        cur = next;
      }
    }
    page.drawText(cur, { x: 40, y, size, font: f });
    y -= size * 1.4 + 2;
  }
}

export async function wetSignPacket(
  requestId: string,
  docs: { doc: DocumentRow; pdf: Uint8Array }[],
  signers: SignerRow[],
  returnAddress: string,
  instructions?: string,
): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  out.setTitle(`Print-and-sign packet ${requestId}`);
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  const cover = out.addPage([612, 792]);
  const items: [string, boolean?, number?][] = [
    ['Print, sign in ink and mail back', true, 16],
    [`Signature request ${requestId}`],
    ['1. Print every page of this packet on plain letter paper.'],
    [
      '2. Each person named below signs, in blue or black ink, every line marked X that carries his or her name, and dates it.',
    ],
    ['3. Do not use correction fluid or tape; an altered form may be refused by the titling agency.'],
    ['4. Mail the signed originals (not copies) to the return address below.'],
    ...(instructions ? [[instructions] as [string]] : []),
    ['Return address', true, 12],
    ...(returnAddress
      ? returnAddress.split(/\n|;/).map((l) => [l.trim()] as [string])
      : [['(the requester will tell you where to send the originals)'] as [string]]),
    ['Documents and signers', true, 12],
    ...docs.map(
      ({ doc }) =>
        [
          `${doc.filename}: signed by ${signers
            .filter((s) => doc.signerIds.includes(s.signerId))
            .map((s) => s.name)
            .join(', ')}`,
        ] as [string],
    ),
  ];
  lines(cover, font, bold, items);
  for (const { pdf } of docs) {
    const src = await PDFDocument.load(pdf, { updateMetadata: false });
    for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
  }
  return out.save({ useObjectStreams: false });
}

/** Adds the notarial certificate page to a loaded document. */
export async function notarialPageInto(
  doc: PDFDocument,
  s: RonSession,
  docName: string,
  signers: string[],
): Promise<void> {
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  lines(page, font, bold, [
    ['Notarial Certificate (remote online notarization)', true, 15],
    [`Document: ${docName}`],
    [`State of ${s.notary?.state ?? '-'}`],
    [
      `On ${s.completed_at ?? '-'}, ${signers.join(' and ')} appeared before me by audio-video communication, proved to me on the basis of ` +
        'satisfactory evidence to be the person(s) whose name(s) are signed on the document above, and acknowledged signing it.',
    ],
    [`Notary: ${s.notary?.name ?? '-'}   Commission: ${s.notary?.commission ?? '-'}`],
    [`Journal entry: ${s.journal_entry?.id ?? '-'}   Method: ${s.journal_entry?.method ?? '-'}`],
    [`Recording reference: ${s.recording_ref ?? '-'}   Session: ${s.session_id}`],
  ]);
}
