/** Drawn layouts of statements and affidavits, and of the per-signer forms (POA, name affidavit, non-obligor). */
import type { PoaField } from '../../../states/types.js';
import type { Field } from '../pdf/draw.js';
import {
  checks,
  fields,
  ownerSigners,
  PERJURY,
  personFields,
  section,
  signatures,
  stateBlocks,
  text,
  vehicleBlocks,
  type Layout,
} from './common.js';

export const statementOfFact: Layout = {
  title: 'Statement of Facts',
  build(ctx) {
    const v = ctx.values;
    const facts: string[] = [];
    if (v.txn.drop_owner)
      facts.push(
        `The owner(s) being removed from the title release all interest in the vehicle described above; the title is to be issued to ${v.owners_line || 'the remaining owners'}.`,
      );
    if (v.txn.boat)
      facts.push(
        `The vessel described above (hull identification number ${v.vehicle.vin || '________'}) is owned by ${v.owners_line || 'the owners named below'}.`,
      );
    if (v.sale.is_gift) facts.push('The vehicle was received as a gift; no consideration was paid.');
    return [
      ...vehicleBlocks(v),
      section('Person making the statement'),
      fields(...personFields(v.owner1, 'Name', { dl: false, contact: true })),
      section('Statement'),
      ...facts.map((f) => text(f)),
      fields({ label: 'Further facts (write in)', value: '', span: 4 }, { label: '', value: '', span: 4 }),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, ownerSigners(v)),
    ];
  },
};

export const ohvDeclaration: Layout = {
  title: 'Off-Highway Vehicle Declaration',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Owner'),
      fields(...personFields(v.owner1, 'Owner')),
      section('Declaration'),
      checks(
        ['Off-highway motorcycle', v.vehicle.is_motorcycle],
        ['All-terrain vehicle', v.vehicle.type === 'ATV'],
        ['Off-road / off-highway vehicle', v.vehicle.type === 'OHV' || v.vehicle.type === 'ORV'],
      ),
      text(
        'I declare that the vehicle described above is designed and will be used for off-highway operation, is not equipped for operation on public highways, and will not be registered for highway use unless it is brought into compliance with the law for highway vehicles.',
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, ownerSigners(v)),
    ];
  },
};

export const lowSpeedAffidavit: Layout = {
  title: 'Low-Speed Vehicle Affidavit',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Owner'),
      fields(...personFields(v.owner1, 'Owner')),
      section('Certification'),
      text(
        'I certify that the vehicle described above is a low-speed vehicle as defined in 49 CFR 571.3: a four-wheeled motor vehicle, other than a truck, whose speed attainable in 1.6 km (1 mile) is more than 32 km/h (20 mph) and not more than 40 km/h (25 mph) on a paved level surface, with a gross vehicle weight rating under 1,361 kg (3,000 lbs).',
      ),
      checks(
        [
          "The vehicle carries the manufacturer's certification of compliance with FMVSS No. 500 (49 CFR 571.500)",
          true,
        ],
        [
          'Headlamps, stop lamps, turn signals, tail lamps, reflex reflectors, mirrors, parking brake, windshield, seat belts and VIN are fitted',
          true,
        ],
      ),
      text(
        'I understand that a low-speed vehicle may be operated only on roads where the law of this jurisdiction allows it.',
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, ownerSigners(v)),
    ];
  },
};

export const addressAffidavit: Layout = {
  title: 'Affidavit of Residence Address',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Affiant'),
      fields(
        { label: 'Full legal name', value: v.borrower1.name || v.owner1.name, span: 4 },
        {
          label: 'Current residence address',
          value: (v.borrower1.present ? v.borrower1 : v.owner1).addr.one_line,
          span: 4,
        },
        { label: 'Address shown on the title', value: v.record_owner1.addr.one_line, span: 4 },
      ),
      text(
        'I certify that my current residence address is the address shown above, that the address on the certificate of title is a former address of mine, and that I am the same person named as owner on the title.',
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, [{ role: 'Affiant', name: v.borrower1.name || v.owner1.name }]),
    ];
  },
};

const POA_FIELD_LABELS: Record<PoaField, (p: import('../../../states/types.js').PersonValues, plate: string) => Field> =
  {
    ssn: (p) => ({ label: 'Social Security number', value: p.ssn }),
    dob: (p) => ({ label: 'Date of birth', value: p.dob }),
    plate: (_p, plate) => ({ label: 'License plate', value: plate }),
    dl: (p) => ({ label: 'Driver license number', value: p.dl_number }),
  };

export const powerOfAttorney: Layout = {
  title: 'Limited Power of Attorney for Motor Vehicle Title',
  build(ctx) {
    const v = ctx.values;
    const s = v.signer;
    const required = ctx.generic ? [] : ctx.state.rules.poaFields;
    const jurisdiction = ctx.generic ? 'any state or jurisdiction' : `the State of ${ctx.state.name}`;
    return [
      section('Grantor (owner or borrower)'),
      fields(
        ...personFields(s, s.role, { dl: true }),
        ...required.filter((f) => f !== 'dl').map((f) => POA_FIELD_LABELS[f](s, v.vehicle.plate)),
      ),
      section('Attorney-in-fact'),
      fields(
        { label: 'Name', value: v.grantee, span: 2 },
        { label: 'Address', value: v.lien.present ? v.lien.holder_addr.one_line : '', span: 2 },
      ),
      ...vehicleBlocks(v),
      section('Powers granted'),
      text(
        `I appoint the attorney-in-fact named above, and its authorized officers and agents, to act for me before the motor vehicle titling agencies of ${jurisdiction} concerning the vehicle described above only: to apply for a certificate of title, a duplicate or corrected title and registration; to record, assign or release liens; to sign odometer disclosures (where the law allows); and to sign any document these acts require. This power ends when the transaction is complete or when I revoke it in writing.`,
      ),
      ...stateBlocks(ctx),
      ...signatures(
        ctx,
        [{ role: `Grantor (${s.role.toLowerCase()})`, name: s.name }],
        !ctx.generic && ctx.state.rules.poaNotarized,
      ),
    ];
  },
};

export const nameAffidavit: Layout = {
  title: 'Name Affidavit (One and the Same Person)',
  build(ctx) {
    const v = ctx.values;
    const s = v.signer;
    return [
      section('Affiant'),
      fields(...personFields(s, 'Affiant')),
      fields({ label: 'Also known as', value: s.other_names, span: 4 }),
      ...vehicleBlocks(v),
      text(
        `I, ${s.name}, state that I am one and the same person as ${s.other_names}, and that each of these names refers to me in the documents concerning the vehicle described above.`,
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, [{ role: 'Affiant', name: s.name }], true),
    ];
  },
};

export const nonObligor: Layout = {
  title: 'Non-Obligor Owner Consent to Lien',
  build(ctx) {
    const v = ctx.values;
    const s = v.signer;
    return [
      section('Owner who is not a borrower'),
      fields(...personFields(s, 'Owner')),
      section('Lien'),
      fields(
        { label: 'Lienholder', value: v.lien.holder_name || v.prior_lien.holder_name, span: 2 },
        { label: 'Loan number', value: v.loan.loan_id },
        { label: 'Amount', value: v.loan.amount },
      ),
      ...vehicleBlocks(v),
      text(
        `I am an owner of the vehicle described above but not a borrower on the loan above. I consent to the recording of the lien of ${v.lien.holder_name || 'the lienholder named above'} on the title of the vehicle and agree that the vehicle secures the loan. I understand that I do not become personally liable for the loan by signing this consent.`,
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [{ role: 'Non-obligor owner', name: s.name }]),
    ];
  },
};
