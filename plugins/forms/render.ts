/**
 * Rendering a plan: each form from its official template when the state has
 * one and the file is found, otherwise from the shared drawn layout; then the
 * final packet. Pure (no storage, no entry changes): the stage stores the
 * results, and the tester and the bench call this directly.
 */
import type { FormKind, FormValues, StatePlugin, TemplateSpec } from '../../states/types.js';
import { FORM_CATALOG, type Signer } from './layouts/index.js';
import { header, type LayoutContext } from './layouts/common.js';
import { buildPacket, type PacketPart, type PacketRange, type PacketSource } from './packet.js';
import { layout, type DrawnForm, type SignatureBox } from './pdf/draw.js';
import { appendForm, attachPrefix } from './pdf/append.js';
import { freezeStreams, save } from './pdf/document.js';
import { saveIncremental } from './pdf/incremental.js';
import { compressPage, writePdf } from './pdf/writer.js';
import { fillOverlay } from './pdf/overlay.js';
import { fillTemplate, flattenForm, type FillReport, type TemplateStore } from './pdf/template.js';
import type { FormPlan } from './select.js';
import { resolveFlag } from './resolve.js';
import { valuesForSigner } from './values.js';

export interface RenderedFile {
  kind: FormKind;
  /** For per-signer forms: the signer's position in the array and who it is. */
  signer?: { index: number; id: string; name: string; role: string };
  /** `state`: the form filed (official template or the state's drawn version); `generic`: the state-neutral drawn version. */
  variant: 'state' | 'generic';
  source: 'template' | 'drawn';
  template?: { file: string; name: string; path: string };
  /** What the template fill wrote (fields, sizes, truncations). */
  report?: FillReport;
  /** Why a template could not be used and the form was drawn instead. */
  templateError?: string;
  title: string;
  pdf: Uint8Array;
  pages: number;
  /** What the packet takes: the drawn pages, or the flattened template's pages. */
  packet: PacketSource;
  /** Where each signature goes (drawn forms; the signing plugin places signatures there). */
  signatures?: SignatureBox[];
}

export interface RenderResult {
  files: RenderedFile[];
  errors: { form: FormKind; signer?: string; message: string }[];
  packet?: { pdf: Uint8Array; pages: number; ranges: PacketRange[]; indices: string };
}

/** The drawn form of a layout context (title, subtitle, footer, blocks), before layout. */
export function drawnForm(ctx: LayoutContext): DrawnForm {
  const entry = FORM_CATALOG[ctx.kind];
  return { ...header(ctx, entry.layout.title), blocks: entry.layout.build(ctx) };
}

/** Draws a form from the shared layout: its PDF and its compressed pages (for the packet). */
export function renderDrawn(ctx: LayoutContext): {
  pdf: Uint8Array;
  pages: Buffer[];
  title: string;
  signatures: SignatureBox[];
} {
  const form = drawnForm(ctx);
  const laid = layout(form);
  const pages = laid.pages.map(compressPage);
  const pdf = writePdf(pages, {
    title: form.title,
    subject: `${ctx.kind} (${ctx.generic ? 'generic' : ctx.state.code})`,
  });
  return { pdf, pages, title: form.title, signatures: laid.signatures };
}

/** The signature boxes an official template declares, for the people the form's values name (PDF points, bottom-left origin). */
function templateSignatures(
  spec: TemplateSpec,
  values: FormValues,
  height: (page: number) => number,
  pages: number,
): SignatureBox[] | undefined {
  if (!spec.signatures) return undefined;
  return spec.signatures
    .filter((s) => s.page < pages && values[s.signer]?.name)
    .map((s) => {
      const [left, top, right, bottom] = s.box;
      return {
        page: s.page,
        x: left,
        y: height(s.page) - bottom,
        width: right - left,
        height: bottom - top,
        role: s.role,
        name: values[s.signer].name,
        ...(s.date ? { date: { x: s.date[0], width: s.date[1] - s.date[0] } } : {}),
      };
    });
}

