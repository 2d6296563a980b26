/**
 * Per-state signing rules: which generated documents need a notary, which
 * need wet ink, whether an electronic signature is accepted and whether
 * remote online notarization (RON) can stand in for a notary. The signing
 * plugin chooses a request's type from them (plugins/signing/rules.ts).
 *
 * Every row is marked unsourced until someone checks it against the state's
 * own publication (statute or DMV page, with its URL): the default follows
 * the state plugin's `rules.poaNotarized` for the power of attorney and
 * accepts electronic signatures on the rest (E-SIGN Act, 15 U.S.C. 7001, and
 * the state's UETA; a state that refuses must be listed here).
 */
import type { RuleSource } from './types.js';
import { STATE_PLUGINS } from './registry.js';

export interface SigningRules {
  /** Entry members (`forms_poa`, `form_title_application`, ...) that must be notarized. */
  notary: readonly string[];
  /** Entry members that must be signed in ink on paper. */
  wetInk: readonly string[];
  /** Whether an electronic signature is accepted on the other documents. */
  eSign: boolean;
  /** Whether a remote online notarization satisfies `notary`. */
  ron: boolean;
  sources: readonly RuleSource[];
}

const UNSOURCED: RuleSource = { unsourced: true, note: "default: not yet checked against the state's publication" };

/** States whose rules differ from the default (none verified yet: each row carries its source or is marked unsourced). */
const OVERRIDES: Record<string, Partial<SigningRules>> = {};

export function signingRulesFor(state: string | undefined | null): SigningRules | null {
  if (!state) return null;
  const code = state.toUpperCase();
  const plugin = STATE_PLUGINS.find((p) => p.code === code);
  if (!plugin) return null;
  const base: SigningRules = {
    notary: plugin.rules.poaNotarized ? ['forms_poa'] : [],
    wetInk: [],
    eSign: true,
    ron: false,
    sources: [UNSOURCED],
  };
  return { ...base, ...OVERRIDES[code] };
}
