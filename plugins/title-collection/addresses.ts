/** Addresses as carriers take them: the receiving facility and the borrower. */
import { personName, type CompleteAddress, type TitleEntry } from '../../core/plugin-api.js';
import type { CarrierAddress } from './carrier.js';

type Lines = Pick<CompleteAddress, 'street1' | 'city' | 'state' | 'zip'> & { street2?: string | null };

function carrierAddress(name: string, a: Lines): CarrierAddress {
  return {
    name,
    street1: a.street1,
    ...(a.street2 ? { street2: a.street2 } : {}),
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: 'US',
  };
}

export function toCarrierAddress(a: CompleteAddress, fallbackName: string): CarrierAddress {
  return carrierAddress(a.recipient_name ?? fallbackName, a);
}

/** The borrower's mailing address (the first borrower of the loan, else the title's first owner). */
export function borrowerAddress(entry: Readonly<TitleEntry>): CarrierAddress | null {
  const ad = entry.account_data ?? {};
  const people = [...(ad.loan?.borrower ?? []), ...(ad.vehicle?.title?.owners ?? [])];
  for (const p of people) {
    const a = p?.addr_mailing ?? p?.addr;
    if (a?.street1 && a.city && a.state && a.zip) {
      return carrierAddress(personName(p) || entry.Borrower || 'Borrower', {
        ...a,
        street1: a.street1,
        city: a.city,
        state: a.state,
        zip: a.zip,
      });
    }
  }
  return null;
}
