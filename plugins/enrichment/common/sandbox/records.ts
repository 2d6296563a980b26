/**
 * The sandbox's world: one deterministic vehicle history per VIN
 * (docs/sandbox.md), from which every sandbox source answers. A source shows
 * what that kind of source really carries (NMVTIS: title chain, brands,
 * odometer and owner names; public DMV sites: no personal data, only whether
 * there is a lien; state record and portal: everything), so sources agree
 * unless the VIN is in the discrepancy set.
 */
import { createHash } from 'node:crypto';
import {
  type AccountData,
  type Lien,
  type Person,
  formatLastFirst,
  formatName,
  parseName,
  type ParsedName,
  decodeVin,
} from '../../../../core/plugin-api.js';
import type { EnrichmentRequest, InsuranceCoverage, RecordSource } from '../provider.js';

/** How a sandbox pull ends, by the VIN's last character (0 not_found, 8 error, 9 unavailable, else found). */
export function sandboxFate(vin: string): 'found' | 'not_found' | 'error' | 'unavailable' {
  const last = vin[16];
  return last === '0' ? 'not_found' : last === '8' ? 'error' : last === '9' ? 'unavailable' : 'found';
}

/** Record scenarios by the VIN's 16th character (docs/sandbox.md). */
const SANDBOX_SCENARIOS: Record<string, string> = {
  '1': 'branded title chain: clean original, SALVAGE, then REBUILT',
  '2': 'no active liens',
  '3': 'a co-owner who is not the borrower, joined by AND',
  '4': 'the owner is someone other than the borrower',
  '5': 'a co-owner who is not the borrower, joined by OR',
  '6': 'FLOODED brand, odometer NOT_ACTUAL',
  '7': 'discrepancy set: NMVTIS lags one title behind the state (older issuance date, lower odometer), and the public site does not show the lien',
};
function scenarioOf(vin: string): string {
  return SANDBOX_SCENARIOS[vin[15] ?? ''] ? vin[15]! : 'default';
}
/** Insurance coverage has lapsed when the VIN's 15th character is 9. */
const coverageLapsed = (vin: string) => vin[14] === '9';

/** A small deterministic generator (sfc32 seeded by SHA-256), one stream per VIN and topic. */
class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: string) {
    const h = createHash('sha256').update(seed).digest();
    [this.a, this.b, this.c, this.d] = [h.readUInt32LE(0), h.readUInt32LE(4), h.readUInt32LE(8), h.readUInt32LE(12)];
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(a: readonly T[]): T {
    return a[Math.floor(this.next() * a.length)]!;
  }
  digits(n: number): string {
    return Array.from({ length: n }, () => this.int(0, 9)).join('');
  }
  letters(n: number): string {
    return Array.from({ length: n }, () => this.pick([...'ABCDEFGHJKLMNPRSTUVWXYZ'])).join('');
  }
}

