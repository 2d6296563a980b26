/**
 * The ocr stage's options (`plugins.ocr` in config), validated once when the
 * stage is built. Every limit has a default; docs/ocr.md lists them.
 */
import { z } from 'zod';
import { definePluginOptions } from '../../core/plugin-api.js';

const OcrOptions = definePluginOptions('ocr', {
  /** Largest document fetched, in bytes (the download stops there). */
  maxDocumentBytes: z
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  /** Documents an entry may hold; more are rejected on the entry. */
  maxDocuments: z.number().int().positive().max(500).default(20),
  /** Time limit of one download, from connecting to the last byte. */
  fetchTimeoutMs: z.number().int().positive().default(30_000),
  /** Redirects followed per download (each target passes the URL guard again). */
  maxRedirects: z.number().int().min(0).max(10).default(5),
  /** Pages read per document. */
  maxPages: z.number().int().positive().max(200).default(10),
  /** Tesseract processes at once in this process (default: one per core). */
  ocrConcurrency: z.number().int().positive().max(64).optional(),
  /** Time limit of one page's OCR and of one poppler call. */
  ocrTimeoutMs: z.number().int().positive().default(120_000),
  /** Time limit of the whole stage run (every document of the job). */
  stageTimeoutMs: z.number().int().positive().default(900_000),
  /** Documents fetched and analyzed at once within one job. */
  parallelDocuments: z.number().int().positive().max(32).default(4),
});
export const OcrOptionsSchema = OcrOptions.schema;

export type OcrOptions = z.infer<typeof OcrOptionsSchema>;

export function parseOcrOptions(raw: unknown): OcrOptions {
  return OcrOptions.parse(raw);
}
