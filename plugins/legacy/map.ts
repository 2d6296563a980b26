/**
 * Legacy shapes onto account data (spec: AccountData): LegacyPerson → Person,
 * legacy lienholder (`address_org`, `address_vault`, `email`) → Lienholder,
 * `transaction` + `vehicle` → account_data. Dates are already ISO (schemas.ts).
 */
import type { AccountData, Address, Lienholder, Person } from '../../core/plugin-api.js';
import type { GenerateFormsBody, LegacyLienholder, LegacyPerson, PoaBody } from './schemas.js';
import type { z } from 'zod';
import type { LegacyLienSchema } from './schemas.js';

type LegacyLien = z.infer<typeof LegacyLienSchema>;

/** Drops members that are undefined, so a merge never overwrites a value with nothing. */
function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export function toPerson(p: LegacyPerson): Person {
  const dlid = p.dlid ? compact({ ...p.dlid }) : undefined;
  return compact({
    type: 'PERSON',
    id: p.customer_id,
    name: p.full_name,
    dob: p.dob,
    dlid,
    ssn: p.ssn,
    addr: p.addr ?? undefined,
    addr_mailing: p.addr_mailing ?? undefined,
    contact_phone: p.contact_phone,
    contact_email: p.contact_email,
    insurance: p.insurance ?? undefined,
    ownership_type: p.ownership_type,
  }) as Person;
}

export function toLienholder(l: LegacyLienholder): Lienholder {
  return compact({
    type: 'LIENHOLDER',
    name: l.name,
    addr: l.address_org ?? undefined,
    address_vault: l.address_vault ?? undefined,
    elt_id: l.elt_id,
    feid: l.feid,
    signatory: l.signatory ? toPerson(l.signatory) : undefined,
    contact_email: l.contact_email ?? l.email,
    contact_phone: l.contact_phone,
  }) as Lienholder;
}

function toLien(l: LegacyLien) {
  return compact({ ...l, lienholder: l.lienholder ? toLienholder(l.lienholder) : undefined });
}

/** POST /generate_forms: the account data of a legacy transaction. */
export function generateFormsAccountData(body: GenerateFormsBody): AccountData {
  const { transaction: t, vehicle: v } = body;
  const { title, est_fees, date_of_sale, ...vehicle } = v;
  const ad: AccountData = { vehicle: compact({ ...vehicle }) as AccountData['vehicle'] };
  if (title) {
    const { owners, active_liens, ...rest } = title;
    ad.vehicle!.title = compact({
      ...rest,
      owners: owners?.map(toPerson),
      active_liens: active_liens?.map(toLien),
    }) as NonNullable<AccountData['vehicle']>['title'];
  }
  const prior = t.prior_lien ? toLien(t.prior_lien) : undefined;
  ad.loan = compact({
    loan_id: t.id,
    request_date: t.request_date,
    borrower: t.borrower?.map(toPerson),
    security_agreement_sign_date: t.security_agreement_sign_date,
    loan_amount: t.loan_amount,
    // spec: loan_amount is the payoff amount for a refinance
    payoff_amount: prior ? t.loan_amount : undefined,
    new_lienholder: t.new_lienholder ? toLienholder(t.new_lienholder) : undefined,
    prior_lien: prior,
    add_owner: t.add_owner?.map(toPerson),
    drop_owner: t.drop_owner?.map(toPerson),
  }) as AccountData['loan'];
  ad.sale = compact({
    state: t.state,
    date_of_sale,
    additional_dues: est_fees?.length ? { feeEstimates: est_fees.map((f) => compact({ ...f })) } : undefined,
  }) as AccountData['sale'];
  return ad;
}

const ADDRESS = /^(?<street>.+?),\s*(?<city>[^,]+?),?\s+(?<state>[A-Za-z]{2})\.?,?\s+(?<zip>\d{5}(?:-?\d{4})?)$/;

/** `street[, street2], city, ST 12345` as an Address; null when it does not read that way. */
export function parseOneLineAddress(s: string): Address | null {
  const m = ADDRESS.exec(s.trim().replace(/\s+/g, ' '));
  if (!m?.groups) return null;
  const [street1, ...more] = m.groups
    .street!.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return compact({
    street1,
    street2: more.length ? more.join(', ') : undefined,
    city: m.groups.city!.trim(),
    state: m.groups.state!.toUpperCase(),
    zip: m.groups.zip!,
  }) as Address;
}

/** POST /poa with pull_live false (or what the caller gave with pull_live true): the owners as title owners and borrowers. */
export function poaAccountData(body: PoaBody, orgName: string, vin: string): AccountData {
  const owners: Person[] = [];
  const owner = compact({
    type: 'PERSON',
    name: body.owner_full_name,
    addr: body.owner_address ? (parseOneLineAddress(body.owner_address) ?? undefined) : undefined,
    ssn: body.owner_ssn,
    dob: body.owner_dob,
    contact_email: body.owner_email,
    contact_phone: body.owner_phone,
  }) as Person;
  owners.push(owner);
  if (body.has_coowner) {
    owners.push(
      compact({
        type: 'PERSON',
        name: body.coowner_full_name,
        addr: body.coowner_address ? (parseOneLineAddress(body.coowner_address) ?? undefined) : undefined,
        ssn: body.coowner_ssn,
        dob: body.coowner_dob,
        contact_phone: body.coowner_phone,
      }) as Person,
    );
  }
  const named = owners.filter((o) => o.name);
  const ad: AccountData = { vehicle: { vin } };
  if (body.plate) ad.vehicle!.license_plate = body.plate;
  if (named.length) {
    // Two owners on a POA request both sign: recorded as an AND title (docs/legacy.md).
    ad.vehicle!.title = compact({
      owners: named,
      number_of_owners: named.length,
      is_and: named.length > 1 ? true : undefined,
    }) as NonNullable<AccountData['vehicle']>['title'];
  }
  ad.loan = compact({
    loan_id: body.account_id || `${orgName}_${vin}`,
    borrower: named.length ? [named[0]!] : undefined,
    new_lienholder: body.grantee ? { type: 'LIENHOLDER', name: body.grantee } : undefined,
  }) as AccountData['loan'];
  if (body.state) ad.sale = { state: body.state };
  return ad;
}
