/**
 * The final packet: every generated form (the state version of per-signer
 * forms) in packet order, one PDF, and `final_packet_indices` saying which
 * pages hold which form.
 *
 * Indices format: comma-separated `<form key>:<pages>` items in packet order,
 * where a per-signer form's key carries the signer's position in its array
 * (`forms_poa[1]`) and `<pages>` is a 1-based page number or an inclusive
 * range `first-last`. Example:
 * `form_instructions:1,form_title_application:2-3,forms_poa[0]:4,forms_poa[1]:5`.
 */
import type { PDFDocument } from 'pdf-lib';
import { addDrawnPages, newDocument, save } from './pdf/document.js';
import { writePdf } from './pdf/writer.js';

/** Where a form's packet pages come from: drawn pages (compressed content streams) or pages of a pdf-lib document (a flattened template). */
export type PacketSource = { drawn: readonly Buffer[] } | { doc: PDFDocument; pages: readonly number[] };

export interface PacketPart {
  /** `form_title_application` or `forms_poa[0]`. */
  key: string;
  source: PacketSource;
}

export interface PacketRange {
  key: string;
  first: number;
  last: number;
}

export function formatIndices(ranges: readonly PacketRange[]): string {
  return ranges.map((r) => `${r.key}:${r.first === r.last ? r.first : `${r.first}-${r.last}`}`).join(',');
}

/** Reads `final_packet_indices` back into ranges (clients and tests). */
export function parseIndices(indices: string): PacketRange[] {
  if (!indices) return [];
  return indices.split(',').map((item) => {
    const m = /^([a-z_]+(?:\[\d+\])?):(\d+)(?:-(\d+))?$/.exec(item);
    if (!m) throw new Error(`not a packet index item: '${item}'`);
    return { key: m[1]!, first: Number(m[2]), last: Number(m[3] ?? m[2]) };
  });
}

const pageCount = (s: PacketSource) => ('drawn' in s ? s.drawn.length : s.pages.length);

/** Combines the parts in order. All drawn: written directly; with a template: assembled with pdf-lib. */
export async function buildPacket(
  parts: readonly PacketPart[],
  title: string,
): Promise<{ pdf: Uint8Array; pages: number; ranges: PacketRange[]; indices: string }> {
  const ranges: PacketRange[] = [];
  let next = 1;
  for (const p of parts) {
    const n = pageCount(p.source);
    ranges.push({ key: p.key, first: next, last: next + n - 1 });
    next += n;
  }
  let pdf: Uint8Array;
  if (parts.every((p) => 'drawn' in p.source)) {
    pdf = writePdf(
      parts.flatMap((p) => (p.source as { drawn: readonly Buffer[] }).drawn),
      { title, subject: 'Final packet' },
    );
  } else {
    const packet = await newDocument({ title, subject: 'Final packet' });
    for (const p of parts) {
      if ('drawn' in p.source) await addDrawnPages(packet, p.source.drawn);
      else for (const page of await packet.copyPages(p.source.doc, [...p.source.pages])) packet.addPage(page);
    }
    pdf = await save(packet);
  }
  return { pdf, pages: next - 1, ranges, indices: formatIndices(ranges) };
}
