/**
 * Which fields POST /poa requires or refuses, per state. The per-state part
 * lives in the state plugins (`rules.poaFields`, states/<code>/forms.ts, each
 * with its source): `ssn` (New Jersey, Ohio), `dob` (Arizona, Florida,
 * Colorado), `plate` (Alabama, Alaska, California, Kentucky, Oregon, Vermont).
 * A field a state's rules name is required there and refused elsewhere.
 */
import type { StatePlugin } from '../../states/types.js';
import type { PoaBody } from './schemas.js';

export interface FieldCheck {
  missing: string[];
  notAllowed: string[];
}

type StateField = 'ssn' | 'dob' | 'plate';
const STATE_FIELDS: readonly StateField[] = ['ssn', 'dob', 'plate'];

/** The body members a per-state field stands for: the owner's, and the co-owner's. */
function members(f: StateField): { owner: keyof PoaBody; coowner?: keyof PoaBody } {
  if (f === 'plate') return { owner: 'plate' };
  return { owner: `owner_${f}` as keyof PoaBody, coowner: `coowner_${f}` as keyof PoaBody };
}

const given = (body: PoaBody, k: keyof PoaBody) => body[k] !== undefined && body[k] !== '';

/**
 * The fields missing and not allowed for `state` (undefined: not known yet,
 * with pull_live before the pull). With pull_live the plate may come from the
 * DMV record: it is required of the caller only when `pull` says the pulls
 * ran (`done`) and found none (`plate` false).
 */
export function checkPoaFields(
  body: PoaBody,
  state: StatePlugin | undefined,
  pull?: { done: boolean; plate: boolean },
): FieldCheck {
  const missing: string[] = [];
  const notAllowed: string[] = [];
  const live = body.pull_live === true;
  if (!live) {
    for (const k of ['state', 'owner_full_name', 'owner_address'] as const) if (!given(body, k)) missing.push(k);
    if (body.has_coowner)
      for (const k of ['coowner_full_name', 'coowner_address'] as const) if (!given(body, k)) missing.push(k);
  }
  if (!body.has_coowner) {
    for (const k of ['coowner_full_name', 'coowner_address', 'coowner_ssn', 'coowner_dob', 'coowner_phone'] as const) {
      if (given(body, k)) notAllowed.push(k);
    }
  }
  if (!state) return { missing, notAllowed };
  const needs = new Set<string>(state.rules.poaFields);
  for (const f of STATE_FIELDS) {
    const m = members(f);
    const keys = [m.owner, ...(m.coowner && body.has_coowner ? [m.coowner] : [])];
    for (const k of keys) {
      if (needs.has(f)) {
        const pullMayGiveIt = f === 'plate' && live && !(pull?.done && !pull.plate);
        if (!given(body, k) && !pullMayGiveIt) missing.push(k);
      } else if (given(body, k)) {
        notAllowed.push(k);
      }
    }
  }
  return { missing, notAllowed };
}

/** The 400 message naming the fields, or null when nothing is wrong. */
export function describeFieldCheck(c: FieldCheck, stateCode: string | undefined): string | null {
  const parts: string[] = [];
  const where = stateCode ? ` for ${stateCode}` : '';
  if (c.missing.length) parts.push(`missing required fields${where}: ${c.missing.join(', ')}`);
  if (c.notAllowed.length) parts.push(`fields not allowed${where}: ${c.notAllowed.join(', ')}`);
  return parts.length ? parts.join('; ') : null;
}
