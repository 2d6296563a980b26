/**
 * A parsed template copied per fill: parsing a large official form costs more
 * than the fill itself, so a template is parsed once per process and every
 * fill works on a deep copy of its objects (streams' bytes are shared: pdf-lib
 * replaces a stream it changes, it never writes into one).
 */
import {
  PDFArray,
  PDFBool,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNull,
  PDFRawStream,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';

type DictClass = { fromMapWithContext(map: Map<never, never>, context: PDFContext): PDFDict };

/**
 * A dictionary's entries without a copy: PDFDict.entries() builds a new array
 * on every call, which was most of the time spent copying and comparing a
 * large form's objects; pdf-lib keeps them in a Map (`dict`), read here
 * (entries() when a version keeps them otherwise).
 */
export function entriesOf(d: PDFDict): Iterable<[PDFName, PDFObject]> & { readonly size?: number } {
  const map = (d as unknown as { dict?: unknown }).dict;
  return map instanceof Map ? (map as Map<PDFName, PDFObject>) : d.entries();
}

/** How many entries a dictionary has. */
export function sizeOf(d: PDFDict): number {
  const map = (d as unknown as { dict?: unknown }).dict;
  return map instanceof Map ? map.size : d.entries().length;
}

/** Whether a dictionary has the key at all (PDFDict.has is false for a /Null value; keys() builds an array). */
export function hasKey(d: PDFDict, key: PDFName): boolean {
  const map = (d as unknown as { dict?: unknown }).dict;
  return map instanceof Map ? map.has(key) : d.keys().includes(key);
}

/** The classes whose equal values are one object (PDFName.of, PDFRef.of, PDFBool, PDFNull): equal only if identical. */
export const INTERNED: ReadonlySet<unknown> = new Set([PDFName, PDFRef, PDFBool, PDFNull.constructor]);

function copy(obj: PDFObject, ctx: PDFContext): PDFObject {
  if (obj instanceof PDFRawStream) return PDFRawStream.of(copy(obj.dict, ctx) as PDFDict, obj.contents);
  if (obj instanceof PDFDict) {
    const map = new Map();
    for (const [k, v] of entriesOf(obj)) map.set(k, copy(v, ctx));
    // keep the class (PDFCatalog, PDFPageTree, PDFPageLeaf): pdf-lib relies on it
    return (obj.constructor as unknown as DictClass).fromMapWithContext(map as Map<never, never>, ctx);
  }
  if (obj instanceof PDFArray) {
    const arr = PDFArray.withContext(ctx);
    for (let i = 0; i < obj.size(); i++) arr.push(copy(obj.get(i), ctx));
    return arr;
  }
  // names, numbers, strings, booleans, null and references are immutable: shared
  return obj;
}

/** The document each copy was made from. */
const sources = new WeakMap<PDFDocument, PDFDocument>();

/** The document `doc` is a copy of ({@link cloneDocument}), if it is one. */
export function sourceOf(doc: PDFDocument): PDFDocument | undefined {
  return sources.get(doc);
}

/** A new document holding a deep copy of `src`'s objects (same object numbers). */
export function cloneDocument(src: PDFDocument): PDFDocument {
  const ctx = PDFContext.create();
  ctx.largestObjectNumber = src.context.largestObjectNumber;
  ctx.header = src.context.header;
  ctx.trailerInfo = { ...src.context.trailerInfo };
  for (const [ref, obj] of src.context.enumerateIndirectObjects()) ctx.assign(ref, copy(obj, ctx));
  const Ctor = PDFDocument as unknown as new (
    context: PDFContext,
    ignoreEncryption: boolean,
    updateMetadata: boolean,
  ) => PDFDocument;
  const doc = new Ctor(ctx, false, false);
  sources.set(doc, src);
  return doc;
}
