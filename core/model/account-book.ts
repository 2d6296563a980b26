/**
 * The sources of one entry's account data and their merge into the entry:
 * what `ctx.account` is for a stage, and what the title service uses for
 * PATCH. Contributions are collected; `commit` merges once (at the stage's
 * checkpoint, or at the end of the request) and writes `account_data`, the
 * members derived from it, the comparisons and the review onto the entry.
 */
import { TitledError } from '../errors.js';
import { clone, mergePatch } from '../merge.js';
import { checkVin } from '../vin.js';
import { mergeAccountData, type AccountSource, type MergeOutcome } from './account.js';
import { deriveEntryFields, type TitleEntry } from './entry.js';
import { AccountDataSchema, type AccountData } from './schemas.js';
import { describeZodError } from './validate.js';

/** What a stage reads and contributes of account data (`ctx.account`). */
export interface AccountAccess {
  /** Every source's record, in the order contributed (copies: change them through `contribute`). */
  sources(): readonly AccountSource[];
  /** One source by id (`client`, `document:<doc_id>`, `pull:<source>`, `vin_decode`, `insurance`). */
  source(id: string): AccountSource | undefined;
  /**
   * Adds a source, or replaces the source of the same id. The record is
   * checked against the AccountData schema (INVALID_INPUT naming the source
   * when it does not fit). `account_data` is merged again at the checkpoint.
   */
  contribute(source: AccountSource): void;
  /** Removes a source (a pull that now finds nothing withdraws what it gave). */
  withdraw(id: string): void;
  /** Merges the client's request into the client's record (RFC 7396: objects merge, null removes, arrays replace). */
  patchClient(patch: AccountData): void;
  /** The merge as the checkpoint would write it now (read it; do not change it: the checkpoint may write it as it is). */
  preview(): MergeOutcome;
}

/** The sources stored with an entry (`account_sources`, never shown to clients). */
function sourcesOf(entry: TitleEntry): AccountSource[] {
  const stored = entry.account_sources as AccountSource[] | undefined;
  if (stored) return stored;
  // an entry written before sources were kept: what it holds is the client's
  return entry.account_data && Object.keys(entry.account_data).length
    ? [{ id: 'client', kind: 'client', record: clone(entry.account_data) }]
    : [];
}

export class AccountBook implements AccountAccess {
  private list: AccountSource[];
  private changed = false;
  /** The last merge of `list` (preview, then commit merge once when nothing changed between them). */
  private merged?: MergeOutcome;

  constructor(private readonly entry: TitleEntry) {
    this.list = sourcesOf(entry);
  }

  /** Whether a source was contributed or withdrawn since the book was opened (or last committed). */
  get dirty(): boolean {
    return this.changed;
  }

  sources(): readonly AccountSource[] {
    return clone(this.list);
  }

  source(id: string): AccountSource | undefined {
    const s = this.list.find((x) => x.id === id);
    return s && clone(s);
  }

  contribute(source: AccountSource): void {
    if (!source.id || !source.kind) throw new TitledError('INVALID_INPUT', 'an account source needs an id and a kind');
    const check = AccountDataSchema.safeParse(source.record ?? {});
    if (!check.success)
      throw new TitledError('INVALID_INPUT', `source ${source.id}: ${describeZodError(check.error, 'account_data')}`);
    this.put(clone({ ...source, record: check.data as AccountData }));
  }

  /** Adds or replaces a source already checked (the client's record: its requests were validated where they came in). */
  private put(copy: AccountSource): void {
    const i = this.list.findIndex((x) => x.id === copy.id);
    if (i >= 0) this.list[i] = copy;
    else this.list.push(copy);
    this.changed = true;
    this.merged = undefined;
  }

  withdraw(id: string): void {
    const before = this.list.length;
    this.list = this.list.filter((x) => x.id !== id);
    if (this.list.length !== before) {
      this.changed = true;
      this.merged = undefined;
    }
  }

  patchClient(patch: AccountData): void {
    const current = this.list.find((x) => x.id === 'client')?.record ?? {};
    const record = mergePatch(current, patch) as AccountData;
    const vin = record.vehicle?.vin;
    if (vin) {
      const check = checkVin(vin);
      if (!check.valid) throw new TitledError('INVALID_VIN', `account_data.vehicle.vin: ${check.reason}`);
      record.vehicle!.vin = check.vin;
    }
    // each request was validated where it came in; RFC 7396 merging of two records that fit keeps the fit
    this.put({ id: 'client', kind: 'client', record: clone(record) });
  }

  preview(): MergeOutcome {
    return (this.merged ??= mergeAccountData(this.list));
  }

  /**
   * Merges the sources and writes the result onto the entry: `account_data`,
   * VIN/state/Borrower/lenderLoanId/loanData, `account_discrepancies` and
   * `account_matches` (once any document or pull takes part), `account_review`.
   *
   * The merge is not validated again: each record was (`contribute`; the
   * client's requests where they came in), and the merge only copies a
   * record's values to the same place, so it fits the schema too: every member
   * of AccountDataSchema is optional and none is checked against another
   * (test/core/account-schema.test.ts fails when that stops being so).
   */
  commit(): MergeOutcome {
    const out = this.preview();
    const e = this.entry;
    e.account_data = out.account_data;
    e.account_sources = this.list;
    deriveEntryFields(e);
    const observed = this.list.some((s) => s.kind === 'document' || s.kind === 'pull');
    if (observed || e.account_discrepancies || e.account_matches) {
      e.account_discrepancies = { items: out.discrepancies };
      e.account_matches = { items: out.matches };
    }
    if (out.review) e.account_review = out.review;
    else delete e.account_review;
    this.changed = false;
    // the entry now holds this outcome's objects: a later merge is a fresh one
    this.merged = undefined;
    return out;
  }
}
