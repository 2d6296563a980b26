import { randomUUID } from 'node:crypto';
import { clone } from '../merge.js';
import type { AccountStatus, JobStatus } from '../status.js';
import type { AccountData } from './schemas.js';
import { checkVin } from '../vin.js';
import type { AccountSource } from './account.js';
import { personName } from './names.js';

/** The document types a classifier assigns (spec: DocumentUpload.document_type). */
export const DOCUMENT_TYPES = [
  'VEHICLE_TITLE',
  'VEHICLE_TITLE_BACK',
  'VEHICLE_REGISTRATION',
  'DRIVER_LICENSE',
  'DRIVER_LICENSE_BACK',
  'PAYOFF_LETTER',
  'UNKNOWN',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** A document uploaded with an entry (spec: DocumentUpload). */
export interface DocumentUpload {
  display_name: string;
  store_key: string;
  document_type: DocumentType;
  json_path: string;
  [k: string]: unknown;
}

/**
 * The title entry (spec: Title entry). The required members are typed; every
 * other spec member (form_*, *_pull, fee_estimate, ...) is added by the stage
 * that owns it and kept as loose JSON.
 */
export interface TitleEntry {
  website: string;
  entryId: string;
  userId: string;
  user_email?: string;
  job_status: JobStatus;
  createdAt: string;
  last_modified: number;
  groupId?: string;
  storeIndex: string;
  VIN: string;
  state: string;
  Borrower: string;
  lenderLoanId: string;
  existingEntryId?: string;
  attachment: DocumentUpload[];
  loanData: AccountData;
  account_data: AccountData;
  account_status: AccountStatus;
  tracking_url_provider: string;
  bdaJobs: Record<string, string>;
  /** Beyond the spec: false when the VIN's check digit (49 CFR 565.15) does not match; see docs/decisions.md. */
  vin_check_digit_valid?: boolean;
  /**
   * The sources behind account_data (core/model/account.ts). Stored beside
   * the entry's document, never shown to clients; stages change them through
   * `ctx.account` only.
   */
  account_sources?: AccountSource[];
  [member: string]: unknown;
}

interface NewEntryInput {
  orgId: string;
  orgName: string;
  userId: string;
  userEmail?: string;
  groupId?: string;
  vin?: string;
}

/** A fresh entry with every required member of the spec present. */
export function newEntry(input: NewEntryInput, now = Date.now()): TitleEntry {
  const entryId = randomUUID();
  const entry: TitleEntry = {
    website: input.orgName,
    entryId,
    userId: input.userId,
    job_status: 'pending',
    createdAt: new Date(now).toISOString(),
    last_modified: now,
    storeIndex: `${input.orgId}/${entryId}`,
    VIN: input.vin ?? '',
    state: '',
    Borrower: '',
    lenderLoanId: '',
    attachment: [],
    loanData: {},
    account_data: {},
    account_status: 'originated',
    tracking_url_provider: '',
    bdaJobs: {},
  };
  if (input.userEmail) entry.user_email = input.userEmail;
  if (input.groupId) entry.groupId = input.groupId;
  return entry;
}

/**
 * Fills the entry members derived from account data (docs/decisions.md):
 * VIN (normalized), state (title's issuing state, else the sale's state, else
 * the first borrower's address state), Borrower (first borrower's name),
 * lenderLoanId (loan.loan_id), loanData (a copy of account_data).
 * A member whose source is absent keeps its value.
 */
export function deriveEntryFields(entry: TitleEntry): void {
  const ad = entry.account_data;
  const rawVin = ad.vehicle?.vin;
  if (rawVin) {
    const check = checkVin(rawVin);
    entry.VIN = check.vin;
    if (ad.vehicle) ad.vehicle.vin = check.vin;
    entry.vin_check_digit_valid = check.checkDigitValid;
  }
  const state = ad.vehicle?.title?.issuing_state ?? ad.sale?.state ?? ad.loan?.borrower?.[0]?.addr?.state;
  if (state) entry.state = state;
  const borrower = personName(ad.loan?.borrower?.[0]);
  if (borrower) entry.Borrower = borrower;
  if (ad.loan?.loan_id) entry.lenderLoanId = ad.loan.loan_id;
  entry.loanData = clone(ad);
}
