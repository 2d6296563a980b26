/**
 * The PDF report of a pull (`*_report_pdf`), drawn with pdf-lib from the
 * record that was found: vehicle, current title, brands, odometer history,
 * owners (names and city only), liens and previous titles. Used when the
 * provider sends no report of its own. Dates inside the PDF are the fetch
 * time, so the same pull renders the same bytes.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { type AccountData, personName } from '../../../core/plugin-api.js';
import { SOURCE_TITLES, type EnrichmentSource } from './provider.js';

export interface ReportInput {
  source: EnrichmentSource;
  providerKind: string;
  vin: string;
  txnId?: string;
  state?: string;
  fetchedAt: Date;
  record: AccountData;
}

type Row = [label: string, value: unknown];
type Section = { heading: string; rows: Row[] };

/** Standard PDF fonts encode WinAnsi only: anything else is replaced. */
const safe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?');
const fmt = (v: unknown): string =>
  v === undefined || v === null || v === '' ? '-' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);

/** The sections of a report, in order (also what the portal screenshot shows). */
export function reportSections(input: ReportInput): Section[] {
  const v = (input.record.vehicle ?? {}) as NonNullable<AccountData['vehicle']>;
  const t = (v.title ?? {}) as NonNullable<NonNullable<AccountData['vehicle']>['title']>;
  const sections: Section[] = [
    {
      heading: 'Request',
      rows: [
        ['VIN', input.vin],
        ['State', input.state],
        ['Transaction', input.txnId],
        ['Fetched at (UTC)', input.fetchedAt.toISOString()],
        ['Provider', input.providerKind],
      ],
    },
    {
      heading: 'Vehicle',
      rows: [
        ['Year / make / model', [v.year, v.make, v.model].filter(Boolean).join(' ')],
        ['Body', v.body],
        ['Color', v.color],
        ['Fuel', v.fuel_type],
        ['License plate', v.license_plate],
        [
          'Registration',
          [v.registration_status, v.registration_expiration_date && `expires ${v.registration_expiration_date}`]
            .filter(Boolean)
            .join(', '),
        ],
      ],
    },
    {
      heading: 'Current title',
      rows: [
        ['Title number', t.number],
        ['Issuing state', t.issuing_state],
        ['Issued', t.issuance_date],
        ['Status', t.status],
        ['Last action', [t.prev_action, t.prev_action_date].filter(Boolean).join(' ')],
        [
          'Brands',
          (t.brands ?? []).map((b) => `${b.brand} (${b.nmvtis_code})`).join(', ') || t.brand || 'none reported',
        ],
        [
          'Odometer',
          t.odometer_reading
            ? `${t.odometer_reading} ${t.odometer_reading_unit ?? 'MI'} ${t.odometer_code_translation ?? ''}`.trim()
            : undefined,
        ],
      ],
    },
  ];
  const owners = t.owners ?? [];
  if (owners.length || t.owner_names_one_line) {
    sections.push({
      heading: 'Owners',
      rows: [
        ...owners.map((o, i): Row => [
          `Owner ${i + 1}`,
          [personName(o), o.addr?.city && `${o.addr.city}, ${o.addr.state ?? ''}`].filter(Boolean).join(' - '),
        ]),
        ...(owners.length > 1 ? [['Joined by', t.conjunction ?? 'not stated'] as Row] : []),
      ],
    });
  }
  if (t.has_liens !== undefined || t.active_liens) {
    sections.push({
      heading: 'Liens',
      rows: [
        ['Active liens', t.has_liens ?? (t.active_liens?.length ?? 0) > 0],
        ...(t.active_liens ?? []).map((l, i): Row => [
          `Lien ${i + 1}`,
          [l.lienholder?.name, l.lien_date && `since ${l.lien_date}`].filter(Boolean).join(', '),
        ]),
      ],
    });
  }
  const previous = Array.isArray(t.previous_title) ? (t.previous_title as Record<string, unknown>[]) : [];
  if (previous.length) {
    sections.push({
      heading: 'Title history and odometer',
      rows: previous.map((p): Row => [
        String(p.issuance_date ?? '-'),
        `${p.issuing_state ?? ''} ${p.number ?? ''} ${p.brand ? `brand ${p.brand}` : ''} odometer ${p.odometer_reading ?? '-'} ${p.odometer_code_translation ?? ''}`
          .replace(/\s+/g, ' ')
          .trim(),
      ]),
    });
  }
  return sections;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text.length <= 60) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (!line || font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const LINE = 13;

export async function renderReportPdf(input: ReportInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${SOURCE_TITLES[input.source]} - ${input.vin}`);
  doc.setProducer('titled');
  doc.setCreator('titled enrichment');
  doc.setCreationDate(input.fetchedAt);
  doc.setModificationDate(input.fetchedAt);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const margin = 50;
  const valueX = margin + 150;
  let page: PDFPage = doc.addPage([612, 792]);
  let y = 792 - margin;
  const newPage = () => {
    page = doc.addPage([612, 792]);
    y = 792 - margin;
  };
  const text = (s: string, x: number, size: number, f: PDFFont, color = rgb(0, 0, 0)) =>
    page.drawText(s, { x, y, size, font: f, color, lineHeight: LINE });

  text(safe(SOURCE_TITLES[input.source]), margin, 18, bold);
  y -= 22;
  text(safe(`VIN ${input.vin}`), margin, 11, font, rgb(0.25, 0.25, 0.25));
  y -= 16;
  if (input.providerKind === 'sandbox') {
    text('SANDBOX - generated test data, not a real record', margin, 10, bold, rgb(0.75, 0.1, 0.1));
    y -= 16;
  }
  for (const s of reportSections(input)) {
    // rows as lines: a label, then blank label lines for a value that wraps
    const labels: string[] = [];
    const values: string[] = [];
    for (const [label, value] of s.rows) {
      const lines = wrap(safe(fmt(value)), font, 10, 612 - margin - valueX);
      lines.forEach((l, i) => {
        labels.push(i === 0 ? safe(label) : '');
        values.push(l);
      });
    }
    let first = true;
    while (labels.length) {
      if (y - (first ? 26 : 0) - LINE * 2 < margin) newPage();
      if (first) {
        y -= 8;
        text(safe(s.heading), margin, 13, bold);
        y -= 4;
        page.drawLine({
          start: { x: margin, y },
          end: { x: 612 - margin, y },
          thickness: 0.5,
          color: rgb(0.6, 0.6, 0.6),
        });
        y -= 14;
        first = false;
      }
      const fit = Math.max(1, Math.floor((y - margin) / LINE) + 1);
      const l = labels.splice(0, fit);
      const v = values.splice(0, fit);
      text(l.join('\n'), margin, 10, bold, rgb(0.3, 0.3, 0.3));
      text(v.join('\n'), valueX, 10, font);
      y -= l.length * LINE + 2;
    }
  }
  return doc.save({ useObjectStreams: false });
}
