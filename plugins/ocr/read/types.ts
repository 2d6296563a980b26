/**
 * What reading a document gives: pages of words with boxes. Coordinates are
 * pixels at 300 dpi whatever the source (a text layer's points are scaled),
 * so layout thresholds mean the same on every page.
 */

/** A grayscale raster, one byte per pixel. */
export interface Gray {
  data: Buffer;
  width: number;
  height: number;
}

export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0-100; 100 for a text layer. */
  conf: number;
}

export interface PageText {
  /** 1-based page number within the document. */
  page: number;
  width: number;
  height: number;
  source: 'text_layer' | 'ocr';
  words: Word[];
  /** The page's raster, kept while the document is analyzed (barcodes, VIN re-reads); never stored. */
  raster?: Gray;
  /** Where the raster's top-left corner lies on the page (an OCR page may be cropped to its print); 0,0 when absent. */
  origin?: { x: number; y: number };
  /** Degrees the page was turned by before OCR (orientation and deskew). */
  rotated?: number;
  /** The PDF417 symbols of a license back, read before OCR from the page at its own scale (analyze.ts `ocrPage`). */
  pdf417?: string[];
  /** Mean word confidence (OCR pages). */
  mean_conf?: number;
}

/** Pixels per point: coordinates are 300-dpi pixels, a PDF point is 1/72 inch. */
export const PX_PER_PT = 300 / 72;
