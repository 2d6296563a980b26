/**
 * The offline VIN decoder: what a VIN says without asking anyone.
 * - check digit (49 CFR 565.15) from core/vin.ts;
 * - model year from position 10, with the 30-year cycle resolved by
 *   position 7 (49 CFR 565.15(a)(2): on passenger cars, MPVs and trucks up
 *   to 10,000 lb, a numeric position 7 means 1980-2009, a letter 2010-2039),
 *   falling back to the latest year not after next year when that rule gives
 *   an impossible year (heavy trucks, trailers, motorcycles do not follow it);
 * - WMI (positions 1-3) to manufacturer and make from wmi.json (source noted
 *   there), and the country from the WMI's region code (ISO 3780).
 * Used by the sandbox providers, document reading (VIN repair) and the vin-decode stage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths.js';
import { checkVin } from './vin.js';

export interface WmiEntry {
  wmi: string;
  make: string;
  manufacturer: string;
}

export interface DecodedVin {
  /** The normalized VIN (uppercase, no spaces or dashes). */
  vin: string;
  /** 17 characters of the VIN alphabet. */
  valid: boolean;
  check_digit_valid: boolean;
  expected_check_digit?: string;
  /** Positions 1-3, 4-9 and 10-17. */
  wmi: string;
  vds: string;
  vis: string;
  /** From wmi.json; null for a WMI not in the table. */
  manufacturer: string | null;
  make: string | null;
  /** From the region code (positions 1-2); null when unassigned. */
  country: string | null;
  model_year: number | null;
  /** How the 30-year cycle was resolved. */
  model_year_rule?: 'position-7' | 'latest-plausible';
  plant_code: string;
  serial: string;
}

let wmiByCode: Map<string, WmiEntry> | undefined;
/**
 * wmi.json by WMI, read on first use: every plugin loads this module (core/plugin-api.ts), few decode a VIN, and
 * none at start-up.
 */
function wmiMap(): Map<string, WmiEntry> {
  if (!wmiByCode) {
    const data = JSON.parse(readFileSync(join(packageRoot, 'core', 'wmi.json'), 'utf8')) as { entries: WmiEntry[] };
    wmiByCode = new Map(data.entries.map((e) => [e.wmi, e]));
  }
  return wmiByCode;
}

/** Every WMI of the table (tests, docs). */
export function wmiTable(): readonly WmiEntry[] {
  return [...wmiMap().values()];
}

/** ISO 3780 order of the characters in a region range. */
const SEQ = 'ABCDEFGHJKLMNPRSTUVWXYZ1234567890';
/** [first char, range start, range end (inclusive, in SEQ order), country]. */
const REGIONS: readonly [string, string, string, string][] = [
  ['A', 'A', 'H', 'South Africa'],
  ['J', 'A', '0', 'Japan'],
  ['K', 'F', 'K', 'Israel'],
  ['K', 'L', 'R', 'South Korea'],
  ['K', 'S', '0', 'Kazakhstan'],
  ['L', 'A', '0', 'China'],
  ['M', 'A', 'E', 'India'],
  ['M', 'F', 'K', 'Indonesia'],
  ['M', 'L', 'R', 'Thailand'],
  ['N', 'F', 'K', 'Pakistan'],
  ['N', 'L', 'R', 'Turkey'],
  ['P', 'A', 'E', 'Philippines'],
  ['P', 'L', 'R', 'Malaysia'],
  ['R', 'F', 'K', 'Taiwan'],
  ['R', 'L', 'R', 'Vietnam'],
  ['S', 'A', 'M', 'United Kingdom'],
  ['S', 'N', 'T', 'Germany'],
  ['S', 'U', 'Z', 'Poland'],
  ['T', 'A', 'H', 'Switzerland'],
  ['T', 'J', 'P', 'Czech Republic'],
  ['T', 'R', 'V', 'Hungary'],
  ['T', 'W', '1', 'Portugal'],
  ['U', 'H', 'M', 'Denmark'],
  ['U', 'N', 'T', 'Ireland'],
  ['U', 'U', 'Z', 'Romania'],
  ['U', '5', '7', 'Slovakia'],
  ['V', 'A', 'E', 'Austria'],
  ['V', 'F', 'R', 'France'],
  ['V', 'S', 'W', 'Spain'],
  ['V', 'X', '2', 'Serbia'],
  ['V', '3', '5', 'Croatia'],
  ['W', 'A', '0', 'Germany'],
  ['X', 'L', 'R', 'Netherlands'],
  ['X', 'S', 'W', 'Russia'],
  ['X', '3', '0', 'Russia'],
  ['Y', 'A', 'E', 'Belgium'],
  ['Y', 'F', 'K', 'Finland'],
  ['Y', 'S', 'W', 'Sweden'],
  ['Y', 'X', '2', 'Norway'],
  ['Z', 'A', 'R', 'Italy'],
  ['Z', 'X', '2', 'Slovenia'],
  ['1', 'A', '0', 'United States'],
  ['4', 'A', '0', 'United States'],
  ['5', 'A', '0', 'United States'],
  ['7', 'A', 'E', 'New Zealand'],
  ['7', 'F', '0', 'United States'],
  ['2', 'A', '0', 'Canada'],
  ['3', 'A', 'W', 'Mexico'],
  ['3', 'X', '7', 'Costa Rica'],
  ['6', 'A', 'W', 'Australia'],
  ['8', 'A', 'E', 'Argentina'],
  ['8', 'F', 'J', 'Chile'],
  ['8', 'L', 'R', 'Ecuador'],
  ['8', 'S', 'W', 'Peru'],
  ['8', 'X', '2', 'Venezuela'],
  ['9', 'A', 'E', 'Brazil'],
  ['9', 'F', 'J', 'Colombia'],
  ['9', 'S', 'W', 'Uruguay'],
  ['9', '3', '9', 'Brazil'],
];

