/**
 * The states' fee data, read and validated once per process
 * (states/<code>/fees.json through the zod schema in states/fee-schema.ts).
 */
import { loadStateFeeSchedule, STATE_CODES, type StateCode, type StateFeeSchedule } from '../../states/fee-schema.js';
import { loadStateLocalData, type StateLocalData } from '../../states/local-schema.js';

const cache = new Map<string, StateFeeSchedule>();
const localCache = new Map<string, StateLocalData | null>();

export const isStateCode = (code: string): code is StateCode =>
  (STATE_CODES as readonly string[]).includes(code.toUpperCase());

/** The fee data of a state (two-letter code, any case). Throws TypeError for a code that is not one of the 50 states and DC. */
export function feeSchedule(code: string): StateFeeSchedule {
  const hit = cache.get(code) ?? cache.get(code.toUpperCase()); // the code as given first: no case folding
  if (hit) return hit;
  const upper = code.toUpperCase();
  if (!isStateCode(upper)) throw new TypeError(`'${code}' is not a state code (the 50 states and DC)`);
  const s = Object.freeze(loadStateFeeSchedule(upper));
  cache.set(upper, s);
  return s;
}

/** The county and local data of a state (states/<code>/local.json), null when it has none. */
export function localSchedule(code: string): StateLocalData | null {
  const hit = localCache.get(code); // the code as given first (the calculator passes the upper case)
  if (hit !== undefined) return hit;
  const upper = code.toUpperCase();
  if (localCache.has(upper)) return localCache.get(upper)!;
  if (!isStateCode(upper)) throw new TypeError(`'${code}' is not a state code (the 50 states and DC)`);
  const l = loadStateLocalData(upper);
  const frozen = l ? Object.freeze(l) : null;
  localCache.set(upper, frozen);
  return frozen;
}
