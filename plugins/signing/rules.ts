/**
 * The request type from the filing state's signing rules (states/signing-rules.ts):
 * RON when a document to sign needs a notary and the state accepts remote
 * online notarization, WET_SIGN when one needs wet ink (or a notary without
 * RON), else E_SIGN (the hosted signing page).
 */
import type { TitleEntry } from '../../core/plugin-api.js';
import { signingRulesFor } from '../../states/signing-rules.js';

export function chooseType(entry: TitleEntry, docNames: string[]): 'E_SIGN' | 'WET_SIGN' | 'RON' {
  const rules = signingRulesFor(entry.state);
  if (!rules) return 'E_SIGN';
  const base = docNames.map((n) => n.replace(/\[\d+\]$/, ''));
  if (base.some((n) => rules.wetInk.includes(n))) return 'WET_SIGN';
  if (base.some((n) => rules.notary.includes(n))) return rules.ron ? 'RON' : 'WET_SIGN';
  return 'E_SIGN';
}
