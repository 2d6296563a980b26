/**
 * The MAIL filing packet: one PDF with a cover letter to the filing office
 * (the state's, or the county's where the state files by county), payment
 * instructions from `fee_estimate`, a checklist of enclosures, then the
 * forms: the signed copies from the signing plugin, or the generated forms
 * stamped "SIGNATURE REQUIRED" when nothing was signed.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { filingState, type TitleEntry, type TitleCollectionView, type SignedDocument } from '../../core/plugin-api.js';
import { loadStateFeeSchedule } from '../../states/fee-data.js';

export interface Office {
  payable_to: string;
  address: { street1: string; street2?: string; city: string; state: string; zip: string };
  /** Where the address comes from. */
  source: 'fee_estimate' | 'state_default';
}

/** A document to enclose: its bytes, and whether it still needs a signature. */
export interface Enclosure {
  name: string;
  bytes: Buffer;
  signed: boolean;
}

export interface PacketInput {
  entry: TitleEntry;
  office: Office;
  enclosures: Enclosure[];
  collection?: TitleCollectionView;
  submissionId: string;
  /** The outbound label bought for the packet (`mailCarrier`). */
  shipment?: { carrier: string; service: string; trackingNumber: string };
  now?: Date;
}

/** The filing office: the entry's fee estimate (by county where modelled), else the state plugin's default. */
export function filingOffice(entry: TitleEntry): Office | null {
  const si = (entry.fee_estimate as { submission_instructions?: Omit<Office, 'source'> } | undefined)
    ?.submission_instructions;
  if (si?.payable_to && si.address?.street1) return { ...si, source: 'fee_estimate' };
  const state = filingState(entry);
  if (!state) return null;
  try {
    const s = loadStateFeeSchedule(state).submission_instructions;
    const a = s.address;
    return {
      payable_to: s.payable_to,
      address: {
        street1: a.street1,
        ...(a.street2 ? { street2: a.street2 } : {}),
        city: a.city,
        state: a.state,
        zip: a.zip,
      },
      source: 'state_default',
    };
  } catch {
    return null;
  }
}

/** The entry's generated forms to file (object keys), in packet order; the client's cover sheet and packet left out. */
export function generatedForms(entry: TitleEntry): { name: string; key: string }[] {
  const out: { name: string; key: string }[] = [];
  for (const [k, v] of Object.entries(entry)) {
    if (k === 'form_final_packet' || k === 'form_instructions' || k === 'form_updates' || k === 'form_downloads')
      continue;
    if (/^form_/.test(k) && typeof v === 'string' && v.endsWith('.pdf')) out.push({ name: k, key: v });
    if (/^forms_/.test(k) && Array.isArray(v)) {
      v.forEach((x: { form?: unknown }, i) => {
        if (typeof x?.form === 'string') out.push({ name: `${k}[${i}]`, key: x.form });
      });
    }
  }
  return out;
}

/** Signed copies from the signing plugin as enclosures' names and keys. */
export function signedForms(docs: SignedDocument[]): { name: string; key: string }[] {
  return docs.map((d) => ({ name: d.name || d.filename, key: d.key }));
}

const money = (n: unknown) => (typeof n === 'number' ? `$${n.toFixed(2)}` : 'not estimated');
/** pdf-lib's standard fonts encode WinAnsi only. */
const ascii = (s: string) => s.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {}
  newPage(): void {
    this.page = this.doc.addPage([612, 792]);
    this.y = 740;
  }
  line(text: string, o: { bold?: boolean; size?: number; gap?: number } = {}): void {
    const size = o.size ?? 11;
    const font = o.bold ? this.bold : this.font;
    for (const part of wrap(ascii(text), font, size, 504)) {
      if (this.y < 60) this.newPage();
      this.page.drawText(part, { x: 54, y: this.y, size, font });
      this.y -= size + 4;
    }
    this.y -= o.gap ?? 0;
  }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const w of text.split(' ')) {
    const next = cur ? `${cur} ${w}` : w;
    if (font.widthOfTextAtSize(next, size) > width && cur) {
      out.push(cur);
      cur = w;
    } else cur = next;
  }
  out.push(cur);
  return out;
}

