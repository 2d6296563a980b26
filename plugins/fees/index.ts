import { inject, injectable } from 'tsyringe';
import {
  type TitledConfig,
  PermanentStageFailure,
  type JobInput,
  type TitleEntry,
  type StageContext,
  type StagePlugin,
  TOKENS,
} from '../../core/plugin-api.js';
import { estimateFees } from './calculator.js';
import { feeInputFromEntry, feeState } from './input.js';
import { isStateCode } from './schedules.js';

export { estimateFees } from './calculator.js';
export type { EstFees, FeeInput, FeeItemOut } from './types.js';

/**
 * fees: writes `fee_estimate` (the spec's EstFees) from the entry's state,
 * county, transaction, vehicle, sale and fee history (docs/fees.md). Runs on
 * `POST /title/{id}/fees`, and on a create or update once the entry names a
 * state. The calculation itself is the pure `estimateFees`.
 */
@injectable()
export class FeesStage implements StagePlugin {
  readonly name = 'fees';
  readonly phase = 'enriching' as const;
  readonly after = ['intake'];
  readonly handles = ['fees'] as const;
  readonly timeoutMs = 10_000;

  constructor(@inject(TOKENS.Config) private readonly config: Readonly<TitledConfig>) {}

  /** The state is one of the 50 + DC and enabled in config `states` (empty = all). */
  private enabled(state: string): boolean {
    return (
      isStateCode(state) &&
      (this.config.states.length === 0 || this.config.states.map((s) => s.toUpperCase()).includes(state))
    );
  }

  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    if (job.reasons.includes('fees')) return true;
    return (job.reasons.includes('create') || job.reasons.includes('update')) && this.enabled(feeState(entry));
  }

  async run(ctx: StageContext): Promise<void> {
    const requested = ctx.job.reasons.includes('fees');
    const state = feeState(ctx.entry);
    if (!this.enabled(state)) {
      if (!requested) return;
      throw new PermanentStageFailure(
        state
          ? `no fee estimate: state '${state}' is not ${isStateCode(state) ? "enabled in this engine's config" : 'one of the 50 states and DC'}`
          : "no fee estimate: the entry names no state (account_data.sale.state, the title's issuing state or the borrower's address)",
      );
    }
    const now = new Date();
    const input = feeInputFromEntry(ctx.entry, now.toISOString().slice(0, 10))!;
    let estimate;
    try {
      estimate = estimateFees(input);
    } catch (e) {
      if (e instanceof TypeError) throw new PermanentStageFailure(`no fee estimate: ${e.message}`);
      throw e;
    }
    Object.assign(estimate.metadata, { computed_at: now.toISOString() });
    ctx.entry.fee_estimate = estimate;
    ctx.log.info(
      {
        code: 'FEES_ESTIMATED',
        state,
        transactions: estimate.metadata.transactions,
        complete: estimate.metadata.complete,
      },
      'fee estimate written',
    );
  }
}
