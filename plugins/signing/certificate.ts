/**
 * The certificate of completion: one PDF with the request, each document's
 * SHA-256 before and after signing, each signer's details and evidence, and
 * the audit timeline (sealed afterwards like the documents).
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { AuditEvent, DocumentRow, RequestRow, SignerRow } from './store.js';

const safe = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
const iso = (t: number | null) => (t ? new Date(t).toISOString() : '-');

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([612, 792]);
    this.y = 750;
  }

  line(text: string, o: { size?: number; bold?: boolean; indent?: number } = {}): void {
    const size = o.size ?? 8.5;
    const font = o.bold ? this.bold : this.font;
    const width = 532 - (o.indent ?? 0);
    const words = safe(text).split(' ');
    let cur = '';
    const flush = () => {
      if (this.y < 50) this.newPage();
      this.page.drawText(cur, { x: 40 + (o.indent ?? 0), y: this.y, size, font });
      this.y -= size * 1.35;
      cur = '';
    };
    for (const w of words) {
      const next = cur ? `${cur} ${w}` : w;
      if (font.widthOfTextAtSize(next, size) > width && cur) {
        flush();
        cur = w;
      } else {
        cur = next;
      }
    }
    if (cur) flush();
  }

  gap(h = 6): void {
    this.y -= h;
  }
}

export async function certificateOfCompletion(
  r: RequestRow,
  docs: DocumentRow[],
  signers: SignerRow[],
  events: AuditEvent[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of completion ${r.id}`);
  doc.setProducer('titled');
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  w.line('Certificate of Completion', { size: 16, bold: true });
  w.gap();
  w.line(`Signature request: ${r.id}`, { bold: true });
  w.line(`Entry: ${r.entryId}   Type: ${r.type}   Status: COMPLETED`);
  w.line(`Created: ${iso(r.createdAt)}   Sent: ${iso(r.sentAt)}   Completed: ${iso(r.completedAt)}`);
  w.gap(10);
  w.line('Documents', { size: 11, bold: true });
  for (const d of docs) {
    w.line(`${d.filename} (${d.name})`, { bold: true, indent: 8 });
    w.line(`SHA-256 before signing: ${d.sha256Before}`, { indent: 16 });
    w.line(`SHA-256 after signing (the sealed signed copy): ${d.sha256After ?? '-'}`, { indent: 16 });
  }
  w.gap(10);
  w.line('Signers', { size: 11, bold: true });
  for (const s of signers) {
    const p = s.person as Record<string, string | undefined>;
    const match = (s.dlid as { match?: { ok?: boolean; reasons?: string[] } } | null)?.match;
    w.line(`${s.name} (signer id ${s.signerId})`, { bold: true, indent: 8 });
    w.line(`Contact: ${[p.contact_email, p.contact_phone].filter(Boolean).join(', ') || '-'}`, { indent: 16 });
    w.line(`Consent to electronic signature (E-SIGN/UETA): ${iso(s.consentAt)}`, { indent: 16 });
    w.line(`Viewed: ${iso(s.viewedAt)}   Signed: ${iso(s.signedAt)}   Signature: ${s.signature?.kind ?? '-'}`, {
      indent: 16,
    });
    w.line(`IP address: ${s.ip ?? '-'}   User agent: ${s.userAgent ?? '-'}`, { indent: 16 });
    const mismatch = `MISMATCH (${(match?.reasons ?? []).join('; ')})`;
    w.line(`Driver license check: ${match ? (match.ok ? 'matched the owner' : mismatch) : 'no license provided'}`, {
      indent: 16,
    });
  }
  w.gap(10);
  w.line('Event timeline (hash-chained audit log)', { size: 11, bold: true });
  for (const e of events) {
    const detail = Object.entries(e.data)
      .filter(([, v]) => typeof v !== 'object')
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    w.line(`#${e.seq} ${iso(e.at)} ${e.type} by ${e.actor}${detail ? ` (${detail})` : ''}`, { indent: 8 });
    w.line(`hash ${e.hash}`, { indent: 20, size: 6.5 });
  }
  return doc.save({ useObjectStreams: false });
}
