/**
 * Shared pieces of the auth, tenancy and HTTP contract suites: VINs, account
 * data, exact assertions on the spec's error body, and waiting for a job.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { computeCheckDigit } from '../../core/index.js';
import { eventually, type TestEngine } from '../helpers/engine.js';

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** A random well-formed VIN with a correct check digit (position 9). */
export function makeVin(): string {
  const bytes = randomBytes(17);
  const chars = [...bytes].map((b) => VIN_ALPHABET[b % VIN_ALPHABET.length]!);
  chars[8] = '0';
  chars[8] = computeCheckDigit(chars.join(''))!;
  return chars.join('');
}

/** The same VIN with a check digit that does not match. */
export function withWrongCheckDigit(vin: string): string {
  const right = vin[8]!;
  const wrong = right === '1' ? '2' : '1';
  return vin.slice(0, 8) + wrong + vin.slice(9);
}

export interface AccountDataOptions {
  state?: string;
  borrower?: string;
  loanId?: string;
  ssn?: string;
  dob?: string;
  dl?: string;
}

/** Structured account data of a refinance-like transaction. */
export function accountData(vin: string, o: AccountDataOptions = {}): Record<string, unknown> {
  return {
    vehicle: {
      vin,
      year: 2019,
      make: 'Honda',
      model: 'Accord',
      color: 'Blue',
      title: { number: 'T-100200', issuing_state: o.state ?? 'TX' },
    },
    loan: {
      loan_id: o.loanId ?? 'LN-0001',
      loan_amount: 12000,
      borrower: [
        {
          type: 'PERSON',
          name: o.borrower ?? 'Jane Q Borrower',
          ssn: o.ssn ?? '111-22-3333',
          dob: o.dob ?? '1980-02-03',
          dlid: { number: o.dl ?? 'X0000000', state: o.state ?? 'TX' },
          addr: { street1: '1 Main St', city: 'Austin', state: o.state ?? 'TX', zip: '78701' },
        },
      ],
    },
  };
}

export interface Res {
  status: number;
  body: any;
  headers: Headers;
}

/** Asserts the spec's error body exactly: `{error, statusCode}` (+ `disallowedFields` when given). */
export function expectError(res: Res, status: number, o: { match?: RegExp; disallowedFields?: string[] } = {}): void {
  expect(res.status, `HTTP status (body: ${JSON.stringify(res.body)})`).to.equal(status);
  expect(res.body).to.be.an('object');
  const keys = o.disallowedFields ? ['disallowedFields', 'error', 'statusCode'] : ['error', 'statusCode'];
  expect(Object.keys(res.body).sort()).to.deep.equal(keys);
  expect(res.body.statusCode).to.equal(status);
  expect(res.body.error).to.be.a('string').and.not.equal('');
  if (o.match) expect(res.body.error).to.match(o.match);
  if (o.disallowedFields) expect([...res.body.disallowedFields].sort()).to.deep.equal([...o.disallowedFields].sort());
}

/** Creates an entry and returns its id (asserts the 200 response). */
export async function createEntry(t: TestEngine, body: unknown, key?: string | null): Promise<string> {
  const res = await t.request('POST', '/title', { body, key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.entryId).to.be.a('string');
  return res.body.entryId as string;
}

/** Waits until the entry's job_status is `status` (default `complete`) and returns the entry. */
export async function waitForStatus(t: TestEngine, id: string, status = 'complete', key?: string | null): Promise<any> {
  return eventually(
    async () => {
      const res = await t.request('GET', `/title/${id}`, { key });
      if (res.status !== 200) throw new Error(`GET /title/${id}: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.body.job_status === 'error') throw new Error(`entry ${id} failed: ${JSON.stringify(res.body.job_error)}`);
      return res.body.job_status === status ? res.body : null;
    },
    { what: `entry ${id} reaches ${status}` },
  );
}

/** Waits until no job of the engine is queued or running (entries are quiet). */
export async function waitForIdle(t: TestEngine): Promise<void> {
  await eventually(
    async () => {
      const rows = await t.engine.db.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')",
      );
      return Number(rows[0]!.n) === 0;
    },
    { what: 'job queue is idle' },
  );
}

/** The stored row of an entry (doc text and version), for byte-for-byte comparisons. */
export async function storedRow(
  t: TestEngine,
  id: string,
): Promise<{ doc: string; version: number; vin: string | null; orgId: string }> {
  const rows = await t.engine.db.query<{ doc: string; version: number; vin: string | null; orgId: string }>(
    'SELECT doc, version, vin, "orgId" FROM entries WHERE id = ?',
    [id],
  );
  expect(rows, `entry row ${id}`).to.have.length(1);
  return { ...rows[0]!, version: Number(rows[0]!.version) };
}

/** The job inputs of an entry (queued or running), oldest first. */
export async function jobInputs(t: TestEngine, entryId: string): Promise<any[]> {
  const rows = await t.engine.db.query<{ orgId: string; input: string }>(
    'SELECT "orgId", input FROM jobs WHERE "entryId" = ? ORDER BY "createdAt"',
    [entryId],
  );
  // stored with its PII sealed (docs/security.md): opened as the queue reads it
  return Promise.all(rows.map((r) => t.engine.pii.parse(r.orgId, r.input)));
}

/** The members every entry must have (spec: Title entry). */
export const REQUIRED_MEMBERS = [
  'website',
  'entryId',
  'userId',
  'job_status',
  'storeIndex',
  'createdAt',
  'VIN',
  'state',
  'Borrower',
  'attachment',
  'loanData',
  'account_data',
  'account_status',
  'lenderLoanId',
  'tracking_url_provider',
] as const;

export const basic = (keyId: string, secret: string) => `Basic ${Buffer.from(`${keyId}:${secret}`).toString('base64')}`;

/**
 * Config that enables only the core `intake` stage, so a suite tests the core
 * contract (e.g. 501 for actions no enabled stage serves) whatever stages the
 * shipped config/default.json enables.
 */
export const CORE_ONLY = { stages: ['intake'] };