const FIRST = [
  'JAMES',
  'MARY',
  'ROBERT',
  'PATRICIA',
  'JOHN',
  'JENNIFER',
  'MICHAEL',
  'LINDA',
  'DAVID',
  'ELIZABETH',
  'WILLIAM',
  'BARBARA',
  'RICHARD',
  'SUSAN',
  'JOSEPH',
  'JESSICA',
  'THOMAS',
  'SARAH',
  'CARLOS',
  'KAREN',
  'DANIEL',
  'NANCY',
  'MATTHEW',
  'LISA',
  'ANTHONY',
  'MARIA',
  'KEVIN',
  'ASHLEY',
  'BRIAN',
  'EMILY',
];
const LAST = [
  'SMITH',
  'JOHNSON',
  'WILLIAMS',
  'BROWN',
  'JONES',
  'GARCIA',
  'MILLER',
  'DAVIS',
  'RODRIGUEZ',
  'MARTINEZ',
  'HERNANDEZ',
  'LOPEZ',
  'GONZALEZ',
  'WILSON',
  'ANDERSON',
  'THOMAS',
  'TAYLOR',
  'MOORE',
  'JACKSON',
  'MARTIN',
  'LEE',
  'PEREZ',
  'THOMPSON',
  'WHITE',
  'HARRIS',
  'NGUYEN',
  'CLARK',
  'LEWIS',
  'ROBINSON',
  'WALKER',
];
const STREETS = [
  'MAIN ST',
  'OAK AVE',
  'MAPLE DR',
  'CEDAR LN',
  'PINE ST',
  'ELM ST',
  'LAKEVIEW DR',
  'PARK AVE',
  'WASHINGTON BLVD',
  'HILLCREST RD',
];
const COLORS = ['WHITE', 'BLACK', 'SILVER', 'GRAY', 'BLUE', 'RED', 'GREEN', 'BROWN'];
/** Capital city and a ZIP code of it, per state (sandbox owner addresses). */
const CAPITALS: Record<string, [string, string]> = {
  AL: ['MONTGOMERY', '36104'],
  AK: ['JUNEAU', '99801'],
  AZ: ['PHOENIX', '85001'],
  AR: ['LITTLE ROCK', '72201'],
  CA: ['SACRAMENTO', '95814'],
  CO: ['DENVER', '80202'],
  CT: ['HARTFORD', '06103'],
  DE: ['DOVER', '19901'],
  DC: ['WASHINGTON', '20001'],
  FL: ['TALLAHASSEE', '32301'],
  GA: ['ATLANTA', '30303'],
  HI: ['HONOLULU', '96813'],
  ID: ['BOISE', '83702'],
  IL: ['SPRINGFIELD', '62701'],
  IN: ['INDIANAPOLIS', '46204'],
  IA: ['DES MOINES', '50309'],
  KS: ['TOPEKA', '66603'],
  KY: ['FRANKFORT', '40601'],
  LA: ['BATON ROUGE', '70802'],
  ME: ['AUGUSTA', '04330'],
  MD: ['ANNAPOLIS', '21401'],
  MA: ['BOSTON', '02108'],
  MI: ['LANSING', '48933'],
  MN: ['SAINT PAUL', '55102'],
  MS: ['JACKSON', '39201'],
  MO: ['JEFFERSON CITY', '65101'],
  MT: ['HELENA', '59601'],
  NE: ['LINCOLN', '68508'],
  NV: ['CARSON CITY', '89701'],
  NH: ['CONCORD', '03301'],
  NJ: ['TRENTON', '08608'],
  NM: ['SANTA FE', '87501'],
  NY: ['ALBANY', '12207'],
  NC: ['RALEIGH', '27601'],
  ND: ['BISMARCK', '58501'],
  OH: ['COLUMBUS', '43215'],
  OK: ['OKLAHOMA CITY', '73102'],
  OR: ['SALEM', '97301'],
  PA: ['HARRISBURG', '17101'],
  RI: ['PROVIDENCE', '02903'],
  SC: ['COLUMBIA', '29201'],
  SD: ['PIERRE', '57501'],
  TN: ['NASHVILLE', '37219'],
  TX: ['AUSTIN', '78701'],
  UT: ['SALT LAKE CITY', '84111'],
  VT: ['MONTPELIER', '05602'],
  VA: ['RICHMOND', '23219'],
  WA: ['OLYMPIA', '98501'],
  WV: ['CHARLESTON', '25301'],
  WI: ['MADISON', '53703'],
  WY: ['CHEYENNE', '82001'],
};
/** Where sandbox vehicles are titled when the request names no state: the largest title states, weighted by repetition. */
const HOME_STATES = [
  'TX',
  'TX',
  'CA',
  'CA',
  'FL',
  'FL',
  'NY',
  'PA',
  'OH',
  'IL',
  'GA',
  'NC',
  'MI',
  'AZ',
  'WA',
  'VA',
  'NJ',
  'TN',
  'CO',
  'IN',
];
const MODELS: Record<string, [string, string][]> = {
  HONDA: [
    ['ACCORD', 'SEDAN'],
    ['CIVIC', 'SEDAN'],
    ['CR-V', 'SPORT UTILITY'],
    ['PILOT', 'SPORT UTILITY'],
  ],
  ACURA: [
    ['MDX', 'SPORT UTILITY'],
    ['RDX', 'SPORT UTILITY'],
    ['TLX', 'SEDAN'],
  ],
  TOYOTA: [
    ['CAMRY', 'SEDAN'],
    ['COROLLA', 'SEDAN'],
    ['RAV4', 'SPORT UTILITY'],
    ['TACOMA', 'PICKUP'],
    ['HIGHLANDER', 'SPORT UTILITY'],
  ],
  LEXUS: [
    ['RX 350', 'SPORT UTILITY'],
    ['ES 350', 'SEDAN'],
  ],
  FORD: [
    ['F-150', 'PICKUP'],
    ['ESCAPE', 'SPORT UTILITY'],
    ['EXPLORER', 'SPORT UTILITY'],
    ['MUSTANG', 'COUPE'],
  ],
  CHEVROLET: [
    ['SILVERADO 1500', 'PICKUP'],
    ['EQUINOX', 'SPORT UTILITY'],
    ['MALIBU', 'SEDAN'],
    ['TAHOE', 'SPORT UTILITY'],
  ],
  GMC: [
    ['SIERRA 1500', 'PICKUP'],
    ['TERRAIN', 'SPORT UTILITY'],
    ['ACADIA', 'SPORT UTILITY'],
  ],
  NISSAN: [
    ['ALTIMA', 'SEDAN'],
    ['ROGUE', 'SPORT UTILITY'],
    ['SENTRA', 'SEDAN'],
    ['FRONTIER', 'PICKUP'],
  ],
  HYUNDAI: [
    ['ELANTRA', 'SEDAN'],
    ['TUCSON', 'SPORT UTILITY'],
    ['SANTA FE', 'SPORT UTILITY'],
  ],
  KIA: [
    ['SORENTO', 'SPORT UTILITY'],
    ['FORTE', 'SEDAN'],
    ['TELLURIDE', 'SPORT UTILITY'],
  ],
  JEEP: [
    ['GRAND CHEROKEE', 'SPORT UTILITY'],
    ['WRANGLER', 'SPORT UTILITY'],
    ['CHEROKEE', 'SPORT UTILITY'],
  ],
  RAM: [
    ['1500', 'PICKUP'],
    ['2500', 'PICKUP'],
  ],
  DODGE: [
    ['CHARGER', 'SEDAN'],
    ['DURANGO', 'SPORT UTILITY'],
    ['GRAND CARAVAN', 'VAN'],
  ],
  SUBARU: [
    ['OUTBACK', 'WAGON'],
    ['FORESTER', 'SPORT UTILITY'],
    ['CROSSTREK', 'SPORT UTILITY'],
  ],
  TESLA: [
    ['MODEL 3', 'SEDAN'],
    ['MODEL Y', 'SPORT UTILITY'],
  ],
  BMW: [
    ['330I', 'SEDAN'],
    ['X5', 'SPORT UTILITY'],
  ],
  'MERCEDES-BENZ': [
    ['C 300', 'SEDAN'],
    ['GLE 350', 'SPORT UTILITY'],
  ],
  VOLKSWAGEN: [
    ['JETTA', 'SEDAN'],
    ['TIGUAN', 'SPORT UTILITY'],
    ['ATLAS', 'SPORT UTILITY'],
  ],
  MAZDA: [
    ['CX-5', 'SPORT UTILITY'],
    ['MAZDA3', 'SEDAN'],
  ],
};
const ELECTRIC = new Set(['TESLA', 'RIVIAN', 'POLESTAR']);
const CAPTIVE: Record<string, string> = {
  HONDA: 'AMERICAN HONDA FINANCE CORP',
  ACURA: 'AMERICAN HONDA FINANCE CORP',
  TOYOTA: 'TOYOTA MOTOR CREDIT CORP',
  LEXUS: 'TOYOTA MOTOR CREDIT CORP',
  FORD: 'FORD MOTOR CREDIT COMPANY LLC',
  LINCOLN: 'FORD MOTOR CREDIT COMPANY LLC',
  CHEVROLET: 'GM FINANCIAL',
  GMC: 'GM FINANCIAL',
  BUICK: 'GM FINANCIAL',
  CADILLAC: 'GM FINANCIAL',
  NISSAN: 'NISSAN MOTOR ACCEPTANCE COMPANY LLC',
  INFINITI: 'NISSAN MOTOR ACCEPTANCE COMPANY LLC',
  HYUNDAI: 'HYUNDAI CAPITAL AMERICA',
  KIA: 'KIA FINANCE AMERICA',
};
const BANKS = [
  'ALLY BANK',
  'CAPITAL ONE AUTO FINANCE',
  'JPMORGAN CHASE BANK NA',
  'WELLS FARGO AUTO',
  'SANTANDER CONSUMER USA',
  'TD AUTO FINANCE',
  'TRUIST BANK',
];
/** Insurers and their NAIC company codes. */
const INSURERS: [string, string][] = [
  ['STATE FARM MUTUAL AUTOMOBILE INSURANCE CO', '25178'],
  ['GOVERNMENT EMPLOYEES INSURANCE CO', '22063'],
  ['PROGRESSIVE CASUALTY INSURANCE CO', '24260'],
  ['ALLSTATE INSURANCE CO', '19232'],
  ['UNITED SERVICES AUTOMOBILE ASSOCIATION', '25941'],
  ['LIBERTY MUTUAL INSURANCE CO', '23043'],
  ['FARMERS INSURANCE EXCHANGE', '21652'],
  ['NATIONWIDE MUTUAL INSURANCE CO', '23787'],
];

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

