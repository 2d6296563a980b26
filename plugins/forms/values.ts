/**
 * FormValues: everything a form prints, computed once from an entry
 * (states/types.ts documents each member). Strings are '' when unknown, dates
 * MM/DD/YYYY, money 1,234.56.
 */
import type { TitleEntry, Lien, Lienholder, Person } from '../../core/plugin-api-model.js';
import { personName as corePersonName } from '../../core/plugin-api-pure.js';
import { loadStateFeeSchedule } from '../../states/fee-data.js';
import { STATE_PLUGINS } from '../../states/registry.js';
import type {
  AddressValues,
  FormValues,
  LienValues,
  PersonValues,
  StatePlugin,
  Transaction,
} from '../../states/types.js';
import { odometerExempt } from './odometer.js';

type Addr =
  | {
      street1?: string | null;
      street2?: string | null;
      city?: string | null;
      state?: string | null;
      zip?: string | null;
      county?: string | null;
    }
  | null
  | undefined;

const s = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());
const join = (parts: unknown[], sep = ' '): string => parts.map(s).filter(Boolean).join(sep);
const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V']);

/** `MM/DD/YYYY` from ISO (`2024-05-01`, with or without time), `MM-DD-YYYY` or `MM/DD/YYYY`; other text as given. */
export function formatDate(v: unknown): string {
  const t = s(v);
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) return `${m[2]}/${m[3]}/${m[1]}`;
  m = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(t);
  if (m) return `${m[1]!.padStart(2, '0')}/${m[2]!.padStart(2, '0')}/${m[3]}`;
  return t;
}

/** One formatter for every amount (`toLocaleString` with options builds a new one per call). */
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `12,345.60` from a number or numeric text; other text as given. */
export function formatMoney(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[$,\s]/g, ''));
  if (!Number.isFinite(n)) return s(v);
  return MONEY.format(n);
}

const EMPTY_ADDR: AddressValues = Object.freeze({
  street1: '',
  street2: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  zip5: '',
  county: '',
  one_line: '',
  city_state_zip: '',
});

function addressValues(a: Addr): AddressValues {
  if (!a) return EMPTY_ADDR;
  const street = join([a.street1, a.street2]);
  const csz = join([s(a.city) + (a.state || a.zip ? ',' : ''), a.state, a.zip]).replace(/,$/, '');
  return {
    street1: s(a.street1),
    street2: s(a.street2),
    street,
    city: s(a.city),
    state: s(a.state).toUpperCase(),
    zip: s(a.zip),
    zip5: s(a.zip).slice(0, 5),
    county: s(a.county),
    one_line: join([street, csz], ', '),
    city_state_zip: csz,
  };
}

function splitName(full: string): { first: string; middle: string; last: string; suffix: string } {
  const parts = full.replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  let suffix = '';
  if (parts.length > 2 && SUFFIXES.has(parts[parts.length - 1]!.toUpperCase().replace(/\./g, '')))
    suffix = parts.pop()!;
  if (parts.length < 2) return { first: parts[0] ?? '', middle: '', last: '', suffix };
  return { first: parts[0]!, middle: parts.slice(1, -1).join(' '), last: parts[parts.length - 1]!, suffix };
}

const EMPTY_PERSON: PersonValues = Object.freeze({
  id: '',
  name: '',
  name_lfm: '',
  first: '',
  middle: '',
  last: '',
  suffix: '',
  dob: '',
  dob_mm: '',
  dob_dd: '',
  dob_yyyy: '',
  ssn: '',
  ssn_last4: '',
  dl_number: '',
  dl_state: '',
  phone: '',
  phone_area: '',
  phone_local: '',
  email: '',
  addr: EMPTY_ADDR,
  mailing: EMPTY_ADDR,
  mailing_if_different: EMPTY_ADDR,
  residence_if_different: EMPTY_ADDR,
  other_names: '',
  insurance_provider: '',
  insurance_policy: '',
  present: false,
  has_dl: false,
  non_obligor: false,
});

type PersonLike = (Partial<Person> & { name?: string | null }) | null | undefined;

/** The person's full name as printed: `name`, else its parts. */
/** A person's display name (core's one rule: `name`, else the parts joined). */
const personName = (p: PersonLike): string => corePersonName(p as Parameters<typeof corePersonName>[0]);

