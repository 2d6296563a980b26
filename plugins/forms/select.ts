/**
 * Deciding an entry's forms: its filing state's plugin, its transactions, the
 * forms the plugin declares for them, and those the entry has data for.
 */
import type { TitleEntry, FormsStatus } from '../../core/plugin-api-model.js';
import { detectTransactions, filingState } from '../../core/plugin-api-pure.js';
import type { FormKind, FormValues, StatePlugin, Transaction } from '../../states/types.js';
import { FORM_CATALOG, PACKET_ORDER, type Signer } from './layouts/index.js';
import { resolveFlag } from './resolve.js';
import { buildValues } from './values.js';

export interface FormPlan {
  /** Set when nothing is generated: why (a forms_status value). */
  skipped?: Exclude<FormsStatus, 'generated' | 'error'>;
  reason?: string;
  state?: StatePlugin;
  transactions: Transaction[];
  /** The forms the state declares for the transactions. */
  declared: FormKind[];
  /** The forms to generate, in packet order. */
  forms: FormKind[];
  values?: FormValues;
  signers: Signer[];
}

/** Forms a state declares for transactions: `always` plus each transaction's list, each once; UCC-1 for a type the state does not title. */
function declaredForms(state: StatePlugin, txns: readonly Transaction[], vehicleType: string): FormKind[] {
  const out = new Set<FormKind>(state.forms.always ?? []);
  for (const t of txns) for (const f of state.forms[t] ?? []) out.add(f);
  if (state.rules.untitledTypes.includes(vehicleType)) {
    // no title to apply for or note a lien on: the lien is perfected by a financing statement
    for (const f of [
      'form_title_application',
      'form_lien_add',
      'form_duplicate_title',
      'form_odometer_disclosure',
    ] as const)
      out.delete(f);
    if (txns.includes('new_lien') || txns.includes('refinance')) out.add('form_ucc1');
  }
  return [...out];
}

export function planForms(
  entry: Readonly<TitleEntry>,
  states: ReadonlyMap<string, StatePlugin>,
  today = new Date(),
): FormPlan {
  const transactions = detectTransactions(entry);
  const code = filingState(entry);
  const state = code ? states.get(code) : undefined;
  const base = { transactions, declared: [] as FormKind[], forms: [] as FormKind[], signers: [] as Signer[] };
  if (!code) return { ...base, skipped: 'skipped_no_state', reason: 'the entry has no state' };
  if (!state) return { ...base, skipped: 'skipped_no_state', reason: `no enabled state plugin for '${code}'` };
  const declared = declaredForms(state, transactions, (entry.account_data.vehicle?.type ?? 'AUTO').toUpperCase());
  if (!declared.length)
    return {
      ...base,
      state,
      skipped: 'skipped_no_spec',
      reason: `${state.code} declares no forms for ${transactions.join(', ') || 'this entry'}`,
    };
  const { values, signers } = buildValues(entry, state, transactions, today);
  if (!values.vehicle.vin)
    return { ...base, state, declared, values, signers, skipped: 'skipped_no_data', reason: 'the entry has no VIN' };
  const forms = PACKET_ORDER.filter((k) => {
    if (!declared.includes(k)) return false;
    const c = FORM_CATALOG[k];
    if (!c.applies(values)) return false;
    const t = state.templates[k];
    if (t?.only && t.when && !resolveFlag(values, t.when)) return false;
    return !c.signers || c.signers(signers).length > 0;
  });
  if (!forms.some((f) => f !== 'form_instructions')) {
    return {
      ...base,
      state,
      declared,
      values,
      signers,
      skipped: 'skipped_no_data',
      reason: `the entry lacks the data of every declared form (${declared.join(', ')})`,
    };
  }
  return { transactions, state, declared, forms, values, signers };
}