interface SandboxTitle {
  number: string;
  issuing_state: string;
  issuance_date: string;
  brand?: 'SALVAGE' | 'REBUILT' | 'FLOODED';
  brand_code?: string;
  brands: { brand: string; nmvtis_code: string; state_code: string }[];
  odometer_reading: string;
  odometer_code: string;
  odometer_code_translation: 'ACTUAL' | 'NOT_ACTUAL' | 'EXEMPT';
  prev_action: string;
  prev_action_date: string;
}

/** The whole sandbox history of a VIN, newest title first. */
interface SandboxHistory {
  vehicle: {
    vin: string;
    year: number;
    make: string;
    model: string;
    body: string;
    color: string;
    fuel_type: string;
    type: 'AUTO';
  };
  titles: SandboxTitle[];
  owners: ParsedName[];
  addresses: { street1: string; city: string; state: string; zip: string }[];
  conjunction?: 'AND' | 'OR';
  liens: Lien[];
  registration: {
    license_plate: string;
    registration_status: 'ACTIVE';
    registration_issuance_date: string;
    registration_expiration_date: string;
  };
}

const BRANDS = {
  SALVAGE: { brand: 'SALVAGE', nmvtis_code: '11', state_code: 'S' },
  REBUILT: { brand: 'REBUILT', nmvtis_code: '09', state_code: 'R' },
  FLOODED: { brand: 'FLOODED', nmvtis_code: '01', state_code: 'F' },
} as const;