export function personValues(p: PersonLike, nonObligor = false): PersonValues {
  const name = personName(p);
  if (!p || !name) return EMPTY_PERSON;
  const parsed = p.name_last
    ? { first: s(p.name_first), middle: s(p.name_middle), last: s(p.name_last), suffix: s(p.name_suffix) }
    : splitName(name);
  const given = join([parsed.first, parsed.middle]);
  const name_lfm = parsed.last ? `${parsed.last}, ${join([given, parsed.suffix])}`.replace(/, $/, '') : name;
  const digits = s(p.contact_phone)
    .replace(/\D/g, '')
    .replace(/^1(?=\d{10}$)/, '');
  const phone_area = digits.length === 10 ? digits.slice(0, 3) : '';
  const phone_local = digits.length === 10 ? `${digits.slice(3, 6)}-${digits.slice(6)}` : s(p.contact_phone);
  const addr = addressValues(p.addr ?? p.dlid?.addr);
  const mailing = p.addr_mailing ? addressValues(p.addr_mailing) : addr;
  const ssn = s(p.ssn);
  const dob = formatDate(p.dob);
  const [dob_mm = '', dob_dd = '', dob_yyyy = ''] = /^\d{2}\/\d{2}\/\d{4}$/.test(dob) ? dob.split('/') : [];
  return {
    id: s(p.id),
    name,
    name_lfm,
    ...parsed,
    dob,
    dob_mm,
    dob_dd,
    dob_yyyy,
    ssn,
    ssn_last4: ssn.replace(/\D/g, '').slice(-4),
    dl_number: s(p.dlid?.number),
    dl_state: s(p.dlid?.state).toUpperCase(),
    phone: s(p.contact_phone),
    phone_area,
    phone_local,
    email: s(p.contact_email),
    addr,
    mailing,
    mailing_if_different: mailing.one_line !== addr.one_line ? mailing : EMPTY_ADDR,
    residence_if_different: mailing.one_line !== addr.one_line ? addr : EMPTY_ADDR,
    other_names: (p.oats_names ?? []).map(s).filter(Boolean).join(', '),
    insurance_provider: s(p.insurance?.provider_name),
    insurance_policy: s(p.insurance?.policy_number),
    present: true,
    has_dl: !!s(p.dlid?.number),
    non_obligor: nonObligor || p.is_nonobligor === true,
  };
}

const EMPTY_LIEN: LienValues = Object.freeze({
  holder_name: '',
  holder_name_or_none: 'NONE',
  holder_addr: EMPTY_ADDR,
  holder_name_addr: '',
  holder_phone: '',
  holder_email: '',
  elt_id: '',
  feid: '',
  signatory: EMPTY_PERSON,
  date: '',
  amount: '',
  lien_id: '',
  release_date: '',
  present_yn: 'N',
  present: false,
});

function lienValues(holder: Lienholder | null | undefined, lien?: Partial<Lien> | null, amount?: unknown): LienValues {
  const name = personName(holder as PersonLike);
  if (!name && !lien?.lien_id) return EMPTY_LIEN;
  const addr = addressValues(holder?.addr ?? holder?.address_vault);
  return {
    holder_name: name,
    holder_name_or_none: name || 'NONE',
    holder_addr: addr,
    holder_name_addr: join([name, addr.one_line], ', '),
    holder_phone: s(holder?.contact_phone),
    holder_email: s(holder?.contact_email),
    elt_id: s(holder?.elt_id),
    feid: s(holder?.feid),
    signatory: personValues(holder?.signatory),
    date: formatDate(lien?.lien_date),
    amount: formatMoney(amount ?? lien?.lien_amount),
    lien_id: s(lien?.lien_id),
    release_date: formatDate(lien?.lien_release_date),
    present_yn: 'Y',
    present: true,
  };
}

const norm = (n: string) => n.toUpperCase().replace(/[^A-Z0-9]/g, '');

const TYPE_LABELS: Record<string, string> = {
  AUTO: 'Automobile',
  OHV: 'Off-highway vehicle',
  ORV: 'Off-road vehicle',
  ATV: 'All-terrain vehicle',
  MOTORCYCLE: 'Motorcycle',
  TRAILER: 'Trailer',
  BOAT: 'Vessel',
  LOW_SPEED: 'Low-speed vehicle',
};