/** The country a WMI's region code (positions 1-2) belongs to, or null. */
export function countryOf(wmi: string): string | null {
  const [a, b] = [wmi[0], wmi[1]];
  if (!a || !b) return null;
  const i = SEQ.indexOf(b);
  for (const [first, from, to, country] of REGIONS) {
    if (first === a && i >= SEQ.indexOf(from) && i <= SEQ.indexOf(to)) return country;
  }
  return null;
}

/** Position 10 codes, in order from 1980 (A) to 2009 (9); the cycle repeats from 2010. */
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/**
 * The model year of a VIN, or null when position 10 is not a year code.
 * `now` bounds the plausible year (a model year is at most next calendar year).
 */
export function modelYearOf(
  vin: string,
  now: Date = new Date(),
): { year: number; rule: 'position-7' | 'latest-plausible' } | null {
  const i = YEAR_CODES.indexOf(vin[9] ?? '');
  if (i < 0) return null;
  const older = 1980 + i;
  const newer = older + 30;
  const latest = now.getUTCFullYear() + 1;
  const p7 = vin[6] ?? '';
  if (/[0-9]/.test(p7) && older <= latest) return { year: older, rule: 'position-7' };
  if (/[A-Z]/.test(p7) && newer <= latest) return { year: newer, rule: 'position-7' };
  return { year: newer <= latest ? newer : older, rule: 'latest-plausible' };
}

/** Decodes what the VIN itself says. Never throws; `valid` tells whether it is a VIN at all. */
export function decodeVin(raw: string, now: Date = new Date()): DecodedVin {
  const check = checkVin(raw);
  const vin = check.vin;
  const wmi = vin.slice(0, 3);
  const entry = check.valid ? wmiMap().get(wmi) : undefined;
  const year = check.valid ? modelYearOf(vin, now) : null;
  const out: DecodedVin = {
    vin,
    valid: check.valid,
    check_digit_valid: check.checkDigitValid,
    wmi,
    vds: vin.slice(3, 9),
    vis: vin.slice(9),
    manufacturer: entry?.manufacturer ?? null,
    make: entry?.make ?? null,
    country: check.valid ? countryOf(wmi) : null,
    model_year: year?.year ?? null,
    plant_code: vin.slice(10, 11),
    serial: vin.slice(11),
  };
  if (check.expectedCheckDigit) out.expected_check_digit = check.expectedCheckDigit;
  if (year) out.model_year_rule = year.rule;
  return out;
}
