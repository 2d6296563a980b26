/**
 * pdf-lib documents, for what involves an official template: parse and save
 * options, and the streams a fill made turned into finished raw streams.
 */
import { deflateSync } from 'node:zlib';
import {
  ParseSpeeds,
  PDFContentStream,
  PDFName,
  PDFRawStream,
  type LoadOptions,
  type PDFDict,
  type PDFDocument,
} from 'pdf-lib';

/**
 * pdf-lib yields to the event loop every 50 objects by default (a
 * `setTimeout(0)` each, so at least 1 ms): a 2.3 MB template took 95 ms to
 * parse and 150 ms to save that way. These forms parse and save in one go.
 */
const OBJECTS_PER_TICK = Number.POSITIVE_INFINITY;
export const LOAD_OPTIONS: LoadOptions = { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest };

/** Saves without object streams: larger by a few percent, several times faster, readable by every PDF 1.4 reader. */
export function save(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false, objectsPerTick: OBJECTS_PER_TICK });
}

/** Streams shorter than this are stored as they are: compressing a field's appearance saves a few bytes and costs a deflate set-up. */
const STORE_BELOW = 1024;

/** A content stream's finished bytes: stored when short, else deflated. */
export function finishContents(plain: Uint8Array): { bytes: Uint8Array; deflated: boolean } {
  return plain.length < STORE_BELOW
    ? { bytes: plain, deflated: false }
    : { bytes: deflateSync(plain, { level: 6 }), deflated: true };
}

/** A raw stream of finished contents; `dict` gets the filter they need (none when stored). */
export function rawStream(dict: PDFDict, contents: { bytes: Uint8Array; deflated: boolean }): PDFRawStream {
  if (contents.deflated) dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  else dict.delete(PDFName.of('Filter'));
  return PDFRawStream.of(dict, contents.bytes);
}

/**
 * Turns the content streams pdf-lib made while filling (field appearances,
 * drawn overlays, flattened widgets) into finished raw streams: short ones
 * stored, longer ones deflated by node's zlib once. pdf-lib would deflate each
 * with its JavaScript zlib on every save and again for each copy made for the
 * packet; the set-up of each deflate was a tenth of a fill. The pages forget
 * their open content stream, so drawing after this starts a new one.
 */
export function freezeStreams(doc: PDFDocument): void {
  const ctx = doc.context;
  for (const [ref, obj] of ctx.enumerateIndirectObjects()) {
    if (obj instanceof PDFContentStream)
      ctx.assign(ref, rawStream(obj.dict, finishContents(obj.getUnencodedContents())));
  }
  for (const page of doc.getPages()) {
    const open = page as unknown as { contentStream?: unknown; contentStreamRef?: unknown };
    open.contentStream = undefined;
    open.contentStreamRef = undefined;
  }
}