type SubmissionInstructions = {
  payable_to?: string | null;
  address?: (Addr & { recipient_name?: string | null }) | null;
};
const fromInstructions = (si: SubmissionInstructions) => ({
  submit_to: join([si.address?.recipient_name, addressValues(si.address ?? undefined).one_line], ', '),
  payable_to: s(si.payable_to),
});

/** The state's own filing office and payee (its fee data, read through the validated loader), by state. */
const submissionCache = new Map<string, { submit_to: string; payable_to: string }>();
function stateSubmission(code: string): { submit_to: string; payable_to: string } {
  let hit = submissionCache.get(code);
  if (hit) return hit;
  try {
    hit = fromInstructions(loadStateFeeSchedule(code).submission_instructions as SubmissionInstructions);
  } catch {
    // fee data is optional for forms
    hit = { submit_to: '', payable_to: '' };
  }
  submissionCache.set(code, hit);
  return hit;
}

/**
 * Where the packet is mailed and who is paid: the entry's fee estimate when
 * it has one for this state (the fees stage picks the office of the entry's
 * county where a state files by county), else the state's own office.
 */
function submissionOf(code: string, entry?: Readonly<TitleEntry>): { submit_to: string; payable_to: string } {
  const est = entry?.fee_estimate as { state?: string; submission_instructions?: SubmissionInstructions } | undefined;
  if (est?.submission_instructions && (!est.state || est.state.toUpperCase() === code.toUpperCase())) {
    const mine = fromInstructions(est.submission_instructions);
    if (mine.submit_to || mine.payable_to) return mine;
  }
  return stateSubmission(code);
}

const stateNames = new Map(STATE_PLUGINS.map((p) => [p.code, p.name]));

interface BuiltValues {
  values: FormValues;
  /** People who sign per-signer forms, in order, with their role. */
  signers: { person: PersonValues; role: string }[];
}

/** Computes the values of an entry for a state plugin and the entry's transactions. */
export function buildValues(
  entry: Readonly<TitleEntry>,
  state: StatePlugin,
  txns: readonly Transaction[],
  today = new Date(),
): BuiltValues {
  const ad = entry.account_data;
  const v = ad.vehicle ?? {};
  const t = v.title ?? {};
  const loan = ad.loan ?? {};
  const sale = ad.sale ?? {};
  const has = (x: Transaction) => txns.includes(x);
  const people = peopleOf(entry);
  const { applicants, recordList, pv, ownersOr } = people;

  const ownershipChange = has('add_owner') || has('drop_owner') || has('repossession') || has('purchase');
  const newTitle = ownershipChange || has('out_of_state_transfer');
  const lienChange = has('new_lien') || has('refinance') || has('lien_release');
  const activeLiens = t.active_liens ?? [];
  const recordLien = activeLiens[0];
  const priorLien = loan.prior_lien ?? activeLiens.find((l) => l.lien_release_signed) ?? recordLien;
  const owners = applicants.map(pv);
  const submission = submissionOf(state.code, entry);
  // the new lien's account is the loan: its id is the loan's (only when there is a new lienholder)
  const lienId = personName(loan.new_lienholder as PersonLike)
    ? { lien_id: s(loan.loan_id || entry.lenderLoanId) }
    : {};
  const lien = lienValues(
    loan.new_lienholder,
    { lien_date: loan.security_agreement_sign_date, ...lienId },
    loan.loan_amount,
  );

  const values: FormValues = {
    today: formatDate(today.toISOString()),
    state: {
      code: state.code,
      name: state.name,
      agency: state.agency,
      submit_to: submission.submit_to,
      payable_to: payeeName(submission.payable_to, owners[0]?.addr.county ?? ''),
    },
    vehicle: vehicleValues(entry, state),
    title: titleValues(entry, has, ownersOr, recordList, today),
    owner1: owners[0] ?? EMPTY_PERSON,
    owner2: owners[1] ?? EMPTY_PERSON,
    owner3: owners[2] ?? EMPTY_PERSON,
    owners_line: owners.map((o) => o.name).join(ownersOr ? ' OR ' : ' AND '),
    owners_count: owners.length ? String(owners.length) : '',
    record_owner1: pv(recordList[0]),
    record_owner2: pv(recordList[1]),
    seller: pv(sale.seller ?? (ownershipChange ? recordList[0] : undefined)),
    borrower1: personValues(people.borrowers[0]),
    lien,
    prior_lien: priorLien ? lienValues(priorLien.lienholder, priorLien) : EMPTY_LIEN,
    record_lien: recordLien ? lienValues(recordLien.lienholder, recordLien) : EMPTY_LIEN,
    loan: {
      loan_id: s(loan.loan_id || entry.lenderLoanId),
      amount: formatMoney(loan.loan_amount),
      payoff_amount: formatMoney(loan.payoff_amount),
      per_diem: formatMoney(loan.per_diem),
      security_agreement_date: formatDate(loan.security_agreement_sign_date),
      release_to: loan.release_title_to_address
        ? addressValues(loan.release_title_to_address)
        : (owners[0]?.mailing ?? EMPTY_ADDR),
    },
    sale: saleValues(entry, has),
    signer: { ...(owners[0] ?? EMPTY_PERSON), role: 'Owner' },
    grantee: lien.holder_name,
    txn: {
      new_lien: has('new_lien'),
      refinance: has('refinance'),
      add_owner: has('add_owner'),
      drop_owner: has('drop_owner'),
      purchase: has('purchase'),
      duplicate_title: has('duplicate_title'),
      repossession: has('repossession'),
      lien_release: has('lien_release'),
      out_of_state_transfer: has('out_of_state_transfer'),
      ohv: has('ohv'),
      low_speed: has('low_speed'),
      trailer: has('trailer'),
      boat: has('boat'),
      ownership_change: ownershipChange,
      same_owner: !ownershipChange,
      in_state_transfer: ownershipChange && !has('out_of_state_transfer'),
      new_title: newTitle,
      lien_only: lienChange && !newTitle,
      duplicate_only: has('duplicate_title') && !newTitle,
    },
    always: true,
  };
  return { values, signers: signersOf(people, has('repossession')) };
}