function randomName(r: Rng): ParsedName {
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const middle = r.next() < 0.6 ? [r.letters(1)] : [];
  return { first, middle, last, suffix: '', business: false, compact: first + middle.join('') + last };
}

/**
 * The history of `req.vin`. The issuing state is the request's state when it
 * names one, else one derived from the VIN; the first owner is the first
 * borrower of the request (scenario 4: someone else), else a name derived
 * from the VIN. `now` caps dates (no title is issued in the future).
 */
export function sandboxHistory(req: Pick<EnrichmentRequest, 'vin' | 'state' | 'owners'>, now: Date): SandboxHistory {
  const vin = req.vin;
  const scenario = scenarioOf(vin);
  const dec = decodeVin(vin, now);
  const rv = new Rng(`${vin}/vehicle`);
  const make = dec.make ?? rv.pick(Object.keys(MODELS));
  const [model, body] = rv.pick(MODELS[make] ?? [['SEDAN', 'SEDAN']]);
  const year = dec.model_year ?? 2018;
  const vehicle = {
    vin,
    year,
    make,
    model,
    body,
    color: rv.pick(COLORS),
    fuel_type: ELECTRIC.has(make) ? 'ELECTRIC' : 'GASOLINE',
    type: 'AUTO' as const,
  };

  const rt = new Rng(`${vin}/titles`);
  const derivedHome = rt.pick(HOME_STATES); // drawn always, so the rest of the stream does not depend on the request
  const home = req.state && CAPITALS[req.state] ? req.state : derivedHome;
  const nowT = now.getTime();
  const cap = (t: number, slack: number) => Math.min(t, nowT - slack * DAY);
  const original = cap(Date.UTC(year - 1, 8, 1) + rt.int(0, 240) * DAY, 20);
  const chain: {
    at: number;
    state: string;
    action: string;
    brand?: keyof typeof BRANDS;
    odo: string;
    code: SandboxTitle['odometer_code_translation'];
  }[] = [];
  chain.push({ at: original, state: home, action: 'original', odo: String(rt.int(5, 60)), code: 'ACTUAL' });
  const years = (nowT - original) / (365 * DAY);
  const milesAt = (t: number) =>
    String(Math.round(((t - original) / DAY) * (28 + rt.int(0, 14))) + Number(chain[0]!.odo));
  const exempt = year < now.getUTCFullYear() - 20;
  if (scenario === '1') {
    const salvage = cap(original + Math.max(60, Math.floor(years * 0.4 * 365)) * DAY, 12);
    const rebuilt = cap(salvage + Math.max(30, Math.floor(years * 0.2 * 365)) * DAY, 6);
    chain.push({
      at: salvage,
      state: home,
      action: 'salvage',
      brand: 'SALVAGE',
      odo: milesAt(salvage),
      code: exempt ? 'EXEMPT' : 'ACTUAL',
    });
    chain.push({
      at: rebuilt,
      state: home,
      action: 'rebuilt',
      brand: 'REBUILT',
      odo: milesAt(rebuilt),
      code: exempt ? 'EXEMPT' : 'ACTUAL',
    });
  } else if (scenario === '7' || (years > 2 && rt.next() < 0.6)) {
    // a transfer (always in scenario 7, whose NMVTIS record lags one title behind)
    const at = cap(original + Math.max(45, Math.floor(years * (0.3 + rt.next() * 0.5) * 365)) * DAY, 10);
    chain.push({ at, state: home, action: 'transfer', odo: milesAt(at), code: exempt ? 'EXEMPT' : 'ACTUAL' });
  }
  if (scenario === '6') {
    const last = chain[chain.length - 1]!;
    last.brand = 'FLOODED';
    last.code = 'NOT_ACTUAL';
  }
  const carried: SandboxTitle['brands'] = [];
  const titles: SandboxTitle[] = chain
    .map((c, i) => {
      if (c.brand) carried.push({ ...BRANDS[c.brand] });
      const t: SandboxTitle = {
        number: `${new Rng(`${vin}/title/${i}`).digits(9)}`,
        issuing_state: c.state,
        issuance_date: iso(c.at),
        brands: carried.map((b) => ({ ...b })),
        odometer_reading: c.odo,
        odometer_code: c.code === 'ACTUAL' ? '68' : c.code === 'NOT_ACTUAL' ? '69' : '71',
        odometer_code_translation: c.code,
        prev_action: c.action,
        prev_action_date: iso(c.at),
      };
      const brand = c.brand ?? carried[carried.length - 1]?.brand;
      if (brand) {
        t.brand = brand as SandboxTitle['brand'];
        t.brand_code = BRANDS[brand as keyof typeof BRANDS].nmvtis_code;
      }
      return t;
    })
    .reverse();

  const ro = new Rng(`${vin}/owners`);
  const borrower = req.owners[0] ? parseName(req.owners[0]) : undefined;
  const stranger = randomName(ro);
  const coOwner = randomName(ro);
  const first = scenario === '4' || !borrower?.compact ? stranger : borrower;
  const owners = scenario === '3' || scenario === '5' ? [first, coOwner] : [first];
  const [city, zip] = CAPITALS[home]!;
  const addresses = owners.map(() => ({ street1: `${ro.int(100, 9899)} ${ro.pick(STREETS)}`, city, state: home, zip }));

  const rl = new Rng(`${vin}/liens`);
  const current = titles[0]!;
  const liens: Lien[] =
    scenario === '2'
      ? []
      : [
          {
            lien_date: current.issuance_date,
            lienholder: {
              type: 'LIENHOLDER',
              name: CAPTIVE[make] && rl.next() < 0.6 ? CAPTIVE[make] : rl.pick(BANKS),
              elt_id: `E${rl.digits(5)}`,
            },
            lien_id: `L${rl.digits(10)}`,
          },
        ];
  const rr = new Rng(`${vin}/registration`);
  const issued = Date.parse(current.issuance_date);
  let expires = issued + 365 * DAY;
  while (expires < nowT) expires += 365 * DAY;
  const registration = {
    license_plate: `${rr.letters(3)}${rr.digits(4)}`,
    registration_status: 'ACTIVE' as const,
    registration_issuance_date: iso(expires - 365 * DAY),
    registration_expiration_date: iso(expires),
  };
  return {
    vehicle,
    titles,
    owners,
    addresses,
    conjunction: scenario === '3' ? 'AND' : scenario === '5' ? 'OR' : undefined,
    liens,
    registration,
  };
}

