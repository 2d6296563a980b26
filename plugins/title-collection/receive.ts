/**
 * The receiving facility's match: what the operator reads from the paper
 * title (VIN, title number) against the entry. Returns what matched; throws
 * TITLE_MISMATCH with the reason, or INVALID_INPUT when nothing was given.
 */
import { TitledError, type TitleEntry } from '../../core/plugin-api.js';

const norm = (s: string) => s.replace(/[\s-]/g, '').toUpperCase();

export function matchReceivedTitle(
  entry: Readonly<TitleEntry>,
  got: { vin?: string; title_number?: string },
): string[] {
  const vin = got.vin?.trim().toUpperCase();
  const number = got.title_number?.trim();
  if (!vin && !number)
    throw new TitledError('INVALID_INPUT', 'give the VIN or the title number read from the received title');
  const mismatch = (why: string) => new TitledError('TITLE_MISMATCH', why);
  if (vin && vin !== entry.VIN.toUpperCase()) {
    throw mismatch(`the received title's VIN ${vin} does not match the entry's VIN ${entry.VIN}`);
  }
  const want = String(entry.account_data?.vehicle?.title?.number ?? '').trim();
  if (number && want && norm(number) !== norm(want)) {
    throw mismatch(`the received title's number ${number} does not match the entry's title number ${want}`);
  }
  if (number && !want && !vin) {
    throw mismatch('the entry has no title number to match; give the VIN read from the received title');
  }
  return [vin ? 'VIN' : '', number && want ? 'title_number' : ''].filter(Boolean);
}
