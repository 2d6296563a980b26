/**
 * The fast reading paths against the slow ones they replace: a scanned PDF
 * page decoded straight from its image (JPEG, Flate, Flate with PNG
 * predictors, /Rotate) gives the raster poppler renders and the same fields;
 * every page that is not one plain full-page image falls back to poppler and
 * is still read; a page cropped to its print gives word boxes in the whole
 * page's coordinates, also once a sideways page has been turned; images of unknown
 * resolution are scaled by their print; PDF417 barcodes are found in a
 * text-layer page's images and on large rasters. Through analyzeDocument
 * where the result shows there, the exported pieces where it does not.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import {
  PDFDocument,
  PDFName,
  PDFNumber,
  StandardFonts,
  degrees,
  setFillingGrayscaleColor,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { analyzeDocument, type DocumentAnalysis } from '../../plugins/ocr/analyze.js';
import { parseAamva } from '../../plugins/ocr/extract/aamva.js';
import type { Box } from '../../plugins/ocr/layout/fields.js';
import { readPdf417 } from '../../plugins/ocr/read/barcode.js';
import { decodeImage, ocrScale, prepareForOcr } from '../../plugins/ocr/read/image.js';
import { rasterizePage } from '../../plugins/ocr/read/pdf.js';
import { openPdf, pageImages, pageScanImage, singlePlacement } from '../../plugins/ocr/read/pdf-image.js';
import type { Gray } from '../../plugins/ocr/read/types.js';
import { scoreDoc } from '../fixtures/ocr/generator/score.js';
import { corpusBytes, corpusDoc } from './support.js';

const MAX_PIXELS = 40_000_000;
const CARD = 'dl-a-0-scan';
const PAGE = 'title-tx-0-scan';
const BACK = 'dl-back-0-scan';
const BACK_PDF = 'dl-back-0-digital';

/**
 * Bounds of the mean absolute gray difference between our decode of a page
 * image and poppler's rendering of the page at the image's resolution.
 * Poppler does not copy an image drawn 1:1 pixel for pixel (its scaler
 * moves some rows and columns by one), so the two differ where the print
 * has fine detail. Measured: 0.6 to 1.1 on letter pages (against 9 for the
 * page upside down, 4.4 shifted by 4 px); 2.8 on a license card at 300 dpi
 * and 5.4 at 150 dpi (against 20 upside down, 12 to 15 shifted by 4 px).
 */
const SAME_PAGE = 2;
const SAME_CARD = 4;
const SAME_CARD_150 = 7;

const pt = (px: number, dpi = 300) => (px * 72) / dpi;

function mad(a: Gray, b: Gray): number {
  expect([a.width, a.height], 'raster size').to.deep.equal([b.width, b.height]);
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += Math.abs(a.data[i]! - b.data[i]!);
  return s / a.data.length;
}

const sameGray = (a: Gray, b: Gray) => a.width === b.width && a.height === b.height && a.data.equals(b.data);

/** A one-page PDF of `size` points drawn by `draw`. */
async function pdfOf(
  size: [number, number],
  draw: (doc: PDFDocument, page: PDFPage) => Promise<void> | void,
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  await draw(doc, page);
  return Buffer.from(await doc.save());
}

/** What a scanner or pdf-lib writes: the image as the page's only content, over the whole page (pdf-lib places it with several `cm`). */
async function scanPdf(
  image: Buffer,
  kind: 'png' | 'jpg',
  o: { dpi?: number; rotate?: number; then?: (page: PDFPage, doc: PDFDocument) => Promise<void> | void } = {},
): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = pt(meta.width!, o.dpi);
  const h = pt(meta.height!, o.dpi);
  return pdfOf([w, h], async (doc, page) => {
    const img = kind === 'png' ? await doc.embedPng(image) : await doc.embedJpg(image);
    page.drawImage(img, { x: 0, y: 0, width: w, height: h });
    if (o.rotate) page.setRotation(degrees(o.rotate));
    await o.then?.(page, doc);
  });
}

/** A page holding one hand-built image XObject `/Im0`, drawn by `content` (by default placed over the whole page with one `cm`). */
async function handPdf(
  stream: (doc: PDFDocument) => ReturnType<PDFDocument['context']['stream']>,
  size: [number, number],
  content = `q ${size[0]} 0 0 ${size[1]} 0 0 cm /Im0 Do Q`,
): Promise<Buffer> {
  return pdfOf(size, (doc, page) => {
    const ref: PDFRef = doc.context.register(stream(doc));
    page.node.setXObject(PDFName.of('Im0'), ref);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
  });
}

