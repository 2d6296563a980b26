/**
 * The loader of `states/<code>/fees.json`, which loads no schema library
 * unless a file needs validating now.
 *
 * Every state's fee file is validated against StateFeeScheduleSchema
 * (states/fee-schema.ts). `npm run build` does it once for all of them
 * (bin/build-fee-records.ts) and writes, per state, a record
 * (`dist/states/validated/<code>.json`): the SHA-256 of the file it
 * validated, the SHA-256 of the compiled schema modules (and of zod's
 * package.json) it validated with, and the validated schedule (the schema's
 * defaults applied). At run time the
 * loader reads the state's file and returns the record's schedule when both
 * hashes match; otherwise (a file edited since the build, a schema rebuilt
 * without the records, no record) it validates the file there and then,
 * loading the schema module synchronously. A file is never returned
 * unvalidated, and the result is the same either way
 * (test/states/fee-records.test.ts).
 *
 * Why: the schema (zod and the model schemas, about 8 MB of a process) is
 * then loaded only by what validates, not by every reader of fee data, such
 * as the forms renderer used as a library (docs/architecture.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../core/plugin-api-pure.js';
import type { StateFeeSchedule } from './fee-schema.js';

/** Absolute path of a state's folder (`states/<code>`). */
export function stateDir(code: string): string {
  return resolve(packageRoot, 'states', code.toLowerCase());
}

/** A state's validation record, as bin/build-fee-records.ts writes it. */
export interface FeeRecord {
  /** SHA-256 (hex) of the fees.json bytes that were validated. */
  file_sha256: string;
  /** {@link schemaSha256} when they were validated. */
  schema_sha256: string;
  /** The validated schedule. */
  schedule: StateFeeSchedule;
}

/** Where the build writes the records (next to this module, under dist/). */
export const RECORD_DIR = fileURLToPath(new URL('./validated/', import.meta.url));

/** The compiled modules whose code decides what a valid fee file is (zod's version by its package.json). */
const SCHEMA_MODULES = ['./fee-schema.js', '../core/model/schemas.js', '../core/model/domain.js'];

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

const requireHere = createRequire(import.meta.url);

let schemaHash: string | undefined;
/** SHA-256 of the compiled schema modules and zod's package.json (a record made with other code is not used). */
export function schemaSha256(): string {
  if (schemaHash !== undefined) return schemaHash;
  const h = createHash('sha256');
  for (const m of SCHEMA_MODULES) h.update(readFileSync(new URL(m, import.meta.url)));
  h.update(readFileSync(requireHere.resolve('zod/package.json')));
  return (schemaHash = h.digest('hex'));
}

/** The schema module, loaded (synchronously) only when a file is validated at run time. */
type SchemaModule = {
  parseStateFeeSchedule(code: string, text: string, file: string): StateFeeSchedule;
};

/** The record of `code` when it describes `fileHash` and the current schema. */
function recordFor(code: string, fileHash: string, recordDir: string): StateFeeSchedule | undefined {
  let record: FeeRecord;
  try {
    record = JSON.parse(readFileSync(join(recordDir, `${code}.json`), 'utf8')) as FeeRecord;
  } catch {
    return undefined; // no record (or an unreadable one): validate now
  }
  if (record.file_sha256 !== fileHash || record.schema_sha256 !== schemaSha256()) return undefined;
  return record.schedule;
}

/**
 * Read and validate `states/<code>/fees.json` (`file` and `recordDir` are for
 * tests). Throws naming the state and the zod issue path.
 */
export function loadStateFeeSchedule(code: string, opts: { file?: string; recordDir?: string } = {}): StateFeeSchedule {
  const upper = code.toUpperCase();
  const file = opts.file ?? join(stateDir(code), 'fees.json');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new Error(`fee data for ${upper}: cannot read ${file}: ${(err as Error).message}`);
  }
  const recorded = recordFor(upper, sha256(bytes), opts.recordDir ?? RECORD_DIR);
  if (recorded) return recorded;
  const schema = requireHere('./fee-schema.js') as SchemaModule;
  return schema.parseStateFeeSchedule(upper, bytes.toString('utf8'), file);
}
