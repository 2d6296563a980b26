import { readFile } from 'node:fs/promises';
import { UsageError, print, type Command } from '../command.js';

/** `titled extract FILE`: classification and extracted fields of a local document, as JSON (the ocr stage's code path). */
export const extract: Command = {
  name: 'extract',
  summary: 'classify a document (PDF, JPEG, PNG) and print its extracted fields as JSON',
  usage: 'extract FILE [--compact] [--max-pages N]',
  details: [
    'Reads FILE the way the ocr stage reads an uploaded document (plugins/ocr/analyze.ts): the text layer of',
    'a PDF, else 300-dpi OCR with tesseract; classifies it (document_type) and prints fields, the account_data',
    'it would contribute, the VIN read and repair, the license barcode, pages and warnings. No engine, no database.',
    'Exit code 1 when the file is not a PDF, JPEG or PNG, or cannot be read.',
  ].join('\n'),
  options: { compact: { type: 'boolean' }, 'max-pages': { type: 'string' } },
  optionHelp: [
    ['--compact', 'one line of JSON'],
    ['--max-pages N', 'pages read (default 10)'],
  ],
  positionals: [1, 1],
  async run({ values, positionals }) {
    const file = positionals[0]!;
    const maxPages = values['max-pages'] === undefined ? undefined : Number(values['max-pages']);
    if (maxPages !== undefined && (!Number.isInteger(maxPages) || maxPages < 1))
      throw new UsageError(`--max-pages must be a positive whole number (got '${String(values['max-pages'])}')`);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (e) {
      throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const { analyzeDocument } = await import('../../plugins/ocr/analyze.js');
    const a = await analyzeDocument(bytes, { maxPages });
    const out = { file, ...a };
    print(values.compact ? JSON.stringify(out) : JSON.stringify(out, null, 2));
  },
};