/** The data of a PNG's IDAT chunks: the zlib stream of its filtered rows, which is what a PDF Flate image with PNG predictors holds. */
function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  return Buffer.concat(parts);
}

/** The colour type byte of a PNG's IHDR (0 gray, 2 RGB). */
const pngColorType = (png: Buffer) => png[25];

async function opened(pdf: Buffer) {
  const doc = await openPdf(pdf);
  expect(doc, 'pdf-lib opens the PDF').to.not.equal(null);
  return doc!;
}

/** pageScanImage of the first page. */
async function direct(pdf: Buffer) {
  return pageScanImage(await opened(pdf), 0, MAX_PIXELS);
}

/** Poppler's 300-dpi rendering of the first page: the slow path. */
async function poppler(pdf: Buffer, dpi = 300): Promise<Gray> {
  const { width, height } = (await PDFDocument.load(pdf)).getPage(0).getSize();
  return (
    await rasterizePage(pdf, 1, { width, height }, { dpi, maxPixels: MAX_PIXELS, maxPages: 1, toolTimeoutMs: 60_000 })
  ).gray;
}

const gray = async (image: Buffer) => (await decodeImage(image, MAX_PIXELS)).gray;

/** A raster as a PNG (a scan as a scanner app writes it), with a resolution or without one. */
function pngOf(g: Gray, density?: number): Promise<Buffer> {
  const img = sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } });
  return (density ? img.withMetadata({ density }) : img).png().toBuffer();
}

const misses = (id: string, a: DocumentAnalysis) => scoreDoc(corpusDoc(id), a).misses;

/** The steps that ran, by name. */
const steps = (a: DocumentAnalysis) => Object.keys(a.timings_ms.steps).sort();

describe('singlePlacement (the content of a scanned page)', () => {
  it('composes several cm into the matrix the image is drawn with, in PDF order, and restores it at Q', () => {
    // what pdf-lib's drawImage writes
    expect(
      singlePlacement(
        'q\n1 0 0 1 0 0 cm\n1 0 0 1 0 0 cm\n243.12 0 0 153.12 0 0 cm\n1 0 0 1 0 0 cm\n/Image-7098480789 Do\nQ\n',
      ),
    ).to.deep.equal({ name: 'Image-7098480789', matrix: [243.12, 0, 0, 153.12, 0, 0] });
    // a later cm applies first: translate then scale places the image at (10, 20) scaled 2 x 3; the other order scales the translation too
    expect(singlePlacement('q 1 0 0 1 10 20 cm 2 0 0 3 0 0 cm /Im0 Do Q')!.matrix).to.deep.equal([2, 0, 0, 3, 10, 20]);
    expect(singlePlacement('q 2 0 0 3 0 0 cm 1 0 0 1 10 20 cm /Im0 Do Q')!.matrix).to.deep.equal([2, 0, 0, 3, 20, 60]);
    expect(singlePlacement('q 0.5 0 0 0.5 0 0 cm q 4 0 0 4 0 0 cm Q 1224 0 0 1584 0 0 cm /Im1 Do Q')).to.deep.equal({
      name: 'Im1',
      matrix: [612, 0, 0, 792, 0, 0],
    });
    expect(singlePlacement('q 612.0000 0 0 792.0000 0.0000 0.0000 cm\n/I0 Do Q')).to.deep.equal({
      name: 'I0',
      matrix: [612, 0, 0, 792, 0, 0],
    });
  });

  it('is null for anything but one image placement', () => {
    const place = 'q 612 0 0 792 0 0 cm /Im0 Do Q';
    for (const content of [
      `${place} 0 g`, // a colour
      `${place} q 0 0 m 10 10 l S Q`, // vector drawing
      `${place} BT /F1 12 Tf 10 10 Td (VIN) Tj ET`, // text
      `q /GS0 gs ${place} Q`, // a graphics state (transparency)
      `${place} q 612 0 0 792 0 0 cm /Im1 Do Q`, // two images
      `q 612 0 0 792 0 0 cm /Im0 Do /Im0 Do Q`, // one image drawn twice
      'q 612 0 0 792 0 0 cm Q', // no image
      `${place} 5`, // operands without an operator
      'q 612 0 0 792 0 cm /Im0 Do Q', // a cm with five operands
      'q 612 0 0 792 0 /X cm /Im0 Do Q', // a name where a number goes
      '',
    ])
      expect(singlePlacement(content), content).to.equal(null);
  });
});

