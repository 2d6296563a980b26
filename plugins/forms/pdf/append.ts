/**
 * Official forms filed together in one file (North Carolina's MVR-181 with its MVR-180):
 * the pages of a filled form are appended to another filled form, and its
 * fields move under one parent field named by a prefix (`MVR-181.Year`), so two
 * forms' field names never collide and the file stays fillable.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, type PDFDocument } from 'pdf-lib';

/** Appends every page of `src` to `target`, its fields under a parent field named `prefix`. */
export async function appendForm(target: PDFDocument, src: PDFDocument, prefix: string): Promise<void> {
  const pages = await target.copyPages(src, src.getPageIndices());
  const roots: PDFRef[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    target.addPage(page);
    const annots = page.node.Annots();
    for (let i = 0; i < (annots?.size() ?? 0); i++) {
      const ref = annots!.get(i);
      if (!(ref instanceof PDFRef)) continue;
      const annot = target.context.lookup(ref);
      if (!(annot instanceof PDFDict) || annot.get(PDFName.of('Subtype'))?.toString() !== '/Widget') continue;
      let dict: PDFDict = annot;
      let root = ref;
      for (
        let parent = dict.get(PDFName.of('Parent'));
        parent instanceof PDFRef;
        parent = dict.get(PDFName.of('Parent'))
      ) {
        root = parent;
        dict = target.context.lookup(parent, PDFDict);
      }
      if (dict.has(PDFName.of('T')) && !seen.has(root.toString())) {
        seen.add(root.toString());
        roots.push(root);
      }
    }
  }
  if (!roots.length) return;
  const group = target.context.register(target.context.obj({ T: PDFString.of(prefix), Kids: roots }));
  for (const r of roots) target.context.lookup(r, PDFDict).set(PDFName.of('Parent'), group);
  const acro = target.getForm().acroForm;
  const fields = acro.dict.lookup(PDFName.of('Fields'));
  if (fields instanceof PDFArray) fields.push(group);
  else acro.dict.set(PDFName.of('Fields'), target.context.obj([group]));
}

/** The prefix an attached template's fields take: its file's base name (`nc/MVR-181.pdf` -> `MVR-181`). */
export const attachPrefix = (file: string): string => file.replace(/^.*\//, '').replace(/\.pdf$/i, '');
