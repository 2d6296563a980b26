/**
 * Certificate of title: vehicle (VIN, year, make, model, body), title
 * (number, issuing state, issue date, odometer and its brand, title brands),
 * owners (names, conjunction, address) and the first lien (lienholder,
 * address, lien date).
 */
import type { AccountData, Person } from '../../../core/model/schemas.js';
import type { Layout } from '../layout/layout.js';
import { collapse, parseDate, parseYear } from '../layout/text.js';
import { addressOf, headerState, makeText, stateCode, identifier, odometer, odometerBrand, parseParty, shortText, stateValue, titleBrands, vinText, type Fields, type Party } from './common.js';
import { runSpecs, type SpecResult } from './run.js';
import type { VinRead } from './vin.js';

export const VIN_LABELS = ['VEHICLE IDENTIFICATION NUMBER', 'VEHICLE IDENTIFICATION NO', 'VEHICLE ID NUMBER', 'VEHICLE ID NO', 'VEHICLE ID', 'VIN', 'VIN NO', 'VIN NUMBER', 'IDENTIFICATION NUMBER', 'SERIAL NUMBER', 'HULL ID'];
export const YEAR_LABELS = ['YEAR MODEL', 'MODEL YEAR', 'YEAR', 'YR', 'YR MODEL', 'VEHICLE YEAR', 'YR MDL'];
export const MAKE_LABELS = ['MAKE', 'MAKE OF VEHICLE', 'VEHICLE MAKE', 'MAKE OF CAR', 'MFR', 'MANUFACTURER'];
const SPECS = [
  { key: 'vin', labels: VIN_LABELS, parse: vinText, typed: true },
  { key: 'year', labels: YEAR_LABELS, parse: parseYear, typed: true },
  { key: 'make', labels: MAKE_LABELS, parse: makeText },
  { key: 'model', labels: ['MODEL', 'VEHICLE MODEL', 'SERIES', 'MODEL NAME'], parse: shortText(3) },
  { key: 'body', labels: ['BODY TYPE', 'BODY STYLE', 'BODY', 'BODY TYPE MODEL', 'STYLE', 'BODY CODE'], parse: shortText(3) },
  { key: 'title_number', labels: ['TITLE NUMBER', 'TITLE NO', 'TITLE #', 'TITLE DOCUMENT NUMBER', 'DOCUMENT NUMBER', 'CERTIFICATE NUMBER', 'CERTIFICATE NO', 'TITLE NUM', 'TITLE ID', 'DOCUMENT NO'], parse: identifier, typed: true },
  { key: 'issue_date', labels: ['ISSUE DATE', 'DATE ISSUED', 'DATE OF ISSUE', 'DATE TITLE ISSUED', 'TITLE ISSUE DATE', 'ISSUED', 'TITLE DATE', 'ISSUED ON', 'DATE OF TITLE'], parse: parseDate, typed: true },
  { key: 'odometer_reading', labels: ['ODOMETER READING', 'ODOMETER', 'MILEAGE', 'ODOMETER MILES', 'ODOMETER DISCLOSURE'], parse: odometer, typed: true },
  { key: 'odometer_brand', labels: ['ODOMETER STATUS', 'ODOMETER BRAND', 'MILEAGE STATUS', 'ODOMETER CODE', 'MILEAGE BRAND', 'ODOMETER DESCRIPTION'], parse: odometerBrand },
  { key: 'brands', labels: ['TITLE BRANDS', 'TITLE BRAND', 'BRANDS', 'BRAND', 'BRAND S', 'BRANDING', 'TITLE BRANDING'], parse: titleBrands },
  { key: 'lien_date', labels: ['LIEN DATE', 'DATE OF LIEN', '1ST LIEN DATE', 'FIRST LIEN DATE', 'LIEN NOTATION DATE', 'LIEN RECORDED', 'DATE LIEN RECORDED'], parse: parseDate, typed: true },
  { key: 'issuing_state', labels: ['ISSUING STATE', 'STATE OF ISSUE', 'TITLE STATE', 'ISSUING JURISDICTION'], parse: stateValue },
];
const BLOCKS = [
  { key: 'owners', labels: ['REGISTERED OWNER', 'REGISTERED OWNERS', 'REGISTERED OWNER S', 'OWNER', 'OWNERS', 'OWNER S', 'OWNER NAME AND ADDRESS', 'NAME S AND ADDRESS OF OWNER S', 'NAMES AND ADDRESS OF OWNERS', 'NAME AND ADDRESS OF OWNER', 'OWNER NAME', 'OWNERS NAME', 'OWNER INFORMATION', 'TITLED OWNER'] },
  { key: 'lienholder', labels: ['LIENHOLDER', '1ST LIENHOLDER', 'FIRST LIENHOLDER', 'LIEN HOLDER', '1ST LIEN HOLDER', 'LEGAL OWNER', 'LEGAL OWNER LIENHOLDER', 'SECURED PARTY', 'FIRST LIEN', 'LIENHOLDER NAME AND ADDRESS', 'LIENHOLDER INFORMATION'] },
];
export const TITLE_STOPPERS = ['2ND LIENHOLDER', 'SECOND LIENHOLDER', 'REMARKS', 'RELEASE OF LIEN', 'SIGNATURE', 'FEES PAID', 'MAILING ADDRESS', 'PREVIOUS TITLE', 'COLOR', 'PRIMARY COLOR', 'WEIGHT', 'PLATE', 'TYPE'];

