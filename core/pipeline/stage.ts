/**
 * The stage plugin contract: the one interface a pipeline stage implements.
 * Public types for plugin authors live here and in core/index.ts.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { TitledConfig } from '../config.js';
import type { JobInput } from '../jobs/job-queue.js';
import type { TitleEntry } from '../model/entry.js';
import type { JobStatus } from '../status.js';
import type { EntryObjects } from '../storage/object-store.js';
import type { Organization } from '../auth/organizations.js';

/** Actions of the title API a stage can serve; a route whose action no enabled stage serves answers 501. */
export type StageAction = 'data' | 'fees' | 'forms' | 'sign' | 'submit';

/** What a stage's `run` gets. */
export interface StageContext {
  /**
   * The entry, as a draft: change it in place. The runner saves the changed
   * top-level members when `run` resolves (the stage's checkpoint), together
   * with the events the stage emitted, in one transaction.
   */
  readonly entry: TitleEntry;
  /** What the requests behind this job asked for (account data, attachments, sync flags, reasons). */
  readonly job: Readonly<JobInput>;
  readonly jobId: string;
  /** Which try of the job this is (1 = first). */
  readonly attempt: number;
  readonly org: Readonly<Organization>;
  readonly config: Readonly<TitledConfig>;
  /** `config.plugins[<stage name>]`, unvalidated: a stage validates its own options (zod) in its constructor or setup. */
  readonly options: unknown;
  /** A child logger bound to the entry id and the stage name. Never log account data. */
  readonly log: Logger;
  /** Aborted when the stage's time limit passes or the engine stops. */
  readonly signal: AbortSignal;
  /** Object storage under the entry's `storeIndex`. */
  readonly objects: EntryObjects;
  /** Appends an event to the outbox with this stage's checkpoint (e.g. `title.data.found`). */
  emit(name: string, payload?: Record<string, unknown>): void;
  /** The engine's dependency container (providers registered by plugins live here). */
  readonly container: DependencyContainer;
}

/**
 * A pipeline stage.
 *
 * Stages run in the order of the config's `stages` list (adjusted so every
 * stage runs after the stages in its `after`), once per job, each under its
 * `phase`: when a stage of a later phase starts, the entry's `job_status`
 * moves forward to that phase (pending -> input_parsing -> enriching ->
 * generating_forms); when every stage is done it becomes `complete`.
 * A stage that throws is retried with the whole job (stages already
 * checkpointed are not run again); after the last try, `job_status` is `error`.
 *
 * @example
 * ```ts
 * @injectable()
 * export class FeesStage implements StagePlugin {
 *   readonly name = 'fees';
 *   readonly phase = 'enriching';
 *   readonly after = ['intake'];
 *   readonly handles = ['fees'] as const;
 *   constructor(private readonly calculator: FeeCalculator) {}
 *   appliesTo(entry: TitleEntry, job: JobInput) { return job.reasons.includes('fees') || !!entry.state; }
 *   async run(ctx: StageContext) { ctx.entry.fee_estimate = this.calculator.estimate(ctx.entry); }
 * }
 * ```
 */
export interface StagePlugin {
  /** Unique name, as written in the config's `stages` list. */
  readonly name: string;
  /** The job_status the entry shows while this stage runs. */
  readonly phase: Exclude<JobStatus, 'complete' | 'error'>;
  /** Stages that must run before this one; each must be enabled (start-up error otherwise). */
  readonly after?: readonly string[];
  /** Time limit for one run, in ms (default: config `stageTimeoutMs`). */
  readonly timeoutMs?: number;
  /** The API actions this stage serves (POST /title/{id}/<action>). */
  readonly handles?: readonly StageAction[];
  /** Whether the stage has work for this entry and job; a stage that does not apply is skipped. */
  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean;
  run(ctx: StageContext): Promise<void>;
}

/** A stage class the engine builds through tsyringe (constructor injection of core services). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tsyringe resolves the arguments
export type StagePluginClass = new (...args: any[]) => StagePlugin;
