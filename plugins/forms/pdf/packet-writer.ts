/**
 * Writing a packet that holds filled official templates without pdf-lib's
 * copyPages and save: a template's pages and what they reach are written
 * straight from the filled document, renumbered into the packet. An object the
 * fill left as it is in the prepared template (fonts, images, the pages'
 * original content streams: most of the bytes) is written from its
 * serialization kept per prepared template (made once per process); only
 * what the fill and the flattening changed is serialized per packet. An
 * unchanged object without references (content streams, font files, images)
 * is written once per packet even when two copies of a template (one per
 * signer) use it.
 */
import { PDFArray, PDFDict, PDFName, PDFPageLeaf, PDFRawStream, PDFRef, PDFStream } from 'pdf-lib';
import type { PDFDocument, PDFObject } from 'pdf-lib';
import { PAGE } from './draw.js';
import { FONT_RESOURCES } from './fonts.js';
import { entriesOf } from './clone.js';
import { same } from './incremental.js';
import { textString } from './writer.js';

/** A serialized object: PDF syntax (latin1 text), raw bytes (stream contents) and references still to number. */
type Segment = string | Uint8Array | PDFRef;
interface Serialized {
  segments: Segment[];
  /** It references nothing: one copy serves every part of a packet. */
  leaf: boolean;
}

/** What goes into a packet: drawn pages (compressed content streams), or pages of a filled template. */
export type PacketInput =
  | { drawn: readonly Buffer[] }
  /** `base`: the prepared template `doc` is a filled copy of (same object numbers), when there is one. */
  | { doc: PDFDocument; pages: readonly number[]; base?: PDFDocument };

/** The serialized objects of each prepared template (kept as long as the template is cached). */
const cache = new WeakMap<PDFDocument, WeakMap<PDFObject, Serialized>>();

const LENGTH = PDFName.of('Length');
const PARENT = PDFName.of('Parent');
const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((k) => PDFName.of(k));

function dictBody(dict: PDFDict, out: Segment[], skip?: PDFName): void {
  for (const [k, v] of entriesOf(dict)) {
    if (k === skip) continue;
    out.push(` ${k.toString()} `);
    serialize(v, out);
  }
}

/** Appends `obj` as PDF syntax; references stay PDFRef segments. */
function serialize(obj: PDFObject, out: Segment[]): void {
  if (obj instanceof PDFRef) out.push(obj);
  else if (obj instanceof PDFDict) {
    out.push('<<');
    dictBody(obj, out);
    out.push(' >>');
  } else if (obj instanceof PDFArray) {
    out.push('[');
    for (let i = 0; i < obj.size(); i++) {
      if (i) out.push(' ');
      serialize(obj.get(i), out);
    }
    out.push(']');
  } else if (obj instanceof PDFStream) {
    // a stream pdf-lib made (not frozen) encodes its contents and fills its dictionary as it is written
    if (!(obj instanceof PDFRawStream)) obj.updateDict();
    const contents = obj instanceof PDFRawStream ? obj.contents : obj.getContents();
    out.push('<<');
    dictBody(obj.dict, out, LENGTH);
    out.push(` /Length ${contents.length} >>\nstream\n`, contents, '\nendstream');
  } else {
    const text = obj.toString();
    if (text.length === obj.sizeInBytes()) out.push(text);
    else {
      // an object pdf-lib kept as the file's bytes (PDFInvalidObject)
      const bytes = new Uint8Array(obj.sizeInBytes());
      obj.copyBytesInto(bytes, 0);
      out.push(bytes);
    }
  }
}

function serialized(obj: PDFObject): Serialized {
  const segments: Segment[] = [];
  serialize(obj, segments);
  return { segments, leaf: !segments.some((s) => s instanceof PDFRef) };
}

/** An unchanged object of a prepared template, serialized once. */
function cached(base: PDFDocument, obj: PDFObject): Serialized {
  let objects = cache.get(base);
  if (!objects) cache.set(base, (objects = new WeakMap()));
  let hit = objects.get(obj);
  if (!hit) objects.set(obj, (hit = serialized(obj)));
  return hit;
}

/** A page of a template, standing alone: no parent (the packet's page tree is), inherited attributes its own. */
function pageSegments(page: PDFPageLeaf, tree: number): Segment[] {
  const out: Segment[] = ['<<'];
  dictBody(page, out, PARENT);
  for (const key of INHERITABLE) {
    if (page.has(key)) continue;
    const inherited = page.getInheritableAttribute(key);
    if (!inherited) continue;
    out.push(` ${key.toString()} `);
    serialize(inherited, out);
  }
  out.push(` /Parent ${tree} 0 R >>`);
  return out;
}

/** The packet file: objects appended as they are reached, a classic cross-reference table. */
class PacketFile {
  private readonly chunks: Uint8Array[] = [];
  private text = '';
  private size = 0;
  private readonly offsets: number[] = [];
  private count = 0;