function titleMembers(t: SandboxTitle) {
  return {
    number: t.number,
    issuing_state: t.issuing_state,
    issuance_date: t.issuance_date,
    ...(t.brand ? { brand: t.brand, brand_code: t.brand_code } : {}),
    brands: t.brands,
    odometer_reading: t.odometer_reading,
    odometer_reading_unit: 'MI',
    odometer_code: t.odometer_code,
    odometer_code_translation: t.odometer_code_translation,
  };
}

/** The record the sandbox `source` answers for `req` (AccountData shape). */
export function sandboxRecord(
  source: RecordSource,
  req: Pick<EnrichmentRequest, 'vin' | 'state' | 'owners'>,
  now: Date,
): AccountData {
  const h = sandboxHistory(req, now);
  const lagging = source === 'nmvtis' && scenarioOf(req.vin) === '7';
  const titles = lagging ? h.titles.slice(1) : h.titles;
  const current = titles[0]!;
  const previous = titles
    .slice(1)
    .map((t) => ({ ...titleMembers(t), status: 'surrendered', prev_action: t.prev_action }));
  const joiner = h.conjunction ?? 'AND';
  const ownerLine = (fmt: (p: ParsedName) => string) => h.owners.map(fmt).join(` ${joiner} `);
  const conj = h.owners.length > 1 ? { conjunction: joiner, is_and: joiner === 'AND', is_or: joiner === 'OR' } : {};
  const base = {
    ...titleMembers(current),
    status: 'active',
    prev_action: current.prev_action,
    prev_action_date: current.prev_action_date,
  };
  const vehicleCore = { vin: h.vehicle.vin, year: h.vehicle.year, make: h.vehicle.make, model: h.vehicle.model };
  const fullOwners = (fmt: (p: ParsedName) => string): Person[] =>
    h.owners.map(
      (p, i) =>
        <Person>{
          type: 'PERSON',
          name: fmt(p),
          name_first: p.first,
          ...(p.middle.length ? { name_middle: p.middle.join(' ') } : {}),
          name_last: p.last,
          ...(p.suffix ? { name_suffix: p.suffix } : {}),
          addr: h.addresses[i],
          ownership_type: 'registered_owner',
        },
    );
  switch (source) {
    case 'nmvtis':
      return {
        vehicle: {
          ...vehicleCore,
          title: {
            ...base,
            previous_title: previous,
            owners: h.owners.map((p) => ({ type: 'PERSON', name: formatName(p) })),
            owner_names_one_line: ownerLine(formatName),
            number_of_owners: h.owners.length,
            ...conj,
          },
        },
      } as AccountData;
    case 'public': {
      const { number: _n, ...rest } = base;
      const hasLiens = scenarioOf(req.vin) === '7' ? false : h.liens.length > 0;
      return {
        vehicle: {
          ...vehicleCore,
          registration_status: h.registration.registration_status,
          registration_expiration_date: h.registration.registration_expiration_date,
          title: { ...rest, has_liens: hasLiens },
        },
      } as AccountData;
    }
    case 'state':
    case 'portal': {
      const fmt = source === 'portal' ? formatLastFirst : formatName;
      return {
        vehicle: {
          ...vehicleCore,
          body: h.vehicle.body,
          color: h.vehicle.color,
          fuel_type: h.vehicle.fuel_type,
          type: h.vehicle.type,
          ...h.registration,
          title: {
            ...base,
            ...(source === 'state' ? { previous_title: previous } : {}),
            owners: fullOwners(fmt),
            owner_names_one_line: ownerLine(fmt),
            number_of_owners: h.owners.length,
            ...conj,
            has_liens: h.liens.length > 0,
            active_liens: h.liens,
          },
        },
      } as AccountData;
    }
  }
}

