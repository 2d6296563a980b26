import { computeCheckDigit } from '../../core/vin.js';

/** The n-th of a series of valid, distinct VINs (check digit computed): 1HGCM826?3A + 6-digit serial. */
export function vinFor(n: number, prefix = '1HGCM8260'): string {
  const draft = `${prefix.slice(0, 8)}0${'3A'}${String(n).padStart(6, '0')}`;
  return `${draft.slice(0, 8)}${computeCheckDigit(draft)}${draft.slice(9)}`;
}

/** A CSV of `rows` accounts in the import format (docs/import.md). */
export function accountsCsv(rows: number, o: { start?: number; state?: string } = {}): string {
  const lines = [
    'vin,year,make,model,title_state,borrower_first,borrower_last,borrower_email,borrower_street1,borrower_city,' +
      'borrower_state,borrower_zip,loan_id,loan_amount,lienholder_name',
  ];
  const state = o.state ?? 'TX';
  for (let i = 0; i < rows; i++) {
    const n = (o.start ?? 0) + i;
    lines.push(
      [
        vinFor(n),
        2015 + (n % 9),
        'HONDA',
        'ACCORD',
        state,
        `Pat${n}`,
        `Borrower${n}`,
        `pat${n}@example.com`,
        `${100 + (n % 900)} Main St`,
        'Austin',
        state,
        '78701',
        `LN-${n}`,
        10000 + n,
        'First Example Credit Union',
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}