  /** A new object number. */
  alloc(): number {
    return ++this.count;
  }

  private push(s: string | Uint8Array): void {
    if (typeof s === 'string') this.text += s;
    else {
      if (this.text) this.chunks.push(Buffer.from(this.text, 'latin1'));
      this.text = '';
      this.chunks.push(s);
    }
    this.size += s.length;
  }

  /** Writes object `n`; `number` gives each reference's number in the packet (null: written as null). */
  object(n: number, body: readonly Segment[], number: (ref: PDFRef) => number | null = () => null): void {
    this.offsets[n] = this.size;
    this.push(`${n} 0 obj\n`);
    for (const s of body) {
      if (!(s instanceof PDFRef)) this.push(s);
      else {
        const target = number(s);
        this.push(target === null ? 'null' : `${target} 0 R`);
      }
    }
    this.push('\nendobj\n');
  }

  start(): void {
    this.push('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n');
  }

  finish(): Uint8Array {
    const xref = this.size;
    let table = `xref\n0 ${this.count + 1}\n0000000000 65535 f \n`;
    for (let n = 1; n <= this.count; n++) table += `${String(this.offsets[n]).padStart(10, '0')} 00000 n \n`;
    this.push(`${table}trailer\n<< /Size ${this.count + 1} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
    this.push(new Uint8Array(0));
    return Buffer.concat(this.chunks, this.size);
  }
}

/** Writes a template's chosen pages and everything they reach; returns the pages' numbers in the packet. */
function writeTemplate(
  file: PacketFile,
  src: Extract<PacketInput, { doc: PDFDocument }>,
  tree: number,
  shared: Map<PDFObject, number>,
): number[] {
  const { doc, base } = src;
  const numbers = new Map<string, number>();
  const queue: [number, Segment[]][] = [];
  const all = doc.getPages();
  const chosen = src.pages.map((i) => all[i]!);
  for (const page of chosen) numbers.set(page.ref.tag, file.alloc());
  const number = (ref: PDFRef): number | null => {
    const known = numbers.get(ref.tag);
    if (known !== undefined) return known;
    const obj = doc.context.lookup(ref);
    // a page not chosen (a link to it) is not pulled in, nor is the template's page tree through it
    if (obj === undefined || obj instanceof PDFPageLeaf) return null;
    const before = base?.context.lookup(ref);
    const unchanged = before !== undefined && same(before, obj);
    const ser = unchanged ? cached(base!, before) : serialized(obj);
    let n = unchanged && ser.leaf ? shared.get(before) : undefined;
    if (n === undefined) {
      n = file.alloc();
      queue.push([n, ser.segments]);
      if (unchanged && ser.leaf) shared.set(before, n);
    }
    numbers.set(ref.tag, n);
    return n;
  };
  for (const page of chosen) file.object(numbers.get(page.ref.tag)!, pageSegments(page.node, tree), number);
  for (let i = 0; i < queue.length; i++) file.object(queue[i]![0], queue[i]![1], number);
  return chosen.map((p) => numbers.get(p.ref.tag)!);
}

/** One PDF of drawn pages and template pages, in order (drawn pages get the standard Helvetica fonts). */
export function writePacket(parts: readonly PacketInput[], meta: { title: string; subject?: string }): Uint8Array {
  const file = new PacketFile();
  file.start();
  const [catalog, tree, info] = [file.alloc(), file.alloc(), file.alloc()];
  const fonts = Object.values(FONT_RESOURCES).map((f) => ({ ...f, n: file.alloc() }));
  file.object(catalog, [`<< /Type /Catalog /Pages ${tree} 0 R >>`]);
  const subject = meta.subject ? ` /Subject ${textString(meta.subject)}` : '';
  file.object(info, [`<< /Title ${textString(meta.title)}${subject} /Producer (titled) /Creator (titled forms) >>`]);
  for (const f of fonts)
    file.object(f.n, [`<< /Type /Font /Subtype /Type1 /BaseFont /${f.standard} /Encoding /WinAnsiEncoding >>`]);
  const fontDict = fonts.map((f) => `/${f.resource} ${f.n} 0 R`).join(' ');
  const kids: number[] = [];
  const shared = new Map<PDFObject, number>();
  for (const part of parts) {
    if ('doc' in part) {
      kids.push(...writeTemplate(file, part, tree, shared));
      continue;
    }
    for (const content of part.drawn) {
      const [page, stream] = [file.alloc(), file.alloc()];
      kids.push(page);
      file.object(page, [
        `<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}]`,
        ` /Resources << /Font << ${fontDict} >> /ProcSet [/PDF /Text] >> /Contents ${stream} 0 R >>`,
      ]);
      file.object(stream, [`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, content, '\nendstream']);
    }
  }
  file.object(tree, [`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`]);
  return file.finish();
}
