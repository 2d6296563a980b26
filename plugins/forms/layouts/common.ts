/** Pieces every drawn layout uses: the header, vehicle and person sections, state additions, signatures. */
import type { DrawnSpec, FormKind, FormValues, LienValues, PersonValues, StatePlugin } from '../../../states/types.js';
import { resolveText } from '../resolve.js';
import type { Block, DrawnForm, Field } from '../pdf/draw.js';

export interface LayoutContext {
  kind: FormKind;
  values: FormValues;
  state: StatePlugin;
  /** The state's additions for this form (none for a generic form). */
  spec: DrawnSpec;
  /** A state-neutral version (the `form_generic` of per-signer forms). */
  generic: boolean;
  /** For the instructions: the other forms of the packet, in order, with their titles and signers. */
  packet?: readonly { key: string; title: string; signer?: string }[];
}

export interface Layout {
  /** The form's title on the page. */
  title: string;
  build(ctx: LayoutContext): Block[];
}

export function header(ctx: LayoutContext, title: string): Pick<DrawnForm, 'title' | 'subtitle' | 'footer'> {
  const { state, spec, generic } = ctx;
  const subtitle: string[] = [];
  if (generic) subtitle.push('Generic form for any jurisdiction');
  else {
    subtitle.push(`${state.name} - ${state.agency}`);
    if (spec.officialName) subtitle.push(`Prepared in support of: ${spec.officialName}`);
  }
  return {
    title: (!generic && spec.title) || title,
    subtitle,
    footer: `titled ${generic ? 'generic' : state.code} ${ctx.kind} - drawn layout, not an official state form`,
  };
}

export const section = (heading: string): Block => ({ kind: 'section', heading });
export const fields = (...list: (Field | false | undefined)[]): Block => ({
  kind: 'fields',
  fields: list.filter((f): f is Field => !!f),
});
export const text = (t: string, font: 'regular' | 'bold' | 'italic' = 'regular', size = 9): Block => ({
  kind: 'text',
  text: t,
  font,
  size,
});
export const checks = (...items: [string, boolean][]): Block => ({
  kind: 'checks',
  items: items.map(([label, checked]) => ({ label, checked })),
});

export function vehicleBlocks(v: FormValues): Block[] {
  return [
    section('Vehicle'),
    fields(
      { label: 'Vehicle identification number (VIN)', value: v.vehicle.vin, span: 2 },
      { label: 'Year', value: v.vehicle.year },
      { label: 'Make', value: v.vehicle.make },
      { label: 'Model', value: v.vehicle.model },
      { label: 'Body style', value: v.vehicle.body },
      { label: 'Color', value: [v.vehicle.color, v.vehicle.color_secondary].filter(Boolean).join(' / ') },
      { label: 'Vehicle type', value: v.vehicle.type_label },
      { label: 'License plate', value: v.vehicle.plate },
      { label: 'Title number', value: v.title.number },
      { label: 'Title issuing state', value: v.title.issuing_state },
      { label: 'Odometer', value: v.title.odometer ? `${v.title.odometer} ${v.title.odometer_unit}` : '' },
    ),
  ];
}

export function personFields(
  p: PersonValues,
  label: string,
  o: { dl?: boolean; dob?: boolean; ssn?: boolean; contact?: boolean } = {},
): Field[] {
  const out: Field[] = [{ label: `${label} - full legal name`, value: p.name, span: 2 }];
  if (o.dl !== false)
    out.push(
      { label: 'Driver license / ID number', value: p.dl_number },
      { label: 'DL / ID state', value: p.dl_state },
    );
  if (o.dob) out.push({ label: 'Date of birth', value: p.dob });
  if (o.ssn) out.push({ label: 'Social Security number', value: p.ssn });
  out.push({ label: 'Residence address', value: p.addr.one_line, span: 4 });
  if (p.mailing_if_different.one_line)
    out.push({ label: 'Mailing address', value: p.mailing_if_different.one_line, span: 4 });
  if (o.contact) out.push({ label: 'Phone', value: p.phone }, { label: 'Email', value: p.email, span: 2 });
  return out;
}

export function lienFields(l: LienValues, label: string): Field[] {
  return [
    { label: `${label} name`, value: l.holder_name, span: 2 },
    { label: 'ELT ID', value: l.elt_id },
    { label: 'FEIN', value: l.feid },
    { label: 'Address', value: l.holder_addr.one_line, span: 4 },
    { label: 'Lien date', value: l.date },
    { label: 'Amount', value: l.amount },
    { label: 'Lien / account ID', value: l.lien_id, span: 2 },
  ];
}

/** The applicants (owners after this transaction) as field rows. */
export function ownersBlocks(v: FormValues, heading = 'Owners'): Block[] {
  const owners = [v.owner1, v.owner2, v.owner3].filter((o) => o.present);
  const blocks: Block[] = [section(heading)];
  owners.forEach((o, i) => blocks.push(fields(...personFields(o, owners.length > 1 ? `Owner ${i + 1}` : 'Owner'))));
  if (!owners.length) blocks.push(fields(...personFields(v.owner1, 'Owner')));
  if (owners.length > 1)
    blocks.push(
      checks(
        ['Co-owners joined by AND (each must sign to transfer)', v.title.owners_and],
        ['Co-owners joined by OR (any one may sign)', v.title.owners_or],
      ),
    );
  return blocks;
}

/** The state's extra fields and statements for this form. */
export function stateBlocks(ctx: LayoutContext): Block[] {
  if (ctx.generic) return [];
  const out: Block[] = [];
  if (ctx.spec.extraFields?.length) {
    out.push(section(`${ctx.state.name} requirements`));
    out.push(
      fields(
        ...ctx.spec.extraFields.map((f) => ({ label: f.label, value: resolveText(ctx.values, f.value), span: 2 })),
      ),
    );
  }
  for (const s of ctx.spec.statements ?? []) out.push(text(s));
  return out;
}

export function signatures(ctx: LayoutContext, signers: { role: string; name: string }[], notarize = false): Block[] {
  const out: Block[] = [section('Signatures'), { kind: 'signatures', signers }];
  if (notarize || (!ctx.generic && ctx.spec.notarize))
    out.push({ kind: 'notary', state: ctx.generic ? '' : ctx.state.name });
  return out;
}

export const PERJURY =
  'I certify (or declare) under penalty of perjury under the laws of the state named above that the foregoing is true and correct.';

export function ownerSigners(v: FormValues, role = 'Owner'): { role: string; name: string }[] {
  const list = [v.owner1, v.owner2, v.owner3].filter((o) => o.present);
  return (list.length ? list : [v.owner1]).map((o, i, a) => ({
    role: a.length > 1 ? `${role} ${i + 1}` : role,
    name: o.name,
  }));
}

export function recordOwnerSigners(v: FormValues, role = 'Owner of record'): { role: string; name: string }[] {
  const list = [v.record_owner1, v.record_owner2].filter((o) => o.present);
  return (list.length ? list : [v.record_owner1]).map((o) => ({ role, name: o.name }));
}

export function lienholderSigner(
  l: LienValues,
  role = 'Lienholder (authorized representative)',
): { role: string; name: string } {
  return { role, name: l.signatory.present ? `${l.signatory.name} for ${l.holder_name}` : l.holder_name };
}
