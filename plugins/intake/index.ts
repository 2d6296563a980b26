import { injectable } from 'tsyringe';
import {
  checkVin,
  PermanentStageFailure,
  TitledError,
  type JobInput,
  type StageContext,
  type StagePlugin,
  type TitleEntry,
} from '../../core/plugin-api.js';

/**
 * intake: takes the account data a create or update brought into the
 * client's record of the entry (RFC 7396: objects merge, null removes,
 * arrays replace). Core merges the client's record with the other sources at
 * the checkpoint, validates the result, normalizes the VIN and checks its
 * check digit (a mismatch is accepted and flagged: `vin_check_digit_valid:
 * false`), and fills VIN, state, Borrower, lenderLoanId and loanData.
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
      ctx.account.patchClient(ctx.job.account_data ?? {});
    } catch (e) {
      if (e instanceof TitledError) throw new PermanentStageFailure(e.message);
      throw e;
    }
    const vin = ctx.account.preview().account_data.vehicle?.vin;
    if (vin && checkVin(vin).checkDigitValid === false)
      ctx.log.warn({ code: 'VIN_CHECK_DIGIT_MISMATCH' }, 'VIN check digit does not match; accepted and flagged');
  }
}
