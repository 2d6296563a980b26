/**
 * The standard forms table and `defineState`, which fills a state plugin's
 * omitted parts from it. A state folder declares only where it differs.
 */
import type { DrawnSpec, FormKind, StatePlugin, StateRules, TemplateSpec, Transaction } from './types.js';

/**
 * Which forms each transaction needs unless a state says otherwise
 * (docs/forms.md has the same table). The odometer disclosure is left out
 * where 49 CFR 580.17 exempts the vehicle; per-signer forms only for signers
 * they concern.
 */
export const STANDARD_FORMS: Readonly<Record<Transaction | 'always', readonly FormKind[]>> = Object.freeze({
  always: ['form_instructions', 'forms_poa', 'forms_name_oats', 'forms_non_obligor', 'form_addr_oats'],
  new_lien: ['form_title_application', 'form_lien_add'],
  refinance: ['form_title_application', 'form_lien_add', 'form_payoff_authorization', 'form_letter_of_guarantee'],
  add_owner: ['form_title_application', 'form_odometer_disclosure'],
  drop_owner: ['form_title_application', 'form_odometer_disclosure', 'form_statement_of_fact'],
  purchase: ['form_title_application', 'form_odometer_disclosure'],
  duplicate_title: ['form_duplicate_title'],
  repossession: ['form_repo_affidavit', 'form_title_application', 'form_odometer_disclosure'],
  lien_release: ['form_lien_release_letter', 'form_title_delivery'],
  out_of_state_transfer: ['form_title_application', 'form_vin_verification', 'form_odometer_disclosure'],
  ohv: ['form_ohv_declaration'],
  low_speed: ['form_low_speed_affidavit'],
  trailer: ['form_vin_verification'],
  boat: ['form_statement_of_fact'],
});

export const DEFAULT_RULES: Omit<StateRules, 'sources'> = Object.freeze({
  originalTitleRequired: true,
  poaFields: [],
  poaNotarized: false,
  untitledTypes: [],
});

/** What a state folder writes: code, name, agency and only what differs from the standard. */
export interface StateDefinition {
  code: string;
  name: string;
  agency: string;
  /** Per transaction, replaces the standard list (omitted transactions keep it). */
  forms?: Partial<Record<Transaction | 'always', readonly FormKind[]>>;
  templates?: Partial<Record<FormKind, TemplateSpec>>;
  drawn?: Partial<Record<FormKind, DrawnSpec>>;
  rules?: Partial<StateRules>;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** Builds a frozen state plugin: the standard table and default rules, overridden by the definition. */
export function defineState(d: StateDefinition): StatePlugin {
  const rules: StateRules = {
    ...DEFAULT_RULES,
    sources: [{ unsourced: true, note: 'standard rules; not individually sourced for this state' }],
    ...d.rules,
  };
  return deepFreeze({
    code: d.code,
    name: d.name,
    agency: d.agency,
    forms: { ...STANDARD_FORMS, ...d.forms },
    templates: { ...d.templates },
    drawn: { ...d.drawn },
    rules,
  });
}
