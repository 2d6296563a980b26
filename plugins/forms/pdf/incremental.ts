/**
 * Saving a filled template as an incremental update of the prepared template:
 * the prepared file's bytes as they are, then only the objects the fill
 * changed or added, a cross-reference section for them and a trailer pointing
 * back at the template's (`/Prev`), as PDF 1.7 section 7.5.6 describes. A
 * large official form has thousands of objects and a fill changes a few
 * hundred, so this writes a fraction of what a full save does; every reader
 * applies the update as it would a form saved by Acrobat.
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { entriesOf, INTERNED, sizeOf } from './clone.js';

/** Whether two objects write the same bytes (a stream's contents compared by identity: clones share them). */
export function same(a: PDFObject, b: PDFObject): boolean {
  if (a === b) return true;
  if (a instanceof PDFRawStream) return b instanceof PDFRawStream && a.contents === b.contents && same(a.dict, b.dict);
  if (a instanceof PDFDict) {
    if (!(b instanceof PDFDict) || a.constructor !== b.constructor) return false;
    if (sizeOf(a) !== sizeOf(b)) return false;
    for (const [k, v] of entriesOf(a)) {
      const w = b.get(k);
      if (v !== w && (w === undefined || INTERNED.has(v.constructor) || !same(v, w))) return false;
    }
    return true;
  }
  if (a instanceof PDFArray) {
    if (!(b instanceof PDFArray) || a.size() !== b.size()) return false;
    for (let i = 0, n = a.size(); i < n; i++) {
      const v = a.get(i);
      const w = b.get(i);
      if (v !== w && (INTERNED.has(v.constructor) || !same(v, w))) return false;
    }
    return true;
  }
  if (a instanceof PDFNumber) return b instanceof PDFNumber && a.asNumber() === b.asNumber();
  if (a instanceof PDFString || a instanceof PDFHexString)
    return a.constructor === b.constructor && a.toString() === b.toString();
  // names, references, booleans and null are interned (identity above);
  // other streams are pdf-lib's own, made by the fill
  return false;
}

/** The objects of `doc` (a filled copy of `base`, same object numbers) that `base` lacks or holds otherwise. */
function changedObjects(base: PDFDocument, doc: PDFDocument): [PDFRef, PDFObject][] {
  const out: [PDFRef, PDFObject][] = [];
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    const before = base.context.lookup(ref);
    if (before === undefined || !same(before, obj)) out.push([ref, obj]);
  }
  return out.sort(([a], [b]) => a.objectNumber - b.objectNumber);
}

const ascii = (s: string) => Buffer.from(s, 'latin1');

/** The cross-reference section of an update: one subsection per run of consecutive object numbers. */
function xrefSection(entries: readonly { ref: PDFRef; offset: number }[]): string {
  let out = 'xref\n';
  for (let i = 0; i < entries.length;) {
    let j = i + 1;
    while (j < entries.length && entries[j]!.ref.objectNumber === entries[j - 1]!.ref.objectNumber + 1) j++;
    out += `${entries[i]!.ref.objectNumber} ${j - i}\n`;
    for (const e of entries.slice(i, j))
      out += `${String(e.offset).padStart(10, '0')} ${String(e.ref.generationNumber).padStart(5, '0')} n \n`;
    i = j;
  }
  return out;
}

/**
 * `baseBytes` (the prepared template, a classic cross-reference table) with
 * an update holding what the fill changed in `doc`; null when the base's last
 * cross-reference offset cannot be read (the caller then saves in full).
 */
export async function saveIncremental(
  base: PDFDocument,
  baseBytes: Uint8Array,
  doc: PDFDocument,
): Promise<Uint8Array | null> {
  const tail = Buffer.from(baseBytes.subarray(Math.max(0, baseBytes.length - 64))).toString('latin1');
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!prev) return null;
  // what pdf-lib does at save time: fonts embedded, pages and images finished (their references are already in use)
  await doc.flush();
  const changed = changedObjects(base, doc);
  if (!changed.length) return baseBytes;
  const parts: Uint8Array[] = [baseBytes, ascii('\n')];
  let offset = baseBytes.length + 1;
  const entries: { ref: PDFRef; offset: number }[] = [];
  for (const [ref, obj] of changed) {
    entries.push({ ref, offset });
    const body = new Uint8Array(obj.sizeInBytes());
    obj.copyBytesInto(body, 0);
    const head = ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
    const foot = ascii('\nendobj\n');
    parts.push(head, body, foot);
    offset += head.length + body.length + foot.length;
  }
  const { Root, Info, ID } = doc.context.trailerInfo;
  const trailer = doc.context.obj({ Size: doc.context.largestObjectNumber + 1, Root, Info, ID, Prev: Number(prev[1]) });
  if (!ID) trailer.delete(PDFName.of('ID'));
  if (!Info) trailer.delete(PDFName.of('Info'));
  parts.push(ascii(`${xrefSection(entries)}trailer\n${trailer.toString()}\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}
