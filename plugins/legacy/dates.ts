/**
 * Legacy dates: `MM-DD-YYYY` or `MM/DD/YYYY` (spec, POST /generate_forms),
 * also ISO `YYYY-MM-DD`, stored as ISO `YYYY-MM-DD` in account data.
 */
const LEGACY = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The ISO date for a legacy date string, or null when it is not a real calendar date in one of the formats. */
export function legacyDate(s: string): string | null {
  const t = s.trim();
  let y: number, m: number, d: number;
  const legacy = LEGACY.exec(t);
  const iso = ISO.exec(t);
  if (legacy) [m, d, y] = [Number(legacy[1]), Number(legacy[2]), Number(legacy[3])];
  else if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