/** The people of an entry as the forms see them: applicants (owners after the transaction), owners of record, borrowers. */
function peopleOf(entry: Readonly<TitleEntry>) {
  const ad = entry.account_data;
  const t = ad.vehicle?.title ?? {};
  const loan = ad.loan ?? {};
  const sale = ad.sale ?? {};
  const borrowers = (loan.borrower ?? []).filter((p) => personName(p));
  const borrowerNames = new Set(borrowers.map((p) => norm(personName(p))));
  const recordOwners = (t.owners ?? []).filter((p) => personName(p));
  const dropped = new Set((loan.drop_owner ?? []).map((p) => norm(personName(p))));
  const added = (loan.add_owner ?? []).filter((p) => personName(p));
  let applicants: PersonLike[] = sale.buyer?.length
    ? [...sale.buyer]
    : recordOwners.filter((p) => !dropped.has(norm(personName(p))));
  applicants.push(...added);
  if (!applicants.length) applicants = [...borrowers];
  // an applicant who is also a borrower: the loan's data (current address, license) over the title's
  const borrowerByName = new Map(borrowers.map((p) => [norm(personName(p)), p]));
  applicants = applicants.map((p) => {
    const b = borrowerByName.get(norm(personName(p)));
    return b && b !== p
      ? { ...p, ...Object.fromEntries(Object.entries(b).filter(([, x]) => x !== undefined && x !== null && x !== '')) }
      : p;
  });
  // an owner of record who is a borrower: what the title lacks (license, phone, an address) from the loan; the title's own address stays
  const recordList: PersonLike[] = recordOwners.length
    ? recordOwners.map((p) => fillFrom(p, borrowerByName.get(norm(personName(p)))))
    : borrowers;
  const isNonObligor = (p: PersonLike) =>
    !!p && (p.is_nonobligor === true || (borrowerNames.size > 0 && !borrowerNames.has(norm(personName(p)))));
  const pv = (p: PersonLike) => personValues(p, isNonObligor(p));
  const conj = s(t.conjunction).toUpperCase();
  const ownersOr = t.is_or === true || conj === 'OR';
  return {
    borrowers,
    borrowerNames,
    borrowerByName,
    recordOwners,
    recordList,
    dropped,
    added,
    applicants,
    pv,
    ownersOr,
    loan,
  };
}

