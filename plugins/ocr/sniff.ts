/**
 * What a document is, from its first bytes (never from its URL, name or the
 * server's Content-Type): PDF, JPEG or PNG are read; anything else is named
 * as well as it can be, for the rejection reason.
 */
export type DocumentFormat = 'pdf' | 'jpeg' | 'png';

interface Sniffed {
  format: DocumentFormat | null;
  /** What it looks like, for a rejection: "HTML", "GIF image", ... */ looksLike: string;
}

const starts = (b: Buffer, sig: number[] | string, at = 0) => {
  const bytes = typeof sig === 'string' ? [...Buffer.from(sig, 'latin1')] : sig;
  return b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);
};

export function sniff(b: Buffer): Sniffed {
  // a PDF may have a few bytes of junk before its header (readers allow up to 1 KB)
  const head = b.subarray(0, 1024).toString('latin1');
  const pdfAt = head.indexOf('%PDF-');
  if (pdfAt >= 0 && pdfAt < 1024) return { format: 'pdf', looksLike: 'PDF' };
  if (starts(b, [0xff, 0xd8, 0xff])) return { format: 'jpeg', looksLike: 'JPEG image' };
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { format: 'png', looksLike: 'PNG image' };
  if (b.length === 0) return { format: null, looksLike: 'an empty file' };
  if (starts(b, 'GIF8')) return { format: null, looksLike: 'a GIF image' };
  if (starts(b, 'RIFF') && starts(b, 'WEBP', 8)) return { format: null, looksLike: 'a WebP image' };
  if (starts(b, [0x49, 0x49, 0x2a, 0x00]) || starts(b, [0x4d, 0x4d, 0x00, 0x2a]))
    return { format: null, looksLike: 'a TIFF image' };
  if (starts(b, 'ftyp', 4) && /heic|heix|mif1|avif/.test(b.subarray(8, 12).toString('latin1')))
    return { format: null, looksLike: 'a HEIC/AVIF image' };
  if (starts(b, 'BM')) return { format: null, looksLike: 'a BMP image' };
  if (starts(b, [0x50, 0x4b, 0x03, 0x04])) return { format: null, looksLike: 'a ZIP archive (or an Office document)' };
  const text = head.trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || /<(head|body|script)[\s>]/.test(text))
    return { format: null, looksLike: 'an HTML page' };
  if (text.startsWith('<?xml') || text.startsWith('<svg'))
    return { format: null, looksLike: text.includes('<svg') ? 'an SVG image' : 'an XML document' };
  if (text.startsWith('{') || text.startsWith('[')) return { format: null, looksLike: 'JSON' };
  return {
    format: null,
    looksLike: /^[\x09\x0a\x0d\x20-\x7e]*$/.test(head.slice(0, 256)) ? 'plain text' : 'an unrecognized binary file',
  };
}
