/**
 * Who signs what, when the request does not say: every person the forms
 * plugin made a power of attorney for (each signer of the title's forms: an
 * AND co-owner gets his own), each with the generated forms that need him —
 * his own per-signer forms, and every single form whose signature lines name
 * him (the forms plugin records the lines in the form's metadata file).
 */
import { namesMatch, personName, type TitleEntry, type EntryObjects } from '../../core/plugin-api.js';
import type { Box } from './store.js';

export interface PlannedSigner {
  signerId: string;
  name: string;
  person: Record<string, unknown>;
}
export interface PlannedDocument {
  name: string;
  filename: string;
  key: string;
  signerIds: string[];
  boxes: Box[];
}

const SIGNER_FORMS = ['forms_poa', 'forms_name_oats', 'forms_non_obligor'] as const;
/** Single forms an owner signs; an official template without recorded lines is signed by every signer. */
const OWNER_FORMS = [
  'form_title_application',
  'form_odometer_disclosure',
  'form_statement_of_fact',
  'form_addr_oats',
  'form_duplicate_title',
  'form_ohv_declaration',
  'form_low_speed_affidavit',
  'form_vin_verification',
];

interface SignerFormItem {
  signer_name: string;
  signer_id: string;
  form: string;
}
interface MetaFile {
  key?: string;
  variant?: string;
  signer_id?: string;
  signature_boxes?: (Omit<Box, 'signer_id'> & { name: string })[];
}

/** Every person of the account data, to find a signer's contact details. */
function people(entry: TitleEntry): Record<string, unknown>[] {
  const ad = entry.account_data as Record<string, any>;
  return [
    ...(ad.vehicle?.title?.owners ?? []),
    ...(ad.loan?.borrower ?? []),
    ...(ad.loan?.add_owner ?? []),
    ...(ad.sale?.buyers ?? []),
  ];
}

function findPerson(entry: TitleEntry, id: string, name: string): Record<string, unknown> {
  const all = people(entry);
  const byId = all.find((p) => p.id && p.id === id);
  const byName = all.filter((p) => namesMatch(personName(p as never), name));
  // the richest record of that person (contact details come from the loan more often than from the title)
  const merged: Record<string, unknown> = {};
  for (const p of [...byName].reverse())
    Object.assign(merged, Object.fromEntries(Object.entries(p).filter(([, v]) => v != null && v !== '')));
  return { ...merged, ...(byId ?? {}), type: 'PERSON', name, id };
}

async function metaFiles(entry: TitleEntry, objects: EntryObjects, key: string): Promise<MetaFile[]> {
  const metaKey = (entry.form_updates as Record<string, string> | undefined)?.[key];
  if (!metaKey) return [];
  try {
    const raw = await objects.get(metaKey);
    return raw ? ((JSON.parse(raw.toString('utf8')) as { files?: MetaFile[] }).files ?? []) : [];
  } catch {
    return [];
  }
}

const toBoxes = (f: MetaFile | undefined, signer: PlannedSigner): Box[] =>
  (f?.signature_boxes ?? [])
    .filter((b) => namesMatch(b.name, signer.name))
    .map((b) => ({
      page: b.page,
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      signer_id: signer.signerId,
      ...(b.date ? { date: b.date } : {}),
    }));

/** The default signers: one per power of attorney the forms plugin made. */
export function defaultSigners(entry: TitleEntry): PlannedSigner[] {
  const poa = (entry.forms_poa as SignerFormItem[] | undefined) ?? [];
  return poa.map((p) => ({
    signerId: p.signer_id,
    name: p.signer_name,
    person: findPerson(entry, p.signer_id, p.signer_name),
  }));
}

/** The default documents of the signers: per-signer forms, then single forms whose lines name them. */
export async function defaultDocuments(
  entry: TitleEntry,
  objects: EntryObjects,
  signers: PlannedSigner[],
): Promise<PlannedDocument[]> {
  const docs: PlannedDocument[] = [];
  const ids = new Set(signers.map((s) => s.signerId));
  for (const kind of SIGNER_FORMS) {
    const files = await metaFiles(entry, objects, kind);
    for (const [i, item] of ((entry[kind] as SignerFormItem[] | undefined) ?? []).entries()) {
      const s = signers.find((x) => x.signerId === item.signer_id);
      if (!s || !ids.has(item.signer_id)) continue;
      const meta = files.find((f) => f.key === item.form);
      docs.push({
        name: `${kind}[${i}]`,
        filename: `${kind}-${i + 1}.pdf`,
        key: item.form,
        signerIds: [s.signerId],
        boxes: toBoxes(meta, s),
      });
    }
  }
  for (const kind of OWNER_FORMS) {
    const key = entry[kind];
    if (typeof key !== 'string') continue;
    const meta = (await metaFiles(entry, objects, kind))[0];
    const named = signers.filter((s) => toBoxes(meta, s).length > 0);
    // an official template records no lines: every signer signs it (on an appended signature page)
    const who = meta?.signature_boxes ? named : signers;
    if (!who.length) continue;
    docs.push({
      name: kind,
      filename: `${kind}.pdf`,
      key,
      signerIds: who.map((s) => s.signerId),
      boxes: who.flatMap((s) => toBoxes(meta, s)),
    });
  }
  return docs;
}