export interface TitleResult { fields: Fields; account_data: AccountData; vin: VinRead | null; vinRegions: SpecResult['vinRegions'] }

export const person = (n: Party['names'][number], p: Party | null): Person => {
  const out: Person = { type: 'PERSON', name: n.name, name_first: n.first, name_last: n.last };
  if (n.middle) out.name_middle = n.middle;
  if (n.suffix) out.name_suffix = n.suffix;
  const addr = addressOf(p);
  if (addr) out.addr = addr;
  return out;
};

export function partyFields(prefix: string, p: Party | null, f: Fields): void {
  f[`${prefix}_1_name`] = p?.names[0]?.name ?? '';
  f[`${prefix}_2_name`] = p?.names[1]?.name ?? '';
  f[`${prefix}_street`] = p?.street ?? '';
  f[`${prefix}_city`] = p?.city ?? '';
  f[`${prefix}_state`] = p?.state ?? '';
  f[`${prefix}_zip`] = p?.zip ?? '';
}

export function extractTitle(pages: readonly Layout[]): TitleResult {
  const r = runSpecs(pages, SPECS, BLOCKS, TITLE_STOPPERS);
  const v = r.values;
  const f: Fields = {};
  f.vin = r.vin?.vin ?? '';
  for (const k of ['year', 'make', 'model', 'body', 'title_number', 'issue_date', 'odometer_reading'] as const) f[k] = v[k] ?? '';
  f.issuing_state = v.issuing_state ?? pages.map(headerState).find(Boolean) ?? '';
  const text = pages.map((l) => l.phrases.map((p) => p.text).join(' ')).join(' ');
  f.odometer_brand = v.odometer_brand ?? odometerBrand(text.replace(/ODOMETER (STATUS|BRAND)/gi, '')) ?? '';
  f.brands = v.brands ?? '';
  const owners = r.blocks.owners ? parseParty(r.blocks.owners) : null;
  partyFields('owner', owners, f);
  f.conjunction = owners && owners.names.length > 1 ? owners.conjunction : '';
  const lien = r.blocks.lienholder ? parseParty(r.blocks.lienholder) : null;
  f.lienholder_name = lien ? collapse(lien.nameLines.join(' ')) : '';
  f.lienholder_street = lien?.street ?? '';
  f.lienholder_city = lien?.city ?? '';
  f.lienholder_state = lien?.state ?? '';
  f.lienholder_zip = lien?.zip ?? '';
  f.lien_date = lien ? v.lien_date ?? '' : '';

  const title: NonNullable<NonNullable<AccountData['vehicle']>['title']> = {};
  if (f.title_number) title.number = f.title_number;
  if (f.issuing_state) title.issuing_state = stateCode(f.issuing_state);
  if (f.issue_date) title.issuance_date = f.issue_date;
  if (f.odometer_reading) {
    title.odometer_reading = f.odometer_reading;
    title.odometer_reading_unit = 'MI';
  }
  if (f.odometer_brand) title.odometer_code_translation = f.odometer_brand as 'ACTUAL';
  if (v.brands !== undefined) {
    const list = f.brands ? f.brands.split(',') : [];
    if (list.length) title.brand = list[0] as 'SALVAGE';
    title.brands = list.map((b) => ({ brand: b }));
  }
  if (owners?.names.length) {
    title.owners = owners.names.map((n) => person(n, owners));
    title.number_of_owners = owners.names.length;
    title.owner_names_one_line = owners.names.map((n) => n.name).join(owners.conjunction ? ` ${owners.conjunction} ` : ' ');
    if (owners.names.length > 1 && owners.conjunction) {
      title.conjunction = owners.conjunction;
      title.is_and = owners.conjunction === 'AND';
      title.is_or = owners.conjunction === 'OR';
    }
  }
  if (r.blocks.lienholder) {
    title.has_liens = !!lien;
    title.active_liens = lien ? [{
      ...(f.lien_date ? { lien_date: f.lien_date } : {}),
      lienholder: { type: 'LIENHOLDER', name: f.lienholder_name, ...(addressOf(lien) ? { addr: addressOf(lien) } : {}) },
    }] : [];
  }
  const vehicle: NonNullable<AccountData['vehicle']> = {};
  if (f.vin) vehicle.vin = f.vin;
  if (f.year) vehicle.year = Number(f.year);
  for (const k of ['make', 'model', 'body'] as const) if (f[k]) vehicle[k] = f[k];
  if (Object.keys(title).length) vehicle.title = title;
  return { fields: f, account_data: Object.keys(vehicle).length ? { vehicle } : {}, vin: r.vin, vinRegions: r.vinRegions };
}
