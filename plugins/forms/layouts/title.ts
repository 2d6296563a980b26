/** Drawn layouts of the title documents filed with the state. */
import { ODOMETER_STATEMENTS, ODOMETER_WARNING } from '../odometer.js';
import type { Block } from '../pdf/draw.js';
import {
  checks,
  fields,
  lienFields,
  lienholderSigner,
  ownerSigners,
  ownersBlocks,
  PERJURY,
  personFields,
  recordOwnerSigners,
  section,
  signatures,
  stateBlocks,
  text,
  vehicleBlocks,
  type Layout,
} from './common.js';

export const titleApplication: Layout = {
  title: 'Application for Certificate of Title',
  build(ctx) {
    const v = ctx.values;
    return [
      section('Application'),
      checks(
        ['New title (ownership change or vehicle from another state)', v.txn.new_title],
        ['Corrected title: add or remove a lien', v.txn.lien_only],
        ['Replacement of a lost or stolen title', v.txn.duplicate_title],
        ['Vehicle last titled in another state', v.txn.out_of_state_transfer],
        ['Repossession', v.txn.repossession],
      ),
      ...vehicleBlocks(v),
      section('Odometer'),
      fields(
        { label: 'Odometer reading (no tenths)', value: v.title.odometer },
        { label: 'Unit', value: v.title.odometer_kilometers ? 'Kilometers' : 'Miles' },
      ),
      checks(
        ['Actual mileage', v.title.odometer_actual],
        ['Exceeds mechanical limits', v.title.odometer_exceeds],
        ['Not the actual mileage', v.title.odometer_not_actual],
        ['Exempt', v.title.odometer_exempt],
      ),
      ...ownersBlocks(v, 'Applicants (owners)'),
      ...(v.txn.ownership_change
        ? [
            section('Previous owner / seller'),
            fields(...personFields(v.seller, 'Seller', { dl: false })),
            fields(
              { label: 'Date of sale', value: v.sale.date },
              { label: 'Sale price', value: v.sale.price },
              { label: 'Sale type', value: v.sale.type, span: 2 },
            ),
          ]
        : []),
      section('Previous title'),
      fields(
        { label: 'Title number', value: v.title.number },
        { label: 'Issuing state', value: v.title.issuing_state_name },
        { label: 'Issue date', value: v.title.issuance_date },
        { label: 'Brand', value: v.title.brand },
      ),
      section('First lienholder'),
      ...(v.lien.present ? [fields(...lienFields(v.lien, 'Lienholder'))] : [text('No lien.')]),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, ownerSigners(v, 'Applicant')),
    ];
  },
};

export const lienAdd: Layout = {
  title: 'Application to Record a Lien',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Owners of record'),
      fields(...personFields(v.record_owner1, 'Owner')),
      ...(v.record_owner2.present ? [fields(...personFields(v.record_owner2, 'Co-owner'))] : []),
      section('Lien to record'),
      fields(
        ...lienFields(v.lien, 'Lienholder'),
        { label: 'Loan number', value: v.loan.loan_id, span: 2 },
        { label: 'Security agreement signed', value: v.loan.security_agreement_date, span: 2 },
      ),
      ...(v.txn.refinance
        ? [section('Lien being released'), fields(...lienFields(v.prior_lien, 'Prior lienholder'))]
        : []),
      text(
        `The owner(s) named above request that the lien described above be recorded on the certificate of title of the vehicle described above${v.title.is_electronic ? ' (electronic title)' : ''}, and that the title be issued or held as the law of ${ctx.generic ? 'the titling jurisdiction' : ctx.state.name} provides.`,
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, [...recordOwnerSigners(v), lienholderSigner(v.lien)]),
    ];
  },
};

export const duplicateTitle: Layout = {
  title: 'Application for Duplicate Certificate of Title',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Owners of record'),
      fields(...personFields(v.record_owner1, 'Owner', { contact: true })),
      ...(v.record_owner2.present ? [fields(...personFields(v.record_owner2, 'Co-owner'))] : []),
      section('Lienholder of record'),
      ...(v.record_lien.present ? [fields(...lienFields(v.record_lien, 'Lienholder'))] : [text('No lien of record.')]),
      section('Reason'),
      checks(
        ['Lost', v.title.is_lost],
        ['Stolen', v.title.is_stolen],
        ['Mutilated or illegible (attach the old title)', false],
        ['Never received', false],
      ),
      text(
        'I request a duplicate certificate of title for the vehicle described above. The original certificate of title is not in my possession; if it is found, I will return it to the titling agency. I understand a duplicate cancels the original.',
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, recordOwnerSigners(v)),
    ];
  },
};

