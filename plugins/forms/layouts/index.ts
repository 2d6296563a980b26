/**
 * The catalog of form kinds: the shared drawn layout of each, when an entry
 * has the data for it, and the packet order (docs/forms.md, "Packet order").
 */
import type { FormKind, FormValues, PersonValues } from '../../../states/types.js';
import {
  addressAffidavit,
  lowSpeedAffidavit,
  nameAffidavit,
  nonObligor,
  ohvDeclaration,
  powerOfAttorney,
  statementOfFact,
} from './affidavits.js';
import type { Layout } from './common.js';
import { instructions } from './instructions.js';
import { letterOfGuarantee, lienReleaseLetter, payoffAuthorization, repoAffidavit, titleDelivery } from './lender.js';
import {
  billOfSale,
  duplicateTitle,
  lienAdd,
  odometerDisclosure,
  titleApplication,
  ucc1,
  vinVerification,
} from './title.js';

export interface Signer {
  person: PersonValues;
  role: string;
}

export interface FormEntry {
  layout: Layout;
  /** For per-signer forms: which signers get one. */
  signers?: (signers: readonly Signer[]) => Signer[];
  /** Whether the entry has the data this form needs. */
  applies(v: FormValues): boolean;
}

const hasVin = (v: FormValues) => !!v.vehicle.vin;

export const FORM_CATALOG: Readonly<Record<FormKind, FormEntry>> = {
  form_instructions: { layout: instructions, applies: () => true },
  form_title_application: { layout: titleApplication, applies: (v) => hasVin(v) && v.owner1.present },
  form_duplicate_title: { layout: duplicateTitle, applies: hasVin },
  form_lien_add: { layout: lienAdd, applies: (v) => v.lien.present },
  form_ucc1: { layout: ucc1, applies: (v) => v.lien.present && v.owner1.present },
  form_odometer_disclosure: { layout: odometerDisclosure, applies: (v) => hasVin(v) && !v.title.odometer_exempt },
  form_vin_verification: { layout: vinVerification, applies: hasVin },
  form_bill_of_sale: { layout: billOfSale, applies: (v) => hasVin(v) && v.owner1.present },
  form_repo_affidavit: { layout: repoAffidavit, applies: (v) => v.lien.present || v.record_lien.present },
  form_statement_of_fact: { layout: statementOfFact, applies: (v) => hasVin(v) && v.owner1.present },
  form_ohv_declaration: { layout: ohvDeclaration, applies: hasVin },
  form_low_speed_affidavit: { layout: lowSpeedAffidavit, applies: hasVin },
  form_addr_oats: {
    layout: addressAffidavit,
    // the title shows the owner at another address than the one the borrower gives now
    applies: (v) => {
      const now = (v.borrower1.present ? v.borrower1 : v.owner1).addr.one_line;
      const onTitle = v.record_owner1.addr.one_line;
      return !!now && !!onTitle && now.toUpperCase() !== onTitle.toUpperCase();
    },
  },
  forms_poa: { layout: powerOfAttorney, applies: () => true, signers: (s) => [...s] },
  forms_name_oats: {
    layout: nameAffidavit,
    applies: () => true,
    signers: (s) => s.filter((x) => !!x.person.other_names),
  },
  forms_non_obligor: {
    layout: nonObligor,
    applies: (v) => v.lien.present || v.prior_lien.present,
    signers: (s) => s.filter((x) => x.person.non_obligor),
  },
  form_payoff_authorization: { layout: payoffAuthorization, applies: (v) => v.prior_lien.present },
  form_letter_of_guarantee: { layout: letterOfGuarantee, applies: (v) => v.prior_lien.present && v.lien.present },
  form_lien_release_letter: { layout: lienReleaseLetter, applies: (v) => v.prior_lien.present },
  form_title_delivery: { layout: titleDelivery, applies: (v) => v.prior_lien.present && !!v.loan.release_to.one_line },
};

/**
 * The final packet's order: the cover sheet, then what the titling agency
 * files (application first), then supporting affidavits, then the signers'
 * documents, then the lender-to-lender letters that are not filed.
 */
export const PACKET_ORDER: readonly FormKind[] = [
  'form_instructions',
  'form_title_application',
  'form_duplicate_title',
  'form_lien_add',
  'form_ucc1',
  'form_odometer_disclosure',
  'form_bill_of_sale',
  'form_vin_verification',
  'form_repo_affidavit',
  'form_statement_of_fact',
  'form_ohv_declaration',
  'form_low_speed_affidavit',
  'form_addr_oats',
  'forms_poa',
  'forms_name_oats',
  'forms_non_obligor',
  'form_payoff_authorization',
  'form_letter_of_guarantee',
  'form_lien_release_letter',
  'form_title_delivery',
];