describe('scanned PDF pages decoded from their image (image_from_pdf) against poppler (rasterize)', function () {
  this.timeout(120_000);

  it('a JPEG page (DCTDecode): the raster poppler renders, and the same fields whichever path read it', async () => {
    const jpg = await sharp(corpusBytes(corpusDoc(PAGE)))
      .jpeg({ quality: 88 })
      .toBuffer();
    const pdf = await scanPdf(jpg, 'jpg');
    const d = await direct(pdf);
    expect(d).to.not.equal(null);
    expect(d!.dpi).to.be.closeTo(300, 0.5);
    expect(sameGray(d!.gray, await gray(jpg)), 'the JPEG as sharp decodes it').to.equal(true);
    expect(mad(d!.gray, await poppler(pdf))).to.be.below(SAME_PAGE);

    // the same page with one more (invisible) operator is no longer plain: poppler renders it
    const slow = await scanPdf(jpg, 'jpg', { then: (page) => page.pushOperators(setFillingGrayscaleColor(0)) });
    expect(await direct(slow)).to.equal(null);
    const [fast, rendered] = await Promise.all([analyzeDocument(pdf), analyzeDocument(slow)]);
    expect(fast.timings_ms.steps).to.have.property('image_from_pdf');
    expect(fast.timings_ms.steps).to.not.have.property('rasterize');
    expect(rendered.timings_ms.steps).to.have.property('rasterize');
    expect(misses(PAGE, fast)).to.deep.equal([]);
    expect(fast.document_type).to.equal('VEHICLE_TITLE');
    expect(fast.fields).to.deep.equal(rendered.fields);
    expect(fast.vin).to.deep.equal(rendered.vin);
  });

  it('a gray JPEG, and a JPEG with an EXIF orientation (which PDF viewers ignore, and so does the decode)', async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const { width, height } = await sharp(png).metadata();
    for (const [what, jpg] of [
      ['gray', await sharp(png).grayscale().toColourspace('b-w').jpeg({ quality: 90 }).toBuffer()],
      ['EXIF orientation 6', await sharp(png).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer()],
    ] as const) {
      const pdf = await scanPdf(jpg, 'jpg');
      const d = await direct(pdf);
      expect(d, what).to.not.equal(null);
      expect([d!.gray.width, d!.gray.height], what).to.deep.equal([width, height]);
      expect(mad(d!.gray, await poppler(pdf)), what).to.be.below(SAME_CARD);
    }
  });

  it("a PNG embedded by pdf-lib (Flate RGB, no predictor): exactly the PNG's pixels, and the card's fields", async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const pdf = await scanPdf(png, 'png');
    const d = await direct(pdf);
    expect(d).to.not.equal(null);
    expect(d!.dpi).to.be.closeTo(300, 0.5);
    expect(sameGray(d!.gray, await gray(png))).to.equal(true);
    expect(mad(d!.gray, await poppler(pdf))).to.be.below(SAME_CARD);
    const a = await analyzeDocument(pdf);
    expect(steps(a)).to.include('image_from_pdf').and.not.include('rasterize');
    expect(a.document_type).to.equal('DRIVER_LICENSE');
    expect(misses(CARD, a)).to.deep.equal([]);
  });

  it("Flate 8-bit gray without predictor, and with PNG predictors (gray and RGB): exactly the image's pixels", async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const g = await gray(png);
    const size: [number, number] = [pt(g.width), pt(g.height)];
    const dict = (colorSpace: string, colors: number, predictor?: number) => ({
      Type: 'XObject',
      Subtype: 'Image',
      Width: g.width,
      Height: g.height,
      ColorSpace: colorSpace,
      BitsPerComponent: 8,
      ...(predictor
        ? {
            Filter: 'FlateDecode',
            DecodeParms: { Predictor: predictor, Colors: colors, BitsPerComponent: 8, Columns: g.width },
          }
        : {}),
    });
    // sharp filters each row by whichever PNG filter suits it (adaptive): every predictor kind is undone
    const grayPng = await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
      .toColourspace('b-w')
      .png({ adaptiveFiltering: true, compressionLevel: 6 })
      .toBuffer();
    const rgbPng = await sharp(png).removeAlpha().png({ adaptiveFiltering: true, compressionLevel: 6 }).toBuffer();
    expect([pngColorType(grayPng), pngColorType(rgbPng)]).to.deep.equal([0, 2]);
    const variants: [string, Buffer, Gray][] = [
      ['gray, no predictor', await handPdf((doc) => doc.context.flateStream(g.data, dict('DeviceGray', 1)), size), g],
      [
        'gray, Predictor 15',
        await handPdf((doc) => doc.context.stream(idatOf(grayPng), dict('DeviceGray', 1, 15)), size),
        g,
      ],
      [
        'RGB, Predictor 15',
        await handPdf((doc) => doc.context.stream(idatOf(rgbPng), dict('DeviceRGB', 3, 15)), size),
        await gray(rgbPng),
      ],
    ];
    for (const [what, pdf, want] of variants) {
      const d = await direct(pdf);
      expect(d, what).to.not.equal(null);
      expect(sameGray(d!.gray, want), what).to.equal(true);
      expect(mad(d!.gray, await poppler(pdf)), what).to.be.below(SAME_CARD);
    }
    const a = await analyzeDocument(variants[1]![1]);
    expect(steps(a)).to.include('image_from_pdf').and.not.include('rasterize');
    expect(misses(CARD, a)).to.deep.equal([]);
  });

  it("applies the page's /Rotate (its own or inherited) as poppler does: a sideways scan stored with /Rotate reads upright", async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const upright = await gray(png);
    for (const rotate of [90, 180, 270]) {
      // the scanner stored the image turned and set /Rotate so that the page shows it upright
      const stored = await sharp(png)
        .rotate(360 - rotate)
        .png()
        .toBuffer();
      const pdf = await scanPdf(stored, 'png', { rotate });
      const d = await direct(pdf);
      expect(d, `Rotate ${rotate}`).to.not.equal(null);
      expect(sameGray(d!.gray, upright), `Rotate ${rotate}`).to.equal(true);
      const rendered = await poppler(pdf);
      expect(mad(d!.gray, rendered), `Rotate ${rotate}`).to.be.below(SAME_CARD);
      // the metric tells the image as stored (upside down) from the page as shown
      if (rotate === 180) expect(mad(await gray(stored), rendered)).to.be.above(4 * SAME_CARD);
    }
    const stored = await sharp(png).rotate(270).png().toBuffer();
    const inherited = await scanPdf(stored, 'png', {
      then: (_page, doc) => doc.catalog.Pages().set(PDFName.of('Rotate'), PDFNumber.of(90)),
    });
    const d = await direct(inherited);
    expect(d).to.not.equal(null);
    expect(sameGray(d!.gray, upright), 'inherited /Rotate').to.equal(true);
    expect(mad(d!.gray, await poppler(inherited))).to.be.below(SAME_CARD);

    const a = await analyzeDocument(await scanPdf(stored, 'png', { rotate: 90 }));
    expect(steps(a)).to.include('image_from_pdf').and.not.include('rasterize');
    expect(steps(a), 'upright already: no orientation search').to.not.include('orientation');
    expect(misses(CARD, a)).to.deep.equal([]);
  });

  it("reports the image's own resolution (a 150-dpi scan)", async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const half = await sharp(png).resize(507).png().toBuffer();
    const pdf = await scanPdf(half, 'png', { dpi: 150 });
    const d = await direct(pdf);
    expect(d).to.not.equal(null);
    expect(d!.dpi).to.be.closeTo(150, 0.5);
    expect(sameGray(d!.gray, await gray(half))).to.equal(true);
    expect(mad(d!.gray, await poppler(pdf, 150))).to.be.below(SAME_CARD_150);
    // brought to 300 dpi by that resolution, and read
    const a = await analyzeDocument(pdf);
    expect(steps(a)).to.include('image_from_pdf').and.not.include('rasterize');
    expect(misses(CARD, a)).to.deep.equal([]);
  });

  it('decodes the page asked for in a document of several, and nothing past the last', async () => {
    const front = corpusBytes(corpusDoc(CARD));
    const back = corpusBytes(corpusDoc(BACK));
    const doc = await PDFDocument.create();
    for (const png of [front, back]) {
      const img = await doc.embedPng(png);
      doc
        .addPage([pt(img.width), pt(img.height)])
        .drawImage(img, { x: 0, y: 0, width: pt(img.width), height: pt(img.height) });
    }
    const opened2 = await opened(Buffer.from(await doc.save()));
    const pages = await Promise.all([0, 1, 2].map((i) => pageScanImage(opened2, i, MAX_PIXELS)));
    expect(sameGray(pages[0]!.gray, await gray(front))).to.equal(true);
    expect(sameGray(pages[1]!.gray, await gray(back))).to.equal(true);
    expect(pages[2]).to.equal(null);
    // an image over the pixel limit is not decoded here (poppler renders the page at a lower resolution)
    expect(await pageScanImage(opened2, 0, 1013 * 638 - 1)).to.equal(null);
  });

  it('falls back to poppler for any page that is not one plain full-page image, and still reads it', async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const { width, height } = await sharp(png).metadata();
    const [w, h] = [pt(width!), pt(height!)];
    const rgba = await sharp(png).ensureAlpha(0.99).png().toBuffer();
    const g = await gray(png);
    const grayDict = {
      Type: 'XObject',
      Subtype: 'Image',
      Width: g.width,
      Height: g.height,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    };
    const onLetter = await pdfOf([612, 792], async (doc, page) =>
      page.drawImage(await doc.embedPng(png), { x: 120, y: 420, width: w, height: h }),
    );
    const withMask = await scanPdf(rgba, 'png');
    const cases: [string, Buffer][] = [
      [
        'image and vector drawing',
        await scanPdf(png, 'png', {
          then: (page) => page.drawRectangle({ x: 4, y: 4, width: 20, height: 10, borderWidth: 1 }),
        }),
      ],
      [
        'image and text',
        await scanPdf(png, 'png', {
          then: async (page, doc) =>
            page.drawText('x', { x: 2, y: 2, size: 4, font: await doc.embedFont(StandardFonts.Courier) }),
        }),
      ],
      ['image on part of a letter page', onLetter],
      [
        'image in the corner of a letter page',
        await pdfOf([612, 792], async (doc, page) =>
          page.drawImage(await doc.embedPng(png), { x: 0, y: 0, width: w, height: h }),
        ),
      ],
      ['image with a soft mask', withMask],
      [
        'image with a Decode array',
        await handPdf((doc) => doc.context.flateStream(g.data, { ...grayDict, Decode: [1, 0] }), [w, h]),
      ],
      [
        'image mirrored',
        await handPdf(
          (doc) => doc.context.flateStream(g.data, grayDict),
          [w, h],
          `q ${w} 0 0 ${-h} 0 ${h} cm /Im0 Do Q`,
        ),
      ],
      [
        'image turned by its placement',
        await handPdf(
          (doc) => doc.context.flateStream(g.data, grayDict),
          [h, w],
          `q 0 ${w} ${-h} 0 ${h} 0 cm /Im0 Do Q`,
        ),
      ],
      [
        'image with non-square pixels',
        await handPdf(
          (doc) => doc.context.flateStream(g.data, grayDict),
          [w, h * 1.5],
          `q ${w} 0 0 ${h * 1.5} 0 0 cm /Im0 Do Q`,
        ),
      ],
    ];
    expect(
      await sharp(rgba)
        .metadata()
        .then((m) => m.hasAlpha),
    ).to.equal(true);
    for (const [what, pdf] of cases) expect(await direct(pdf), what).to.equal(null);

    const [letter, masked] = await Promise.all([analyzeDocument(onLetter), analyzeDocument(withMask)]);
    for (const a of [letter, masked]) {
      expect(steps(a)).to.include.members(['image_from_pdf', 'rasterize']);
      expect(a.document_type).to.equal('DRIVER_LICENSE');
      expect(misses(CARD, a)).to.deep.equal([]);
    }
  });

  it('an encrypted scan (empty user password) that pdf-lib cannot open: poppler renders it, and it is read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'titled-reading-'));
    try {
      await writeFile(join(dir, 'in.pdf'), await scanPdf(corpusBytes(corpusDoc(CARD)), 'png'));
      await promisify(execFile)('qpdf', [
        '--encrypt',
        '',
        'owner',
        '256',
        '--',
        join(dir, 'in.pdf'),
        join(dir, 'out.pdf'),
      ]);
      const pdf = await readFile(join(dir, 'out.pdf'));
      // nothing bypasses the logger: pdf-lib is asked to throw on an object it cannot parse, not to console.warn about it
      const warn = console.warn;
      const warned: unknown[] = [];
      console.warn = (...args: unknown[]) => void warned.push(args);
      let a: DocumentAnalysis;
      try {
        expect(await openPdf(pdf)).to.equal(null);
        a = await analyzeDocument(pdf);
      } finally {
        console.warn = warn;
      }
      expect(warned).to.deep.equal([]);
      expect(steps(a)).to.include('rasterize').and.not.include('image_from_pdf');
      expect(misses(CARD, a)).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a page cropped to its print: word boxes in the whole page's coordinates", function () {
  this.timeout(120_000);
  const VIN = '1HGCM82633A004352';
  let digital: DocumentAnalysis;
  let upright: DocumentAnalysis;
  let page: Gray;
  let png300: Buffer;

  /** Each edge of a box within `tol` pixels of another's. */
  function expectNear(got: Box | undefined, want: Box, tol: number, what: string) {
    expect(got, what).to.not.equal(undefined);
    for (const k of ['x0', 'y0', 'x1', 'y1'] as const)
      expect(Math.abs(got![k] - want[k]), `${what}: ${k} ${got![k]} vs ${want[k]}`).to.be.below(tol);
  }

  before(async () => {
    // a letter page with a block of typewritten text around its centre (enough ordinary text to tell its orientation)
    const pdf = await pdfOf([612, 792], async (doc, p) => {
      const font = await doc.embedFont(StandardFonts.Courier);
      [
        'Vehicle record for the owner named below.',
        `VIN ${VIN}`,
        'The vehicle was inspected on the date shown',
        'and the odometer reading was recorded as',
        'stated by the owner at the time of the visit.',
        'Please keep this notice with your papers and',
        'bring it with you when you renew the plates.',
        'Questions may be sent to the office by mail.',
      ].forEach((t, i) => p.drawText(t, { x: 130, y: 468 - i * 22, size: 13, font }));
    });
    // its text layer gives where the VIN is, in the 300-dpi page coordinates every path reports
    digital = await analyzeDocument(pdf);
    expect(digital.pages[0]!.source).to.equal('text_layer');
    expect(digital.vin?.vin).to.equal(VIN);
    page = await poppler(pdf);
    png300 = await pngOf(page, 300);
    upright = await analyzeDocument(png300);
  });

  /**
   * Where the OCR'd page has the VIN: within 12 px of the text layer's box
   * (tesseract's box is the ink's, the text layer's the font's: the tops
   * differ by about 8 px), and within a few px of the upright page's OCR.
   */
  function expectVinInPlace(a: DocumentAnalysis, what: string, tol = 4) {
    expect(a.vin?.vin, what).to.equal(VIN);
    expectNear(a.vin!.box, digital.vin!.box!, 12, `${what} vs text layer`);
    expectNear(a.vin!.box, upright.vin!.box!, tol, `${what} vs upright OCR`);
  }

  it('crops the raster tesseract reads to the print, and says where the crop lies on the page', async () => {
    const prep = await prepareForOcr(page, ocrScale(page, 300));
    expect(prep.scale).to.equal(1);
    expect(prep.page).to.deep.equal({ width: 2550, height: 3300 });
    expect(prep.gray.width * prep.gray.height).to.be.below(0.3 * 2550 * 3300);
    expect(prep.origin.x).to.be.above(300);
    expect(prep.origin.y).to.be.above(1000);
    // a clean straight page is not resampled: the crop is the page's pixels at origin, row for row
    for (let y = 0; y < prep.gray.height; y += 7) {
      const row = page.data.subarray(
        (prep.origin.y + y) * page.width + prep.origin.x,
        (prep.origin.y + y) * page.width + prep.origin.x + prep.gray.width,
      );
      expect(prep.gray.data.subarray(y * prep.gray.width, (y + 1) * prep.gray.width).equals(row), `row ${y}`).to.equal(
        true,
      );
    }
  });

  it("a license scanned on a letter page (corpus): tesseract reads the card's part of the page, and the card is read", async () => {
    const id = 'dl-b-page-0-scan';
    const g = await gray(corpusBytes(corpusDoc(id)));
    const prep = await prepareForOcr(g, ocrScale(g, 300));
    expect(prep.page).to.deep.equal({ width: g.width, height: g.height });
    expect(prep.gray.width * prep.gray.height).to.be.below(0.3 * g.width * g.height);
    expect(prep.origin.x + prep.origin.y).to.be.above(0);
    const a = await analyzeDocument(corpusBytes(corpusDoc(id)));
    expect(a.document_type).to.equal('DRIVER_LICENSE');
    // tesseract runs this card's "BRIAN R" together (cropped or not), which leaves the middle name in the first: every other field exact
    expect(misses(id, a).filter((m) => m.key !== 'name_first' && m.key !== 'name_middle')).to.deep.equal([]);
  });

  it('OCR of the cropped page puts the VIN where the text layer has it (PNG, and a scanned PDF through image_from_pdf)', async () => {
    expect(upright.vin?.vin).to.equal(VIN);
    expectNear(upright.vin!.box, digital.vin!.box!, 12, 'png vs text layer');
    const fromPdf = await analyzeDocument(await scanPdf(png300, 'png'));
    expect(steps(fromPdf)).to.include('image_from_pdf').and.not.include('rasterize');
    expectVinInPlace(fromPdf, 'pdf', 1);
  });

  it("a page lying on its side or upside down is turned upright, and boxes are in the upright page's coordinates", async () => {
    const turns = [90, 180, 270];
    const results = await Promise.all(
      turns.map(async (deg) =>
        analyzeDocument(await sharp(png300).rotate(deg).withMetadata({ density: 300 }).png().toBuffer()),
      ),
    );
    for (const [i, a] of results.entries()) {
      const deg = turns[i]!;
      expect(steps(a), `${deg}`).to.include('orientation');
      expect(a.pages[0]!.rotated, `${deg}`).to.be.closeTo((360 - deg) % 360, 1);
      expectVinInPlace(a, `turned ${deg}`);
    }
  });

  it('a tilted page: deskewed after the crop, boxes still where the text layer has them', async () => {
    // turned 2 degrees about the page's centre (the print is centred on it, so deskewing the crop puts it back in place)
    const { data, info } = await sharp(png300)
      .rotate(2, { background: '#ffffff' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const left = Math.round((info.width - 2550) / 2);
    const top = Math.round((info.height - 3300) / 2);
    const tilted = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .extract({ left, top, width: 2550, height: 3300 })
      .withMetadata({ density: 300 })
      .png()
      .toBuffer();
    const a = await analyzeDocument(tilted);
    expect(Math.abs(a.pages[0]!.rotated ?? 0)).to.be.closeTo(2, 0.3);
    // unaccounted, the canvas a small turn adds would move every box by 15 to 20 px
    expectVinInPlace(a, 'tilted', 6);
  });

  it('a 150-dpi page (stated): enlarged to 300 dpi, boxes in 300-dpi page coordinates', async () => {
    const half = await sharp(png300)
      .resize(1275, 1650, { kernel: 'lanczos3' })
      .withMetadata({ density: 150 })
      .png()
      .toBuffer();
    const g = await gray(half);
    const prep = await prepareForOcr(g, ocrScale(g, 150));
    expect(prep.scale).to.equal(2);
    expect(prep.page).to.deep.equal({ width: 2550, height: 3300 });
    expect(prep.origin.x).to.be.above(300);
    const a = await analyzeDocument(half);
    expectVinInPlace(a, '150 dpi', 8);
  });
});

describe('images of unknown resolution', function () {
  this.timeout(120_000);

  it('ocrScale: a stated resolution scales to 300 dpi; none, or 72, leaves it to the print', () => {
    const g = { data: Buffer.alloc(0), width: 1013, height: 638 };
    expect(ocrScale(g, 300)).to.equal(1);
    expect(ocrScale(g, 150)).to.equal(2);
    expect(ocrScale(g, 600)).to.equal(0.5);
    expect(ocrScale(g, 72)).to.equal(undefined);
    expect(ocrScale(g, undefined)).to.equal(undefined);
    expect(ocrScale({ ...g, width: 8800, height: 6000 }, undefined)).to.equal(0.5);
  });

  it('a card saved as a JPEG without a resolution reads as the 300-dpi PNG does', async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const jpg = await sharp(png).jpeg({ quality: 90 }).toBuffer();
    const decoded = await decodeImage(jpg, MAX_PIXELS);
    expect(ocrScale(decoded.gray, decoded.density), 'no usable resolution').to.equal(undefined);
    // its print is big enough: not enlarged
    expect((await prepareForOcr(decoded.gray, undefined)).scale).to.equal(1);
    const [a, b] = await Promise.all([analyzeDocument(jpg), analyzeDocument(png)]);
    expect(misses(CARD, a)).to.deep.equal([]);
    expect(a.fields).to.deep.equal(b.fields);
  });

  it('small print at an unknown resolution is enlarged by its glyph height, as its true resolution would have', async () => {
    const png = corpusBytes(corpusDoc(CARD));
    const small = await sharp(png).resize(506).jpeg({ quality: 92 }).toBuffer(); // 150 dpi, saved without saying so
    const decoded = await decodeImage(small, MAX_PIXELS);
    expect(ocrScale(decoded.gray, decoded.density)).to.equal(undefined);
    const prep = await prepareForOcr(decoded.gray, undefined);
    expect(prep.glyph_px).to.be.below(18);
    expect(prep.scale).to.be.above(1.5).and.at.most(2);
    expect(prep.gray.width).to.be.above(decoded.gray.width * 1.5);
    const a = await analyzeDocument(small);
    expect(misses(CARD, a)).to.deep.equal([]);
  });
});

describe('PDF417 barcodes', function () {
  this.timeout(120_000);

  it("a digital license back: the barcode is read from the page's image, no page rendered", async () => {
    const pdf = corpusBytes(corpusDoc(BACK_PDF));
    const images = await pageImages(await opened(pdf), 0, MAX_PIXELS);
    expect(images).to.have.length.at.least(1);
    const records = (await Promise.all(images.map(readPdf417)))
      .flat()
      .map(parseAamva)
      .filter((r) => r);
    expect(records[0]?.license_number).to.equal(corpusDoc(BACK_PDF).expected.license_number);
    const a = await analyzeDocument(pdf);
    expect(a.pages[0]!.source).to.equal('text_layer');
    expect(steps(a)).to.include('barcode').and.not.include('rasterize');
    expect(a.barcode?.license_number).to.equal(corpusDoc(BACK_PDF).expected.license_number);
    expect(misses(BACK_PDF, a)).to.deep.equal([]);
  });

  it('a scanned license back PDF: the barcode is read from the image decoded out of the PDF', async () => {
    const a = await analyzeDocument(await scanPdf(corpusBytes(corpusDoc(BACK)), 'png'));
    expect(steps(a)).to.include.members(['image_from_pdf', 'barcode']);
    expect(steps(a)).to.not.include('rasterize');
    expect(a.document_type).to.equal('DRIVER_LICENSE_BACK');
    expect(a.barcode?.license_number).to.equal(corpusDoc(BACK).expected.license_number);
    expect(misses(BACK, a)).to.deep.equal([]);
  });

  it('a 300-dpi page (over 2.5 MP): found at half size, or at full size when its modules are too fine for half', async () => {
    const back = corpusBytes(corpusDoc(BACK));
    const onPage = async (card: Buffer) =>
      gray(
        await sharp({ create: { width: 2550, height: 3300, channels: 3, background: '#ffffff' } })
          .composite([{ input: card, left: 700, top: 900 }])
          .png()
          .toBuffer(),
      );
    const want = await readPdf417(await gray(back));
    expect(want).to.have.length(1);
    expect(parseAamva(want[0]!)?.license_number).to.equal(corpusDoc(BACK).expected.license_number);

    expect(await readPdf417(await onPage(back))).to.deep.equal(want);

    // the card at half its size on the page: modules of about 1.5 px, which a half-size search cannot resolve
    const fine = await onPage(await sharp(back).resize(507).png().toBuffer());
    const halved = await sharp(fine.data, { raw: { width: fine.width, height: fine.height, channels: 1 } })
      .resize(1275, 1650, { kernel: 'linear' })
      .png()
      .toBuffer();
    expect(await readPdf417(await gray(halved)), 'the half-size search alone').to.deep.equal([]);
    expect(await readPdf417(fine)).to.deep.equal(want);
  });
});