export const ucc1: Layout = {
  title: 'Financing Statement Information (UCC-1)',
  build(ctx) {
    const v = ctx.values;
    const debtors = [v.owner1, v.owner2, v.owner3].filter((o) => o.present);
    return [
      text(
        'This vehicle type is not titled in this jurisdiction: the lien is perfected by filing a UCC-1 financing statement with the Secretary of State (or the filing office the state designates). This sheet carries the information the financing statement needs.',
        'italic',
      ),
      section('Debtors'),
      ...debtors.map((d, i) =>
        fields(
          { label: `Debtor ${i + 1} - name`, value: d.name_lfm, span: 2 },
          { label: 'Mailing address', value: d.mailing.one_line, span: 2 },
        ),
      ),
      section('Secured party'),
      fields(
        { label: 'Name', value: v.lien.holder_name, span: 2 },
        { label: 'Mailing address', value: v.lien.holder_addr.one_line, span: 2 },
      ),
      section('Collateral'),
      fields(
        { label: 'Description', value: `${v.vehicle.description} ${v.vehicle.type_label}`.trim(), span: 2 },
        { label: 'Serial / hull / VIN', value: v.vehicle.vin, span: 2 },
      ),
      text('The collateral is the vehicle described above, with all accessions, attachments and proceeds.'),
      fields(
        { label: 'Loan number', value: v.loan.loan_id, span: 2 },
        { label: 'Security agreement date', value: v.loan.security_agreement_date, span: 2 },
      ),
      ...stateBlocks(ctx),
    ];
  },
};

export const vinVerification: Layout = {
  title: 'Vehicle Identification Number Verification',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Owner'),
      fields(...personFields(v.owner1, 'Owner', { dl: false })),
      section('Inspection (completed by the inspector)'),
      fields(
        { label: 'VIN as found on the vehicle', value: '', span: 2 },
        { label: 'Odometer as found', value: '' },
        { label: 'Date of inspection', value: '' },
        { label: 'Inspector name', value: '', span: 2 },
        { label: 'Title / badge number', value: '' },
        { label: 'Agency or dealer', value: '' },
      ),
      checks(
        ['The VIN on the vehicle matches the VIN above', false],
        ['The VIN plate shows signs of tampering', false],
        ['Vehicle physically inspected', false],
      ),
      text(
        'Inspection by a law enforcement officer, licensed dealer or other person the titling agency authorizes. The inspector certifies that the vehicle was physically inspected and the information above is true.',
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [{ role: 'Inspector', name: '' }, ...ownerSigners(v)]),
    ];
  },
};

/** Federal odometer disclosure: the content 49 CFR 580.5 requires of a disclosure made on a separate document. */
export const odometerDisclosure: Layout = {
  title: 'Odometer Disclosure Statement',
  build(ctx) {
    const v = ctx.values;
    const transferee = [v.owner1, v.owner2, v.owner3].filter((o) => o.present);
    const blocks: Block[] = [
      text(ODOMETER_WARNING, 'bold'),
      section('Vehicle'),
      fields(
        { label: 'Year', value: v.vehicle.year },
        { label: 'Make', value: v.vehicle.make },
        { label: 'Model', value: v.vehicle.model },
        { label: 'Body type', value: v.vehicle.body },
        { label: 'Vehicle identification number', value: v.vehicle.vin, span: 4 },
      ),
      section('Odometer'),
      fields(
        { label: 'Odometer reading (no tenths)', value: v.title.odometer, span: 2 },
        { label: 'Unit', value: v.title.odometer_kilometers ? 'Kilometers' : 'Miles' },
        { label: 'Date of transfer', value: v.sale.date || v.today },
      ),
      text(
        `I, the transferor, state that the odometer now reads the reading above (no tenths) and certify as checked below:`,
      ),
      checks(
        [ODOMETER_STATEMENTS.actual, v.title.odometer_actual],
        [ODOMETER_STATEMENTS.exceeds, v.title.odometer_exceeds],
        [ODOMETER_STATEMENTS.not_actual, v.title.odometer_not_actual],
      ),
      section('Transferor (seller)'),
      fields(...personFields(v.seller, 'Transferor', { dl: false })),
      section('Transferee (buyer)'),
      ...(transferee.length ? transferee : [v.owner1]).map((o, i) =>
        fields(...personFields(o, `Transferee ${i + 1}`, { dl: false })),
      ),
      text(
        'The transferee acknowledges receipt of this odometer disclosure and is aware of the odometer certification made by the transferor.',
      ),
      ...stateBlocks(ctx),
      ...signatures(ctx, [
        { role: 'Transferor (seller)', name: v.seller.name },
        ...ownerSigners(v, 'Transferee (buyer)'),
      ]),
    ];
    return blocks;
  },
};

/** A bill of sale: the seller transfers the vehicle to the buyers for the price on the date of sale (a state's own form when it has one). */
export const billOfSale: Layout = {
  title: 'Bill of Sale',
  build(ctx) {
    const v = ctx.values;
    return [
      ...vehicleBlocks(v),
      section('Sale'),
      fields(
        { label: 'Date of sale', value: v.sale.date, span: 2 },
        { label: 'Purchase price', value: v.sale.price, span: 2 },
      ),
      section('Seller'),
      fields(...personFields(v.seller, 'Seller')),
      ...ownersBlocks(v, 'Buyers'),
      text(
        'For the price stated above, the seller sells, transfers and delivers the vehicle described above to the buyers, ' +
          'and warrants that the seller has the right to sell it and that it is free of liens and encumbrances except those of record.',
      ),
      ...stateBlocks(ctx),
      text(PERJURY),
      ...signatures(ctx, [{ role: 'Seller', name: v.seller.name }, ...ownerSigners(v, 'Buyer')]),
    ];
  },
};
