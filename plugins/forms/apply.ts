/**
 * Storing a render and writing its form fields into the entry: every
 * `form_*` key, the per-signer arrays, the final packet and its indices,
 * `form_updates` (one metadata file per form key, rewritten on each
 * regeneration) and the `form_downloads` counters of new keys.
 */
import { createHash } from 'node:crypto';
import type { TitleEntry, EntryObjects } from '../../core/plugin-api.js';
import { FORM_KEYS, SIGNER_FORM_KEYS, type FormKind } from '../../states/types.js';
import type { FormPlan } from './select.js';
import type { RenderResult, RenderedFile } from './render.js';

/** Entry members this plugin owns (removed when a generation no longer has them). */
export const OWNED_KEYS: readonly string[] = [
  ...FORM_KEYS,
  ...SIGNER_FORM_KEYS,
  'form_final_packet',
  'final_packet_indices',
];

interface SignerFormItem {
  signer_name: string;
  form_generic: string;
  signer_id: string;
  form: string;
}

const slug = (s: string) =>
  s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 60) || 'signer';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Object names (relative to the entry's storeIndex) of a form file. */
function objectName(f: Pick<RenderedFile, 'kind' | 'signer' | 'variant'>): string {
  if (!f.signer) return `forms/${f.kind}.pdf`;
  return `forms/${f.kind}/${f.signer.index}-${slug(f.signer.id)}${f.variant === 'generic' ? '-generic' : ''}.pdf`;
}
const updatesName = (key: string) => `forms/updates/${key}.json`;

interface UpdateMeta {
  form_key: string;
  generation: number;
  generated_at: string;
  entryId: string;
  state: string;
  transactions: string[];
  trigger: string;
  packet_pages?: string;
  files: Record<string, unknown>[];
  history: { generation: number; generated_at: string; trigger: string; sha256: string[] }[];
}

async function previous(objects: EntryObjects, key: string): Promise<UpdateMeta | null> {
  try {
    const raw = await objects.get(updatesName(key));
    return raw ? (JSON.parse(raw.toString('utf8')) as UpdateMeta) : null;
  } catch {
    return null; // an unreadable metadata file starts a new history
  }
}

/** Stores the render's files and sets the entry's form members; returns the form keys written. */
export async function applyRender(
  entry: TitleEntry,
  objects: EntryObjects,
  plan: FormPlan,
  result: RenderResult,
  o: { trigger: string; historyLimit: number; now?: Date },
): Promise<string[]> {
  const now = (o.now ?? new Date()).toISOString();
  const keys: Record<string, string> = {};
  await Promise.all(
    result.files.map(async (f) => {
      keys[objectName(f)] = await objects.put(
        objectName(f),
        Buffer.from(f.pdf.buffer, f.pdf.byteOffset, f.pdf.byteLength),
      );
    }),
  );
  const packetKey = result.packet
    ? await objects.put('forms/form_final_packet.pdf', Buffer.from(result.packet.pdf))
    : undefined;

  const byKind = new Map<FormKind, RenderedFile[]>();
  for (const f of result.files) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  for (const k of OWNED_KEYS) delete entry[k];
  for (const [kind, files] of byKind) {
    if ((SIGNER_FORM_KEYS as readonly string[]).includes(kind)) {
      const items: SignerFormItem[] = [];
      for (const f of files.filter((x) => x.variant === 'state')) {
        const generic = files.find((x) => x.variant === 'generic' && x.signer?.index === f.signer!.index);
        items.push({
          signer_name: f.signer!.name,
          form_generic: keys[objectName(generic ?? f)]!,
          signer_id: f.signer!.id,
          form: keys[objectName(f)]!,
        });
      }
      entry[kind] = items;
    } else {
      entry[kind] = keys[objectName(files[0]!)];
    }
  }
  if (packetKey && result.packet) {
    entry.form_final_packet = packetKey;
    entry.final_packet_indices = result.packet.indices;
  }

  // form_updates: one metadata file per form key, its generation counted up and its history kept
  const written = [...byKind.keys(), ...(packetKey ? ['form_final_packet'] : [])];
  const ranges = result.packet?.ranges ?? [];
  const updates: Record<string, string> = {};
  await Promise.all(
    written.map(async (key) => {
      const prev = await previous(objects, key);
      const files =
        key === 'form_final_packet' && result.packet
          ? [
              {
                key: packetKey,
                pages: result.packet.pages,
                bytes: result.packet.pdf.byteLength,
                sha256: sha256(result.packet.pdf),
              },
            ]
          : (byKind.get(key as FormKind) ?? []).map((f) => ({
              key: keys[objectName(f)],
              variant: f.variant,
              source: f.source,
              title: f.title,
              pages: f.pages,
              bytes: f.pdf.byteLength,
              sha256: sha256(f.pdf),
              ...(f.signer ? { signer_id: f.signer.id, signer_name: f.signer.name, signer_role: f.signer.role } : {}),
              ...(f.template ? { template: { file: f.template.file, name: f.template.name } } : {}),
              ...(f.report?.truncated.length ? { truncated_fields: f.report.truncated } : {}),
              ...(f.templateError ? { template_error: f.templateError } : {}),
              ...(f.signatures?.length ? { signature_boxes: f.signatures } : {}),
            }));
      const generation = (prev?.generation ?? 0) + 1;
      const pagesOf = ranges
        .filter((r) => r.key === key || r.key.startsWith(`${key}[`))
        .map((r) => `${r.key}:${r.first === r.last ? r.first : `${r.first}-${r.last}`}`)
        .join(',');
      const meta: UpdateMeta = {
        form_key: key,
        generation,
        generated_at: now,
        entryId: entry.entryId,
        state: plan.state?.code ?? '',
        transactions: plan.transactions,
        trigger: o.trigger,
        ...(pagesOf ? { packet_pages: pagesOf } : {}),
        files,
        history: [
          { generation, generated_at: now, trigger: o.trigger, sha256: files.map((f) => String(f.sha256)) },
          ...(prev?.history ?? []),
        ].slice(0, Math.max(1, o.historyLimit)),
      };
      updates[key] = await objects.put(updatesName(key), JSON.stringify(meta, null, 2));
    }),
  );
  entry.form_updates = Object.fromEntries(
    Object.keys(updates)
      .sort()
      .map((k) => [k, updates[k]!]),
  );

  const downloads = { ...(entry.form_downloads as Record<string, number> | undefined) };
  let added = false;
  for (const k of written) {
    if (downloads[k] === undefined) {
      downloads[k] = 0;
      added = true;
    }
  }
  if (added || !entry.form_downloads) entry.form_downloads = downloads;
  return written;
}
