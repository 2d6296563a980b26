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

export function clone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}

/** Top-level member names whose JSON differs between a and b. */
export function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}
