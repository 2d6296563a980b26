/** Drawn layouts of the lender's documents: releases, payoffs, guarantees, repossession. */
import {
  fields,
  lienFields,
  lienholderSigner,
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

export const lienReleaseLetter: Layout = {
  title: 'Lien Release',
  build(ctx) {
    const v = ctx.values;
    const l = v.prior_lien;
    return [
      fields(
        { label: 'Date', value: v.today },
        { label: 'Lien / account ID', value: l.lien_id || v.loan.loan_id },
        { label: 'Release date', value: l.release_date || v.today, span: 2 },
      ),
      section('Lienholder releasing the lien'),
      fields(...lienFields(l, 'Lienholder')),
      ...vehicleBlocks(v),
      section('Owners'),
      fields(...personFields(v.record_owner1, 'Owner', { dl: false })),
      ...(v.record_owner2.present ? [fields(...personFields(v.record_owner2, 'Co-owner', { dl: false }))] : []),
      text(
        `The lien of ${l.holder_name || 'the lienholder named above'} on the vehicle described above${l.date ? `, dated ${l.date}` : ''}, has been satisfied in full and is hereby released. The titling agency is authorized to remove the lien from the certificate of title and to issue the title free of this lien.`,
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [lienholderSigner(l)]),
    ];
  },
};

export const payoffAuthorization: Layout = {
  title: 'Payoff Authorization',
  build(ctx) {
    const v = ctx.values;
    return [
      section('Loan being paid off'),
      fields(
        ...lienFields(v.prior_lien, 'Current lienholder'),
        { label: 'Payoff amount', value: v.loan.payoff_amount, span: 2 },
        { label: 'Per diem', value: v.loan.per_diem, span: 2 },
      ),
      section('New lender'),
      fields(
        { label: 'New lender', value: v.lien.holder_name, span: 2 },
        { label: 'New loan number', value: v.loan.loan_id, span: 2 },
        { label: 'Address', value: v.lien.holder_addr.one_line, span: 4 },
      ),
      ...vehicleBlocks(v),
      section('Borrowers'),
      fields(...personFields(v.borrower1.present ? v.borrower1 : v.owner1, 'Borrower', { dl: false, contact: true })),
      text(
        `I authorize ${v.prior_lien.holder_name || 'the current lienholder'} to release the payoff figures of the account above to ${v.lien.holder_name || 'the new lender'}, and to accept its payment of the payoff amount in full satisfaction of the account. On payment, release the lien and send the certificate of title (or the electronic lien release) to ${v.lien.holder_name || 'the new lender'}.`,
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, ownerSigners(v, 'Borrower')),
    ];
  },
};

export const letterOfGuarantee: Layout = {
  title: 'Letter of Guarantee',
  build(ctx) {
    const v = ctx.values;
    return [
      fields(
        { label: 'Date', value: v.today },
        {
          label: 'To',
          value: v.prior_lien.holder_name || (ctx.generic ? 'Titling agency' : ctx.state.agency),
          span: 3,
        },
      ),
      section('Guarantor (new lienholder)'),
      fields(...lienFields(v.lien, 'Lienholder')),
      ...vehicleBlocks(v),
      section('Owners'),
      fields(...personFields(v.owner1, 'Owner', { dl: false })),
      text(
        `${v.lien.holder_name || 'The undersigned lender'} guarantees that the lien of ${v.prior_lien.holder_name || 'the prior lienholder'} on the vehicle described above will be paid in full${v.loan.payoff_amount ? ` (payoff ${v.loan.payoff_amount})` : ''}, and that the certificate of title, when received, will be submitted to record ${v.lien.holder_name || 'the undersigned'} as first lienholder. The undersigned will indemnify the recipient for any loss resulting from reliance on this guarantee.`,
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [lienholderSigner(v.lien, 'Guarantor (authorized representative)')]),
    ];
  },
};

export const titleDelivery: Layout = {
  title: 'Title Delivery Instructions',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Lien released by'),
      fields(...lienFields(v.prior_lien, 'Lienholder')),
      section('Deliver the title to'),
      fields(
        { label: 'Recipient', value: v.owners_line || v.owner1.name, span: 2 },
        { label: 'Address', value: v.loan.release_to.one_line, span: 2 },
      ),
      text(
        'Once the lien is released, mail the certificate of title (or the lien-free title the agency issues) to the recipient at the address above. Owners who keep an electronic title: record the release electronically; no paper is mailed.',
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [lienholderSigner(v.prior_lien)]),
    ];
  },
};

export const repoAffidavit: Layout = {
  title: 'Affidavit of Repossession',
  build(ctx) {
    const v = ctx.values;
    const holder = v.lien.present ? v.lien : v.record_lien;
    return [
      ...vehicleBlocks(v),
      section('Debtors (owners of record)'),
      fields(...personFields(v.record_owner1, 'Debtor', { dl: false })),
      ...(v.record_owner2.present ? [fields(...personFields(v.record_owner2, 'Co-debtor', { dl: false }))] : []),
      section('Secured party (lienholder)'),
      fields(...lienFields(holder, 'Lienholder')),
      fields(
        { label: 'Date of repossession', value: v.sale.date || v.today, span: 2 },
        { label: 'Balance owed', value: v.loan.payoff_amount || holder.amount, span: 2 },
      ),
      text(
        `The undersigned, for the secured party named above, states that the debtors defaulted under the security agreement; that the secured party repossessed the vehicle described above under that agreement and the law of ${ctx.generic ? 'the titling jurisdiction' : ctx.state.name}, without breach of the peace; that any notices the law requires were given; and that the secured party is entitled to title to the vehicle.`,
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, [lienholderSigner(holder, 'Secured party (authorized representative)')], true),
    ];
  },
};