/**
 * The insurance the sandbox finds for a VIN: a six-month policy of an insurer
 * derived from the VIN, in its current term (anchored to the half-year of
 * `now`), or LAPSED for a VIN whose 15th character is 9. The lender's policy
 * number and insurer are echoed when the request names them.
 */
export function sandboxCoverage(req: Pick<EnrichmentRequest, 'vin' | 'policy'>, now: Date): InsuranceCoverage {
  const r = new Rng(`${req.vin}/insurance`);
  const [name, naic] = r.pick(INSURERS);
  const half = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() < 6 ? 0 : 6, 1);
  const effective =
    half + r.int(0, 27) * DAY > now.getTime() ? half - 183 * DAY + r.int(0, 27) * DAY : half + r.int(0, 27) * DAY;
  const coverage: InsuranceCoverage = {
    status: 'ACTIVE',
    provider_name: req.policy?.provider_name?.toUpperCase() || name,
    provider_naic: req.policy?.provider_naic || naic,
    policy_number: req.policy?.policy_number || `${r.letters(2)}${r.digits(8)}`,
    effective_date: iso(effective),
    expiration_date: iso(effective + 183 * DAY),
  };
  if (coverageLapsed(req.vin)) {
    const lapse = now.getTime() - r.int(5, 60) * DAY;
    coverage.status = 'LAPSED';
    coverage.lapse_date = iso(lapse);
    coverage.expiration_date = iso(lapse);
    coverage.effective_date = iso(lapse - 183 * DAY);
  }
  return coverage;
}

/** A transaction id for a sandbox pull: derived from the VIN, source and time, so a fixed clock gives a fixed id. */
export function sandboxTxnId(source: string, vin: string, now: Date): string {
  return `SBX-${source.toUpperCase()}-${createHash('sha256').update(`${vin}/${source}/${now.toISOString()}`).digest('hex').slice(0, 12).toUpperCase()}`;
}
