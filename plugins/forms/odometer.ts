/**
 * Federal odometer disclosure (49 CFR Part 580).
 *
 * Exemptions (49 CFR 580.17(a), as amended in 2019): a vehicle with a GVWR
 * over 16,000 lbs; a vehicle that is not self-propelled (trailers; vessels are
 * not motor vehicles at all); a vehicle of model year 2010 or older that is
 * 10 years old or older; a vehicle of model year 2011 or newer that is 20
 * years old or older. Age is the current calendar year minus the model year.
 */

/** The statements a disclosure must offer (49 CFR 580.5(c)): exactly one is certified. */
export const ODOMETER_STATEMENTS = {
  actual:
    'I hereby certify that to the best of my knowledge the odometer reading reflects the actual mileage of the vehicle described below.',
  exceeds:
    'I hereby certify that to the best of my knowledge the odometer reading reflects the amount of mileage in excess of its mechanical limits.',
  not_actual: 'I hereby certify that the odometer reading is NOT the actual mileage. WARNING - ODOMETER DISCREPANCY.',
} as const;

/** The warning every disclosure carries (49 CFR 580.5(c)). */
export const ODOMETER_WARNING =
  'Federal law (and State law, if applicable) requires that you state the mileage upon transfer of ownership. Failure to complete or providing a false statement may result in fines and/or imprisonment.';

export function odometerExempt(
  v: { type?: string; year?: number | string; gvwr?: string | number },
  today = new Date(),
): boolean {
  const type = (v.type ?? 'AUTO').toUpperCase();
  if (type === 'TRAILER' || type === 'BOAT') return true;
  const gvwr = Number(String(v.gvwr ?? '').replace(/[^\d.]/g, ''));
  if (Number.isFinite(gvwr) && gvwr > 16_000) return true;
  const year = Number(v.year);
  if (!Number.isInteger(year) || year < 1886) return false;
  const age = today.getUTCFullYear() - year;
  return year <= 2010 ? age >= 10 : age >= 20;
}