function feeLines(entry: TitleEntry): { lines: string[]; total: number | null } {
  const fe = entry.fee_estimate as
    Record<string, { total?: number; items?: { name?: string; value?: number | null }[] }> | undefined;
  if (!fe)
    return { lines: ['No fee estimate on the entry: confirm the amount with the office before mailing.'], total: null };
  const lines: string[] = [];
  let total = 0;
  for (const part of ['title', 'registration', 'tax'] as const) {
    const t = fe[part]?.total;
    if (typeof t === 'number') total += t;
    lines.push(`${part[0]!.toUpperCase()}${part.slice(1)}: ${money(t)}`);
    for (const i of fe[part]?.items ?? []) if (i.name) lines.push(`    ${i.name}: ${money(i.value)}`);
  }
  return { lines, total: Math.round(total * 100) / 100 };
}

function coverLetter(w: Writer, i: PacketInput): void {
  const { entry, office } = i;
  const a = office.address;
  w.newPage();
  w.line(`Title filing packet - submission ${i.submissionId}`, { bold: true, size: 14, gap: 8 });
  w.line((i.now ?? new Date()).toISOString().slice(0, 10), { gap: 8 });
  w.line('To:', { bold: true });
  for (const l of [office.payable_to, a.street1, a.street2, `${a.city}, ${a.state} ${a.zip}`]) if (l) w.line(l);
  w.line('', { gap: 4 });
  w.line(`From: ${entry.website}`, { gap: 8 });
  w.line(`Re: title application and lien filing, VIN ${entry.VIN}, ${entry.state}`, { bold: true, gap: 6 });
  if (entry.Borrower) w.line(`Owner / borrower: ${entry.Borrower}`);
  if (entry.lenderLoanId) w.line(`Lender loan id: ${entry.lenderLoanId}`, { gap: 6 });
  w.line(
    "Please find enclosed the documents listed below to record our lien on the vehicle's title, " +
      'with payment of the fees. Please return the title or lien confirmation to the lienholder of record.',
    { gap: 10 },
  );
  const fees = feeLines(entry);
  w.line('Payment', { bold: true });
  w.line(`Make the check payable to: ${office.payable_to}`);
  w.line(`Amount: ${fees.total === null ? 'not estimated' : money(fees.total)} (from the entry's fee estimate)`);
  for (const l of fees.lines) w.line(l, { size: 10 });
  w.line('', { gap: 6 });
  const sh = i.shipment;
  if (sh) {
    w.line('Shipping', { bold: true });
    w.line(`Sent by ${sh.carrier} (${sh.service}), tracking number ${sh.trackingNumber}.`, { gap: 6 });
  }
}

function checklist(w: Writer, i: PacketInput): void {
  w.line('Enclosures checklist', { bold: true });
  w.line(`[ ] Check payable to ${i.office.payable_to}`);
  for (const e of i.enclosures)
    w.line(`[ ] ${e.name}${e.signed ? ' (signed)' : ' - NOT SIGNED: SIGNATURE REQUIRED before mailing'}`);
  if (!i.enclosures.length) w.line("[ ] No generated forms on the entry: add the state's application before mailing");
  if (i.shipment)
    w.line(`[ ] Outbound label attached to the envelope: ${i.shipment.carrier}, tracking ${i.shipment.trackingNumber}`);
  const c = i.collection;
  const received = i.entry.physical_title_status === 'received';
  if (c || i.entry.physical_title_status) {
    const tracking = c?.tracking_number ? ` (tracking ${c.tracking_number})` : '';
    w.line(
      received
        ? '[ ] Original certificate of title (collected)'
        : `[ ] Original certificate of title - not yet received${tracking}: enclose when it arrives`,
    );
  }
  w.line('', { gap: 4 });
  w.line(
    `Address source: ${i.office.source === 'fee_estimate' ? "the entry's fee estimate" : "the state's default office"}`,
    { size: 9 },
  );
}

/** Builds the packet PDF. */
export async function buildPacket(i: PacketInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Title filing packet ${i.entry.VIN}`);
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  coverLetter(w, i);
  checklist(w, i);
  const flag = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const e of i.enclosures) {
    const src = await PDFDocument.load(e.bytes, { ignoreEncryption: true });
    const pages = await doc.copyPages(src, src.getPageIndices());
    for (const p of pages) {
      doc.addPage(p);
      if (!e.signed) {
        const y = p.getSize().height - 24;
        p.drawText('SIGNATURE REQUIRED - NOT SIGNED', { x: 36, y, size: 12, font: flag, color: rgb(0.8, 0, 0) });
      }
    }
  }
  return Buffer.from(await doc.save());
}
