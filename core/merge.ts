import deepEqual from 'fast-deep-equal';
import { klona } from 'klona';

/**
 * JSON Merge Patch (RFC 7396) with one documented rule set, used for every
 * merge of account data (create, update, PATCH, extracted data):
 * - objects merge member by member, recursively;
 * - `null` removes the member;
 * - arrays and scalars replace the old value whole (arrays are never appended).
 * Returns a new value; neither input is changed.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (value === undefined) continue;
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A deep copy of a JSON value (account records, entries). klona walks objects and arrays: 7 us for an enriched
 * entry's seven account sources, where structuredClone takes 31-34 us (it serializes and deserializes). Dates, Maps
 * and typed arrays are copied too, a `__proto__` member stays a member (rfdc, as fast, turned it into the copy's
 * prototype); cycles are not supported (JSON has none).
 */
export function clone<T>(v: T): T {
  return v === undefined ? v : klona(v);
}

/**
 * Top-level member names whose values differ between a and b (JSON values; a member set to undefined counts as
 * changed). fast-deep-equal walks both without building their JSON texts: a sixth of the time of comparing texts
 * on an enriched entry (each stage's checkpoint compares the whole entry).
 */
export function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k in a) if (!(k in b) || !deepEqual(a[k], b[k])) out.push(k);
  for (const k in b) if (!(k in a)) out.push(k);
  return out;
}
