/** The packet's cover sheet: where it goes, what it holds, who signs what, and what to enclose. */
import { checks, fields, section, text, type Layout } from './common.js';

export const instructions: Layout = {
  title: 'Filing Instructions',
  build(ctx) {
    const v = ctx.values;
    const st = ctx.state;
    const txns = Object.entries(v.txn)
      .filter(
        ([k, on]) => on && !['ownership_change', 'same_owner', 'new_title', 'lien_only', 'duplicate_only'].includes(k),
      )
      .map(([k]) => k.replace(/_/g, ' '));
    const needsTitle = st.rules.originalTitleRequired && !v.title.is_electronic && !v.txn.duplicate_title;
    const packet = ctx.packet ?? [];
    return [
      fields(
        { label: 'Jurisdiction', value: `${st.name} (${st.code})` },
        { label: 'Titling agency', value: st.agency, span: 3 },
        { label: 'Vehicle', value: `${v.vehicle.description} - VIN ${v.vehicle.vin}`, span: 3 },
        { label: 'Loan number', value: v.loan.loan_id },
        { label: 'Transactions', value: txns.join(', ') || 'none detected', span: 4 },
      ),
      section('Where to send it'),
      fields(
        {
          label: 'Mail the signed packet to',
          value: v.state.submit_to || `${st.agency} (see the agency for the office that serves the owner's county)`,
          span: 4,
        },
        { label: 'Make fees payable to', value: v.state.payable_to || st.agency, span: 4 },
      ),
      section('Checklist'),
      checks(
        ['Enclose the original certificate of title', needsTitle],
        ['Title is electronic: no paper title to enclose', v.title.is_electronic],
        ['Original title is lost: a duplicate title application is included', v.txn.duplicate_title],
        ['Have the VIN inspected before filing', packet.some((f) => f.key === 'form_vin_verification')],
        ['Notarize where a notary block is printed', true],
        ['Enclose the fees (see the fee estimate)', true],
      ),
      section('Forms in this packet, in order'),
      ...packet.map((f, i) => text(`${i + 1}. ${f.title}${f.signer ? ` - signed by ${f.signer}` : ''}`)),
      text(
        'Sign in ink where an X is printed. Date every signature. Do not use correction fluid; an altered form may be refused.',
        'italic',
      ),
    ];
  },
};
