import { computeCheckDigit } from '../../core/vin.js';

const PLANTS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/**
 * Distinct, well-formed VINs with a correct check digit (49 CFR 565.15):
 * `prefix` (positions 1-8, no I/O/Q), the computed check digit, model year
 * `year` (position 10), then `n` spread over the plant code (position 11) and
 * a 6-digit serial (positions 12-17): 33 million distinct VINs per prefix.
 */
export function vinFor(prefix: string, n: number, year = 'K'): string {
  if (prefix.length !== 8) throw new Error('VIN prefix must be 8 characters');
  const serial = String(n % 1_000_000).padStart(6, '0');
  const plant = PLANTS[Math.floor(n / 1_000_000) % PLANTS.length]!;
  const draft = `${prefix}0${year}${plant}${serial}`;
  const check = computeCheckDigit(draft);
  if (!check) throw new Error(`not a VIN: ${draft}`);
  return `${prefix}${check}${year}${plant}${serial}`;
}

/** A structured create body (POST /title) for VIN number `n` of a stream. */
export function createBody(prefix: string, n: number, o: { pii?: boolean } = {}): string {
  const person = o.pii
    ? {
        ssn: `${100 + (n % 800)}-${10 + (n % 89)}-${1000 + (n % 8999)}`,
        dob: '1980-02-03',
        dlid: { number: `D${1000000 + n}`, state: 'TX' },
      }
    : {};
  const state = (['TX', 'CA', 'FL', 'NY', 'OH'] as const)[n % 5];
  return JSON.stringify({
    account_data: {
      vehicle: {
        vin: vinFor(prefix, n),
        year: 2019,
        make: 'HONDA',
        model: 'ACCORD',
        color: 'BLUE',
        title: { issuing_state: state, number: `T${100000 + n}` },
      },
      loan: {
        loan_id: `LN-${prefix}-${n}`,
        loan_amount: 18500,
        borrower: [
          {
            name_first: 'Jane',
            name_last: `Doe${n}`,
            ...person,
            addr: { street1: '100 Main St', city: 'Austin', state, zip: '78701' },
          },
        ],
      },
    },
  });
}
