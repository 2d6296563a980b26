/**
 * The portal screenshot (`portal_screenshot`) when the provider sends none:
 * a PNG of the portal's record page, drawn with a 5x7 bitmap font and
 * encoded with node's zlib (no image library needed).
 */
import { crc32, deflateSync } from 'node:zlib';
import { reportSections, type ReportInput } from './report-pdf.js';

/** 5x7 glyphs, one string of 7 rows x 5 columns per character. */
const G: Record<string, string> = {
  A: '01110100011000111111100011000110001',
  B: '11110100011000111110100011000111110',
  C: '01110100011000010000100001000101110',
  D: '11110100011000110001100011000111110',
  E: '11111100001000011110100001000011111',
  F: '11111100001000011110100001000010000',
  G: '01110100011000010111100011000101111',
  H: '10001100011000111111100011000110001',
  I: '01110001000010000100001000010001110',
  J: '00111000100001000010000101001001100',
  K: '10001100101010011000101001001010001',
  L: '10000100001000010000100001000011111',
  M: '10001110111010110101100011000110001',
  N: '10001100011100110101100111000110001',
  O: '01110100011000110001100011000101110',
  P: '11110100011000111110100001000010000',
  Q: '01110100011000110001101011001001101',
  R: '11110100011000111110101001001010001',
  S: '01111100001000001110000010000111110',
  T: '11111001000010000100001000010000100',
  U: '10001100011000110001100011000101110',
  V: '10001100011000110001100010101000100',
  W: '10001100011000110101101011010101010',
  X: '10001100010101000100010101000110001',
  Y: '10001100011000101010001000010000100',
  Z: '11111000010001000100010001000011111',
  '0': '01110100011001110101110011000101110',
  '1': '00100011000010000100001000010001110',
  '2': '01110100010000100010001000100011111',
  '3': '11111000100010000010000011000101110',
  '4': '00010001100101010010111110001000010',
  '5': '11111100001111000001000011000101110',
  '6': '00110010001000011110100011000101110',
  '7': '11111000010001000100010000100001000',
  '8': '01110100011000101110100011000101110',
  '9': '01110100011000101111000010001001100',
  ' ': '00000000000000000000000000000000000',
  '.': '00000000000000000000000000110001100',
  ',': '00000000000000000000011000010001000',
  ':': '00000011000110000000011000110000000',
  '-': '00000000000000011111000000000000000',
  '/': '00000000010001000100010001000000000',
  '(': '00010001000100001000010000010000010',
  ')': '01000001000001000010000100010001000',
  '#': '01010010101111101010111110101001010',
  "'": '00100001000100000000000000000000000',
  '&': '01100100101010001000101011001001101',
  '?': '01110100010000100010001000000000100',
  _: '00000000000000000000000000000011111',
  '*': '00000001001010101110101010010000000',
};

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  // the chunk's CRC covers its type and data (zlib's crc32, continued over the data: no copy of it to checksum)
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))));
  return Buffer.concat([head, data, crc]);
}

/** Encodes an 8-bit grayscale bitmap as PNG. */
export function encodeGrayPng(width: number, height: number, pixels: Uint8Array): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  return encodeRows(width, height, raw);
}

/** PNG of `height` rows of `width` gray pixels, each row already led by its filter byte (0: none). */
function encodeRows(width: number, height: number, raw: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Glyphs as the offsets (row * 5 + column) of their set pixels. */
const BITS = new Map(Object.entries(G).map(([ch, g]) => [ch, [...g].flatMap((b, i) => (b === '1' ? [i] : []))]));

const SCALE = 2;
const ADVANCE = 6 * SCALE;
const LINE = 11 * SCALE;
const WIDTH = 760;
const COLS = Math.floor((WIDTH - 24) / ADVANCE);
/** A row of the PNG's data: the filter byte, then the pixels. */
const STRIDE = WIDTH + 1;

/**
 * The screenshot's rows, drawn in place and reused by the next screenshot (rendering is synchronous). A page is
 * about 560 KB: allocated per screenshot, with bin/titled's MALLOC_MMAP_THRESHOLD_ each one was a fresh mmap whose
 * pages the kernel faulted in and zeroed (about 250 page faults and 3 ms of CPU per enriched entry).
 */
let scratch = Buffer.alloc(0);

/** Renders the portal page of a pull as PNG bytes. */
export function renderPortalScreenshot(input: ReportInput): Buffer {
  const lines: { text: string; header?: boolean }[] = [
    { text: `${input.state ?? ''} DMV PORTAL - TITLE AND REGISTRATION INQUIRY`.trim(), header: true },
  ];
  if (input.providerKind === 'sandbox') lines.push({ text: 'SANDBOX - GENERATED TEST DATA, NOT A REAL DMV SCREEN' });
  for (const s of reportSections(input)) {
    lines.push({ text: '' }, { text: s.heading.toUpperCase(), header: true });
    for (const [label, value] of s.rows) {
      const v =
        value === undefined || value === null || value === ''
          ? '-'
          : typeof value === 'boolean'
            ? value
              ? 'YES'
              : 'NO'
            : String(value);
      const full = `${label.toUpperCase()}: ${v.toUpperCase()}`;
      for (let i = 0; i < full.length; i += COLS) lines.push({ text: (i ? '    ' : '') + full.slice(i, i + COLS) });
    }
  }
  const height = 16 + lines.length * LINE;
  if (scratch.length < STRIDE * height) scratch = Buffer.allocUnsafeSlow(Math.ceil(STRIDE * height * 1.25));
  // drawn through a Uint8Array view: TypedArray fill and stores, not Buffer#fill's argument checks per glyph pixel
  const px = new Uint8Array(scratch.buffer, scratch.byteOffset, STRIDE * height).fill(255);
  for (let y = 0; y < height; y++) px[y * STRIDE] = 0;
  lines.forEach((l, row) => {
    const top = 8 + row * LINE;
    if (l.header) for (let y = top - 3; y < top + LINE - 5; y++) px.fill(40, y * STRIDE + 1, (y + 1) * STRIDE);
    const ink = l.header ? 255 : 20;
    for (let col = 0; col < l.text.length; col++) {
      const bits = BITS.get(l.text[col]!) ?? BITS.get('?')!;
      const left = 1 + 12 + col * ADVANCE;
      for (const b of bits) {
        const at = (top + Math.floor(b / 5) * SCALE) * STRIDE + left + (b % 5) * SCALE;
        for (let sy = 0; sy < SCALE; sy++) for (let sx = 0; sx < SCALE; sx++) px[at + sy * STRIDE + sx] = ink;
      }
    }
  });
  return encodeRows(WIDTH, height, px);
}
