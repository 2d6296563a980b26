/**
 * VIN normalization and the check digit of 49 CFR 565.15.
 * A VIN with a wrong check digit is accepted but flagged: pre-1981 VINs and
 * many non-US VINs do not carry a valid check digit (docs/decisions.md).
 */
const TRANSLIT: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/;

export interface VinCheck {
  vin: string;
  /** Well formed: 17 characters of the VIN alphabet (no I, O, Q). */
  valid: boolean;
  /** Position 9 equals the computed check digit. */
  checkDigitValid: boolean;
  expectedCheckDigit?: string;
  reason?: string;
}

/** Uppercases and removes spaces and dashes; does not change any other character. */
export function normalizeVin(raw: string): string {
  return raw.toUpperCase().replace(/[\s-]/g, '');
}

export function computeCheckDigit(vin: string): string | undefined {
  if (!VIN_RE.test(vin)) return undefined;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const ch = vin[i]!;
    const value = ch >= '0' && ch <= '9' ? Number(ch) : TRANSLIT[ch]!;
    sum += value * WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

export function checkVin(raw: string): VinCheck {
  const vin = normalizeVin(raw);
  if (vin.length !== 17)
    return { vin, valid: false, checkDigitValid: false, reason: `VIN must be 17 characters, got ${vin.length}` };
  if (/[IOQ]/.test(vin)) return { vin, valid: false, checkDigitValid: false, reason: 'VIN must not contain I, O or Q' };
  if (!VIN_RE.test(vin))
    return { vin, valid: false, checkDigitValid: false, reason: 'VIN may hold only letters and digits' };
  const expected = computeCheckDigit(vin)!;
  return { vin, valid: true, checkDigitValid: vin[8] === expected, expectedCheckDigit: expected };
}