/** Signers: owners after the transaction, then borrowers, then owners being removed; each person once. */
function signersOf(people: ReturnType<typeof peopleOf>, repossession: boolean): BuiltValues['signers'] {
  const { applicants, borrowers, borrowerNames, borrowerByName, recordOwners, dropped, added, pv, ownersOr, loan } =
    people;
  const signers: BuiltValues['signers'] = [];
  const seen = new Set<string>();
  const addSigner = (p: PersonLike, role: string) => {
    const n = norm(personName(p));
    if (!n || seen.has(n)) return;
    seen.add(n);
    signers.push({ person: pv(p), role });
  };
  const addedNames = new Set(added.map((p) => norm(personName(p))));
  for (const p of applicants)
    addSigner(
      p,
      addedNames.has(norm(personName(p)))
        ? 'Owner being added'
        : borrowerNames.has(norm(personName(p)))
          ? 'Owner and borrower'
          : 'Owner',
    );
  for (const p of borrowers) addSigner(p, 'Borrower');
  for (const p of loan.drop_owner ?? []) addSigner(p, 'Owner being removed');
  // owners of record who are not applicants release their interest (a sale to one co-owner, say): with AND each of them
  // signs, with OR one signature of record is enough; a repossession is signed by the secured party instead
  if (!repossession) {
    const ofRecord = recordOwners.filter((p) => !dropped.has(norm(personName(p))));
    const signedOfRecord = ofRecord.some((p) => seen.has(norm(personName(p))));
    for (const p of ownersOr ? (signedOfRecord ? [] : ofRecord.slice(0, 1)) : ofRecord)
      addSigner(fillFrom(p, borrowerByName.get(norm(personName(p)))), 'Owner of record');
  }
  return signers;
}

function vehicleValues(entry: Readonly<TitleEntry>, state: StatePlugin): FormValues['vehicle'] {
  const v = entry.account_data.vehicle ?? {};
  const t = v.title ?? {};
  const vehicleType = s(v.type || 'AUTO').toUpperCase();
  const year = s(v.year);
  return {
    vin: s(v.vin || entry.VIN).toUpperCase(),
    year,
    make: s(v.make),
    model: s(v.model),
    body: s(v.body),
    year_make: join([year, v.make]),
    description: join([year, v.make, v.model]),
    color: s(v.color),
    color_secondary: s(v.color_secondary),
    fuel: s(v.fuel_type),
    plate: s(v.license_plate),
    plate_state: s(t.issuing_state || state.code).toUpperCase(),
    engine_number: s(v.motorcycle_engine_number),
    weight_empty: s(v.weight_unladen || v.weight),
    weight_gross: s(v.weight_gross || v.weight_rating),
    axles: s(v.number_of_axles),
    length: s(v.length),
    width: s(v.width),
    type: vehicleType,
    type_label: TYPE_LABELS[vehicleType] ?? vehicleType,
    is_auto: vehicleType === 'AUTO',
    is_motor_vehicle: vehicleType !== 'TRAILER' && vehicleType !== 'BOAT',
    is_motorcycle: vehicleType === 'MOTORCYCLE',
    is_ohv: ['OHV', 'ORV', 'ATV'].includes(vehicleType),
    is_trailer: vehicleType === 'TRAILER',
    is_boat: vehicleType === 'BOAT',
    is_low_speed: vehicleType === 'LOW_SPEED',
  };
}

