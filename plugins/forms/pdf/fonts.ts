/**
 * The drawn forms' fonts: the standard 14 Helvetica family in WinAnsi
 * encoding (no font files to embed, text extractable by any reader). Text a
 * WinAnsi font cannot show is transliterated (accents stripped, quotes
 * straightened) or replaced with `?`, never dropped silently.
 */
import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';

export type FontName = 'regular' | 'bold' | 'italic';

/** Resource names of the fonts in every drawn page. */
export const FONT_RESOURCES: Record<FontName, { resource: string; standard: StandardFonts }> = {
  regular: { resource: 'F1', standard: StandardFonts.Helvetica },
  bold: { resource: 'F2', standard: StandardFonts.HelveticaBold },
  italic: { resource: 'F3', standard: StandardFonts.HelveticaOblique },
};

const embedders: Record<FontName, StandardFontEmbedder> = {
  // pdf-lib's StandardFonts values are the standard-fonts package's FontNames
  regular: StandardFontEmbedder.for(StandardFonts.Helvetica as never),
  bold: StandardFontEmbedder.for(StandardFonts.HelveticaBold as never),
  italic: StandardFontEmbedder.for(StandardFonts.HelveticaOblique as never),
};
const winAnsi = embedders.regular.encoding;

/** WinAnsi code of each BMP code point: -2 not looked up yet, -1 not encodable. */
const CODES = new Int16Array(0x10000).fill(-2);
/** Glyph widths (1/1000 em) by WinAnsi code, per font. */
const WIDTHS: Record<FontName, Float32Array> = {
  regular: new Float32Array(256),
  bold: new Float32Array(256),
  italic: new Float32Array(256),
};

function codeOf(cp: number): number {
  if (cp > 0xffff) return -1;
  let c = CODES[cp]!;
  if (c !== -2) return c;
  if (!winAnsi.canEncodeUnicodeCodePoint(cp)) c = -1;
  else {
    const { code, name } = winAnsi.encodeUnicodeCodePoint(cp);
    c = code;
    for (const f of Object.keys(WIDTHS) as FontName[]) WIDTHS[f][code] = embedders[f].font.getWidthOfGlyph(name) ?? 556;
  }
  CODES[cp] = c;
  return c;
}

/** Letters and marks NFKD does not reduce to something WinAnsi has. */
const REPLACEMENTS: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u00A0': ' ',
  '\u2007': ' ',
  '\u202F': ' ',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŧ: 'T',
  ŧ: 't',
  ĸ: 'k',
  Ŋ: 'N',
  ŋ: 'n',
};

/** Text made showable in WinAnsi: control characters become spaces, other unshowable characters are transliterated or `?`. */
export function sanitize(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\r\n\t\f\v]+/g, ' ')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      out += ' ';
      continue;
    }
    if (codeOf(cp) >= 0) {
      out += ch;
      continue;
    }
    const mapped = REPLACEMENTS[ch] ?? ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += mapped && [...mapped].every((c) => codeOf(c.codePointAt(0)!) >= 0) ? mapped : '?';
  }
  return out;
}

/** Width in points of (sanitized) text at a size. */
export function widthOf(text: string, font: FontName, size: number): number {
  const widths = WIDTHS[font];
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const c = codeOf(text.charCodeAt(i));
    w += c >= 0 ? widths[c]! : 556;
  }
  return (w * size) / 1000;
}

/** Ascent and descent of the Helvetica family, per point of size. */
export const ASCENT = 0.718;
export const DESCENT = 0.207;

/** A PDF literal string `( ... )` of the text's WinAnsi bytes (escaped), for a content stream. */
export function pdfString(text: string, font: FontName): string {
  let out = '(';
  void font; // one encoding (WinAnsi) for the whole family
  for (let i = 0; i < text.length; i++) {
    const c = codeOf(text.charCodeAt(i));
    const code = c >= 0 ? c : 0x3f;
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += '\\' + String.fromCharCode(code);
    else if (code < 0x20 || code > 0x7e) out += '\\' + code.toString(8).padStart(3, '0');
    else out += String.fromCharCode(code);
  }
  return out + ')';
}
