/**
 * A signer's driver license photo: read by the document extraction (plugins/ocr
 * through COLLABORATORS.extraction) and matched against the owner's name and
 * address on the title. A mismatch is recorded, never silently accepted.
 */
import { namesMatch, personName, type ExtractedDocument } from '../../core/plugin-api.js';

export interface LicenseCheck {
  read: boolean;
  document_type?: string;
  name?: string;
  number_last4?: string;
  state?: string;
  match: { ok: boolean | null; name: boolean | null; address: boolean | null; reasons: string[] };
}

const norm = (s: unknown) =>
  String(s ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
/** USPS street suffixes (Publication 28, appendix C1), the common ones: written out -> abbreviation. */
const SUFFIX: Record<string, string> = {
  STREET: 'ST',
  ROAD: 'RD',
  AVENUE: 'AVE',
  DRIVE: 'DR',
  LANE: 'LN',
  BOULEVARD: 'BLVD',
  COURT: 'CT',
  PLACE: 'PL',
  TERRACE: 'TER',
  CIRCLE: 'CIR',
  PARKWAY: 'PKWY',
  HIGHWAY: 'HWY',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
};
const street = (s: unknown) =>
  norm(
    String(s ?? '')
      .toUpperCase()
      .replace(/[A-Z]+/g, (w) => SUFFIX[w] ?? w),
  );

/** Compares what the license says with the signer's person record. */
export function checkLicense(x: ExtractedDocument | null, person: Record<string, unknown>): LicenseCheck {
  if (!x || !/DRIVER_LICENSE/.test(x.document_type)) {
    return {
      read: false,
      match: { ok: false, name: null, address: null, reasons: ['the photo was not read as a driver license'] },
    };
  }
  const f = x.fields;
  const name = [f.name_first, f.name_middle, f.name_last].filter(Boolean).join(' ');
  const reasons: string[] = [];
  const nameOk = !!name && namesMatch(name, personName(person as never));
  if (!nameOk) reasons.push(`the license names ${name || 'nobody readable'}, not ${personName(person as never)}`);
  const addr = (person.addr ?? {}) as Record<string, unknown>;
  let addressOk: boolean | null = null;
  if (addr.street1 || addr.zip) {
    addressOk = street(f.street) === street(addr.street1) && norm(f.zip).slice(0, 5) === norm(addr.zip).slice(0, 5);
    if (!addressOk) reasons.push("the license address differs from the owner's address on the title");
  }
  const number = String(f.license_number ?? '');
  return {
    read: true,
    document_type: x.document_type,
    name,
    ...(number ? { number_last4: number.slice(-4) } : {}),
    ...(f.license_state ? { state: String(f.license_state) } : {}),
    match: { ok: nameOk && addressOk !== false, name: nameOk, address: addressOk, reasons },
  };
}
