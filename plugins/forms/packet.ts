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
import { writePacket, type PacketInput } from './pdf/packet-writer.js';
import { writePdf } from './pdf/writer.js';

/**
 * Where a form's packet pages come from: drawn pages (compressed content streams) or pages of a pdf-lib document
 * (a flattened template, with the prepared template it was filled from).
 */
export type PacketSource = PacketInput;

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

/** Combines the parts in order, written directly (template pages with what they reach, renumbered). */
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
  const meta = { title, subject: 'Final packet' };
  const pdf = parts.every((p) => 'drawn' in p.source)
    ? writePdf(
        parts.flatMap((p) => (p.source as { drawn: readonly Buffer[] }).drawn),
        meta,
      )
    : writePacket(
        parts.map((p) => p.source),
        meta,
      );
  return { pdf, pages: next - 1, ranges, indices: formatIndices(ranges) };
}
