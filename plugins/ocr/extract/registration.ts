/**
 * Vehicle registration: VIN, plate, expiration, year, make, registered
 * owners and their address (under the owners or under an address label).
 */
import type { AccountData } from '../../../core/plugin-api.js';
import type { Layout } from '../layout/layout.js';
import { collapse, parseDate, parseYear } from '../layout/text.js';
import { makeText, parseParty, vinText, yearMakeText, type Fields } from './common.js';
import { runSpecs, type SpecResult } from './run.js';
import { MAKE_LABELS, partyFields, person, VIN_LABELS, YEAR_LABELS, YEAR_MAKE_LABELS } from './title.js';
import type { VinRead } from './vin.js';

const plate = (s: string): string | null => {
  const t = collapse(s.toUpperCase())
    .split(' ')
    .slice(0, 2)
    .join('')
    .replace(/[^A-Z0-9]/g, '');
  return t.length >= 2 && t.length <= 8 && /\d/.test(t) ? t : null;
};

const SPECS = [
  { key: 'vin', labels: VIN_LABELS, parse: vinText, typed: true },
  { key: 'year', labels: YEAR_LABELS, parse: parseYear, typed: true },
  { key: 'make', labels: MAKE_LABELS, parse: makeText },
  { key: 'year_make', labels: YEAR_MAKE_LABELS, parse: yearMakeText, typed: true },
  {
    key: 'plate',
    labels: [
      'PLATE',
      'PLATE NO',
      'PLATE NUMBER',
      'PLATE #',
      'LICENSE PLATE',
      'LICENSE PLATE NO',
      'LICENSE PLATE NUMBER',
      'LICENSE NUMBER',
      'LICENSE NO',
      'LIC PLATE',
      'TAG',
      'TAG NO',
      'TAG NUMBER',
      'REGISTRATION PLATE',
    ],
    parse: plate,
    typed: true,
  },
  {
    key: 'registration_expiration',
    labels: [
      'EXPIRES',
      'EXPIRATION',
      'EXPIRATION DATE',
      'REGISTRATION EXPIRES',
      'REG EXPIRES',
      'REG EXP',
      'EXP DATE',
      'EXP',
      'VALID THROUGH',
      'VALID UNTIL',
      'VALID TO',
      'EXPIRES ON',
      'REGISTRATION EXPIRATION',
    ],
    parse: parseDate,
    typed: true,
  },
  {
    key: 'issued',
    labels: ['DATE ISSUED', 'ISSUED', 'ISSUE DATE', 'REGISTRATION ISSUED', 'EFFECTIVE DATE'],
    parse: parseDate,
    typed: true,
  },
];
const BLOCKS = [
  {
    key: 'owners',
    labels: [
      'REGISTERED OWNER',
      'REGISTERED OWNERS',
      'REGISTERED OWNER S',
      'OWNER',
      'OWNERS',
      'OWNER S',
      'REGISTRANT',
      'REGISTRANTS',
      'OWNER NAME',
      'OWNER NAME AND ADDRESS',
      'NAME AND ADDRESS',
    ],
  },
  {
    key: 'address',
    labels: ['MAILING ADDRESS', 'ADDRESS', 'RESIDENCE ADDRESS', 'OWNER ADDRESS', 'RESIDENTIAL ADDRESS'],
  },
];
const STOPPERS = [
  'FEES PAID',
  'FEES',
  'BODY TYPE MODEL',
  'BODY TYPE',
  'MODEL',
  'BODY',
  'COLOR',
  'WEIGHT',
  'CLASS',
  'COUNTY',
  'TITLE NUMBER',
  'TOTAL',
];

interface RegistrationResult {
  fields: Fields;
  account_data: AccountData;
  vin: VinRead | null;
  vinRegions: SpecResult['vinRegions'];
}

export function extractRegistration(pages: readonly Layout[]): RegistrationResult {
  const r = runSpecs(pages, SPECS, BLOCKS, STOPPERS);
  const v = r.values;
  const [ymYear, ymMake] = (v.year_make ?? '').split('\t');
  const f: Fields = {
    vin: r.vin?.vin ?? '',
    plate: v.plate ?? '',
    registration_expiration: v.registration_expiration ?? '',
    year: v.year ?? ymYear ?? '',
    make: v.make ?? ymMake ?? '',
  };
  const owners = r.blocks.owners ? parseParty(r.blocks.owners) : null;
  const addr = r.blocks.address ? parseParty(['X X', ...r.blocks.address]) : null;
  const party =
    owners && !owners.street && addr?.street
      ? { ...owners, street: addr.street, city: addr.city, state: addr.state, zip: addr.zip }
      : owners;
  partyFields('owner', party, f);
  const vehicle: NonNullable<AccountData['vehicle']> = {};
  if (f.vin) vehicle.vin = f.vin;
  if (f.year) vehicle.year = Number(f.year);
  if (f.make) vehicle.make = f.make;
  if (f.plate) vehicle.license_plate = f.plate;
  if (f.registration_expiration) vehicle.registration_expiration_date = f.registration_expiration;
  if (v.issued) vehicle.registration_issuance_date = v.issued;
  if (party?.names.length) {
    vehicle.title = { owners: party.names.map((n) => ({ ...person(n, party), ownership_type: 'registered_owner' })) };
  }
  return {
    fields: f,
    account_data: Object.keys(vehicle).length ? { vehicle } : {},
    vin: r.vin,
    vinRegions: r.vinRegions,
  };
}