async function renderOne(
  kind: FormKind,
  state: StatePlugin,
  values: FormValues,
  templates: TemplateStore | null,
  packet?: LayoutContext['packet'],
): Promise<Omit<RenderedFile, 'variant' | 'signer'>> {
  const spec = state.templates[kind];
  let templateError: string | undefined;
  if (spec && templates && (!spec.when || resolveFlag(values, spec.when))) {
    try {
      const found = await templates.open(spec.file);
      if (found) {
        const { doc, report } = spec.overlay
          ? await fillOverlay(found.doc, spec, values)
          : await fillTemplate(found.doc, spec, values);
        for (const att of spec.attach ?? []) {
          if (att.when && !resolveFlag(values, att.when)) continue;
          const other = await templates.open(att.file);
          if (!other) continue; // an attached form whose file is absent is left out (the main form is still the official one)
          const filled = await fillTemplate(other.doc, att, values);
          await appendForm(doc, filled.doc, attachPrefix(att.file));
          report.text.push(...filled.report.text.map((t) => ({ ...t, field: `${attachPrefix(att.file)}.${t.field}` })));
        }
        freezeStreams(doc);
        // the prepared template's bytes and an update with what the fill changed (a full save is several times slower)
        const pdf = (await saveIncremental(found.base.doc, found.base.bytes, doc)) ?? (await save(doc));
        const pages = doc.getPageCount();
        const signatures = templateSignatures(spec, values, (i) => doc.getPage(i).getHeight(), pages);
        flattenForm(doc);
        freezeStreams(doc);
        return {
          kind,
          source: 'template',
          template: { file: spec.file, name: spec.name, path: found.path },
          report,
          title: spec.name,
          pdf,
          pages,
          packet: { doc, base: found.base.doc, pages: (spec.pages ?? doc.getPageIndices()).filter((i) => i < pages) },
          ...(signatures ? { signatures } : {}),
        };
      }
    } catch (e) {
      templateError = e instanceof Error ? e.message : String(e);
    }
  }
  const ctx: LayoutContext = { kind, values, state, spec: state.drawn[kind] ?? {}, generic: false, packet };
  const d = renderDrawn(ctx);
  return {
    kind,
    source: 'drawn',
    title: d.title,
    pdf: d.pdf,
    pages: d.pages.length,
    packet: { drawn: d.pages },
    signatures: d.signatures,
    ...(templateError ? { templateError } : {}),
  };
}

function renderGeneric(
  kind: FormKind,
  state: StatePlugin,
  values: FormValues,
): Omit<RenderedFile, 'variant' | 'signer'> {
  const d = renderDrawn({ kind, values, state, spec: {}, generic: true });
  return {
    kind,
    source: 'drawn',
    title: d.title,
    pdf: d.pdf,
    pages: d.pages.length,
    packet: { drawn: d.pages },
    signatures: d.signatures,
  };
}

const signerRef = (s: Signer, index: number) => ({
  index,
  id: s.person.id || `signer-${index + 1}`,
  name: s.person.name,
  role: s.role,
});

/** Renders every form of a plan and the final packet. A form that fails is reported and left out; the others go on. */
export async function renderPlan(
  plan: FormPlan,
  templates: TemplateStore | null,
  o: { packet?: boolean } = {},
): Promise<RenderResult> {
  const { state, values } = plan;
  if (!state || !values || plan.skipped) return { files: [], errors: [] };
  const files: RenderedFile[] = [];
  const errors: RenderResult['errors'] = [];
  for (const kind of plan.forms) {
    if (kind === 'form_instructions') continue; // last: it lists the others
    const entry = FORM_CATALOG[kind];
    try {
      if (entry.signers) {
        const signers = entry.signers(plan.signers);
        for (const [index, s] of signers.entries()) {
          const v = valuesForSigner(values, s);
          const ref = signerRef(s, index);
          files.push({ ...(await renderOne(kind, state, v, templates)), variant: 'state', signer: ref });
          files.push({ ...renderGeneric(kind, state, v), variant: 'generic', signer: ref });
        }
      } else {
        files.push({ ...(await renderOne(kind, state, values, templates)), variant: 'state' });
      }
    } catch (e) {
      errors.push({ form: kind, message: e instanceof Error ? e.message : String(e) });
    }
  }
  if (plan.forms.includes('form_instructions')) {
    const listed = files
      .filter((f) => f.variant === 'state')
      .map((f) => ({ key: f.kind, title: f.title, signer: f.signer?.name }));
    try {
      files.unshift({ ...(await renderOne('form_instructions', state, values, templates, listed)), variant: 'state' });
    } catch (e) {
      errors.push({ form: 'form_instructions', message: e instanceof Error ? e.message : String(e) });
    }
  }
  if (o.packet === false || !files.length) return { files, errors };
  const parts: PacketPart[] = files
    .filter((f) => f.variant === 'state')
    .map((f) => ({
      key: f.signer ? `${f.kind}[${f.signer.index}]` : f.kind,
      source: f.packet,
    }));
  const packet = await buildPacket(parts, `Final packet - ${state.name} - VIN ${values.vehicle.vin}`);
  return { files, errors, packet };
}