function titleValues(
  entry: Readonly<TitleEntry>,
  has: (x: Transaction) => boolean,
  ownersOr: boolean,
  recordList: PersonLike[],
  today: Date,
): FormValues['title'] {
  const v = entry.account_data.vehicle ?? {};
  const t = v.title ?? {};
  const reading = s(t.odometer_reading)
    .replace(/[,\s]/g, '')
    .replace(/\.\d*$/, '')
    .replace(/\D/g, '');
  const code = s(t.odometer_code_translation).toUpperCase();
  const vehicleType = s(v.type || 'AUTO').toUpperCase();
  const titleStatus = `${s(t.status)} ${s(t.status_raw_text)}`;
  const stolen = /stolen/i.test(titleStatus);
  return {
    number: s(t.number),
    issuing_state: s(t.issuing_state).toUpperCase(),
    issuing_state_name: stateNames.get(s(t.issuing_state).toUpperCase()) ?? s(t.issuing_state),
    issuing_county: s(t.issuing_county),
    issuance_date: formatDate(t.issuance_date),
    brand: s(t.brand || t.brands?.map((b) => b.brand).join(', ')),
    odometer: reading,
    odometer_6: reading.length <= 6 ? reading.padStart(6, ' ') : reading.slice(-6),
    odometer_unit: s(t.odometer_reading_unit || 'MI').toUpperCase(),
    odometer_actual: code === 'ACTUAL' || (!code && !!reading),
    odometer_not_actual: code === 'NOT_ACTUAL',
    odometer_exceeds: code === 'EXCESS',
    odometer_exempt:
      code === 'EXEMPT' ||
      odometerExempt(
        { type: vehicleType, year: v.year ?? undefined, gvwr: v.weight_rating ?? v.weight_gross ?? undefined },
        today,
      ),
    odometer_kilometers: /^K/i.test(s(t.odometer_reading_unit)),
    is_electronic: t.is_electronic === true,
    is_in_state: !has('out_of_state_transfer'),
    is_available: !has('duplicate_title'),
    is_lost: has('duplicate_title') && !stolen,
    is_stolen: has('duplicate_title') && stolen,
    missing_reason: has('duplicate_title') ? (stolen ? 'stolen' : 'lost') : '',
    owners_and: !ownersOr,
    owners_or: ownersOr,
    owners_one_line:
      s(t.owner_names_one_line) ||
      recordList
        .map(personName)
        .filter(Boolean)
        .join(ownersOr ? ' OR ' : ' AND '),
  };
}

function saleValues(entry: Readonly<TitleEntry>, has: (x: Transaction) => boolean): FormValues['sale'] {
  const sale = entry.account_data.sale ?? {};
  const saleType = s(sale.sale_type || sale.type).toUpperCase();
  const salePresent =
    present(sale) && (!!sale.date_of_sale || sale.sale_price !== undefined || !!sale.seller || !!sale.buyer?.length);
  const saleDate = formatDate(sale.date_of_sale);
  const [mm = '', dd = '', yyyy = ''] = /^\d{2}\/\d{2}\/\d{4}$/.test(saleDate) ? saleDate.split('/') : [];
  const price = formatMoney(sale.sale_price);
  return {
    date: saleDate,
    date_mm: mm,
    date_dd: dd,
    date_yyyy: yyyy,
    price,
    price_dollars: price.replace(/\.\d+$/, ''),
    price_cents: /\.(\d+)$/.exec(price)?.[1] ?? '',
    type: saleType,
    is_gift: saleType === 'GIFT',
    is_trade: saleType === 'TRADE',
    is_purchase: salePresent && saleType !== 'GIFT' && saleType !== 'TRADE' && !has('repossession'),
    is_new: salePresent && saleType === 'NEW',
    is_used: salePresent && saleType !== 'NEW',
    present: salePresent,
    state: s(sale.state).toUpperCase(),
  };
}

/** The person with what it lacks taken from `more` (the same person as a borrower); what it has is kept. */
function fillFrom(p: PersonLike, more: PersonLike): PersonLike {
  if (!p || !more || p === more) return p;
  const out: Record<string, unknown> = { ...more };
  // the title's address comes with its own mailing address (or none), never the loan's
  if (p.addr) delete out.addr_mailing;
  for (const [k, v] of Object.entries(p)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as PersonLike;
}

/**
 * Who the fees are payable to, as a name to write on a check: the fee data's
 * payee without its notes (parentheses, examples, a second clause); a county
 * office "of the county of residence" named for the owner's county when known.
 */
export function payeeName(raw: string, county: string): string {
  let t = raw
    .replace(/\s*\([^)]*\)/g, '')
    .split(';')[0]!
    .split(/,\s+acting\b/)[0]!
    .replace(/^<County>\s+County\s+/i, 'County ')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^(.*?)\s+of the (?:buyer's |owner's )?(?:county|place) of residence$/i.exec(t);
  if (m) {
    const office = m[1]!;
    const c = county.replace(/\s+county$/i, '').trim();
    t = c ? `${c} County ${office.replace(/^county\s+/i, '')}` : `${office} of the owner's county`;
  }
  return t;
}

function present(o: unknown): boolean {
  return !!o && typeof o === 'object' && Object.keys(o).length > 0;
}

/** The values for one signer's form: the entry's values with `signer` set. */
export function valuesForSigner(values: FormValues, signer: { person: PersonValues; role: string }): FormValues {
  return { ...values, signer: { ...signer.person, role: signer.role } };
}
