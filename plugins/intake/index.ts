import { injectable } from 'tsyringe';
import { PermanentStageFailure, TitledError } from '../../core/errors.js';
import type { JobInput } from '../../core/jobs/job-queue.js';
import { applyAccountDataPatch, type TitleEntry } from '../../core/model/entry.js';
import { AccountDataSchema } from '../../core/model/schemas.js';
import type { StageContext, StagePlugin } from '../../core/pipeline/stage.js';
import { describeZodError } from '../../core/service/title-service.js';

/**
 * intake: merges the account data a create or update brought into the entry
 * (RFC 7396: objects merge, null removes, arrays replace), validates the
 * result against the spec's AccountData schema, normalizes the VIN and checks
 * its check digit (a mismatch is accepted and flagged:
 * `vin_check_digit_valid: false`), and fills VIN, state, Borrower,
 * lenderLoanId and loanData from the account data.
 */
@injectable()
export class IntakeStage implements StagePlugin {
  readonly name = 'intake';
  readonly phase = 'pending' as const;
  readonly timeoutMs = 10_000;

  appliesTo(_entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    return job.account_data !== undefined;
  }

  async run(ctx: StageContext): Promise<void> {
    try {
      applyAccountDataPatch(ctx.entry, ctx.job.account_data);
    } catch (e) {
      if (e instanceof TitledError) throw new PermanentStageFailure(e.message);
      throw e;
    }
    const check = AccountDataSchema.safeParse(ctx.entry.account_data);
    if (!check.success) throw new PermanentStageFailure(`merged account_data is invalid: ${describeZodError(check.error, 'account_data')}`);
    if (ctx.entry.vin_check_digit_valid === false) ctx.log.warn({ code: 'VIN_CHECK_DIGIT_MISMATCH' }, 'VIN check digit does not match; accepted and flagged');
  }
}
