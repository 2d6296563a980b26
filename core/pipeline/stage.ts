/**
 * The stage plugin contract: the one interface a pipeline stage implements.
 * Public types for plugin authors live here and in core/index.ts.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { TitledConfig } from '../config.js';
import type { JobInput } from '../jobs/job-queue.js';
import type { TitleEntry } from '../model/entry.js';
import type { AccountAccess } from '../model/account-book.js';
import type { JobStatus } from '../status.js';
import type { EntryObjects } from '../storage/object-store.js';
import type { Organization } from '../auth/organizations.js';
import type { Principal } from '../auth/authenticator.js';
import type { PluginSchema } from '../db/database.js';
import type { PluginOptionsSchema } from './options.js';
import type { StatusField } from '../store/entry-store.js';
import type { Context } from 'koa';
import type Router from '@koa/router';
import type { OpenApiContribution } from '../http/openapi.js';

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
  /**
   * The entry's account data sources: a stage contributes what it found (a
   * document's extraction, a pull's record) or withdraws it, and never writes
   * `entry.account_data` itself. At the checkpoint, core merges every source
   * once under the precedence table (core/model/account.ts) and writes
   * `account_data`, the members derived from it and the comparisons.
   */
  readonly account: AccountAccess;
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
  /**
   * Moves a status field of the draft entry through its state machine
   * (core/status.ts; throws CONFLICT for a move the table refuses) and
   * appends `title.<field>.<new status>` to the outbox with this stage's
   * checkpoint. No move, no event.
   */
  setStatus(field: StatusField, to: string, payload?: Record<string, unknown>): void;
  /**
   * Shows progress while the stage runs: sets these top-level members on
   * the draft and writes them to the stored entry now, in their own
   * transaction, so clients polling the entry see them (the ocr stage shows
   * each document's status in `bdaJobs` this way). Not a checkpoint: the
   * stage's changes are still written when `run` resolves, and a retry runs
   * the stage again. Emits no events. Calls are written one after another.
   * In a synchronous action (`runNow`) only the draft changes.
   */
  progress(patch: Partial<TitleEntry>): Promise<void>;
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
export interface StagePlugin extends EnginePlugin {
  /** The job_status the entry shows while this stage runs. */
  readonly phase: Exclude<JobStatus, 'complete' | 'error'>;
  /** Time limit for one run, in ms (default: config `stageTimeoutMs`). */
  readonly timeoutMs?: number;
  /** The API actions this stage serves (POST /title/{id}/<action>). */
  readonly handles?: readonly StageAction[];
  /**
   * Whether the stage has work for this entry and job; a stage that does not
   * apply is skipped. Usually asked by the previous stage's checkpoint, about
   * the entry it writes, inside its transaction (which then shows this
   * stage's phase): keep it a cheap check without side effects.
   */
  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean;
  run(ctx: StageContext): Promise<void>;
  /**
   * Serves one of the stage's `handles` actions synchronously, inside the
   * request (POST /title/{id}/forms answers only when the forms exist). Gets
   * the context `run` gets (`job.reasons` is `[action]`); the title service
   * saves the draft the same way the runner checkpoints a stage. A stage
   * without it serves its actions by queuing a job.
   */
  runNow?(ctx: StageContext): Promise<void>;
  /**
   * Status moves to record when a request (POST /title, POST /title/{id}/<action>)
   * queues a job this stage will serve, in the request's transaction, so a
   * client reads them at once (e.g. a pull's found status to `pending`).
   */
  requested?(input: Readonly<JobInput>): readonly { field: StatusField; to: string }[];
  /**
   * The job failed for good in this stage: settle on `entry` (saved next,
   * with job_status `error`) what the stage showed as under way through
   * `ctx.progress`, e.g. documents still `processing`.
   */
  abandoned?(entry: TitleEntry): void;
}

/** Helpers a plugin's routes get from the HTTP layer. */
export interface RouteHelpers {
  /** The caller's principal (403 with the spec's error body when the credentials are bad). */
  authenticate(ctx: Context): Promise<Principal>;
  /** The JSON body (400/413/415 like every route). */
  readJson(ctx: Context): Promise<unknown>;
}

/**
 * What every plugin named in the config's `stages` list is. A plugin with
 * `phase`, `appliesTo` and `run` is a pipeline stage (StagePlugin); one
 * without is a background plugin, e.g. webhook delivery from the outbox,
 * which only uses the lifecycle hooks below.
 */
export interface EnginePlugin {
  /** Unique name, as written in the config's `stages` list. */
  readonly name: string;
  /** Plugins that must be enabled too; a stage also runs after them (start-up error when one is missing). */
  readonly after?: readonly string[];
  /** Adds HTTP routes (called once, when the Koa app is built). */
  routes?(router: Router, helpers: RouteHelpers): void;
  /**
   * Documents the plugin's routes in GET /openapi.json: path items keyed by
   * OpenAPI path (`/title/{id}/sign`; one core documents too is replaced), the
   * zod schemas they reference (`#/components/schemas/<name>`), and webhook
   * payloads. Every route `routes` adds must be documented:
   * test/openapi/openapi.test.ts fails otherwise.
   */
  openapi?(): OpenApiContribution;
  /** Starts background work; called by `engine.start()` after the pipeline is frozen, when `workers.enabled`. */
  start?(): Promise<void> | void;
  /** Stops background work; called by `engine.stop()` before the database closes. */
  stop?(): Promise<void> | void;
  /**
   * Adjusts the entry as clients see it (GET, list items, webhook bodies),
   * after object keys were presigned: adds read-time members or hides
   * internal ones. `entry` is the caller's copy; `org` is the entry's
   * organization when the caller knows it. Must be synchronous and cheap.
   */
  present?(entry: TitleEntry, ctx: { org?: Readonly<Organization> }): void;
  /**
   * Removes the plugin's rows whose work ended before `cutoff(kind)` (config
   * `retention`); the engine's pruning loop calls it (docs/storage.md,
   * Pruning). Answers the rows removed, by table. Keep each statement short:
   * delete at most `retention.batchSize` rows at a time.
   */
  prune?(retention: Readonly<TitledConfig['retention']>, now: number): Promise<Record<string, number>>;
  /**
   * Operator actions on one entry the console offers (a small form each on
   * the entry page, docs/console.md): remind signers, log a received title,
   * record a state's answer. Read when the entry page is drawn; must be cheap.
   */
  consoleActions?(): readonly ConsoleAction[];
}

/** An operator action a plugin offers on the console's entry page. */
export interface ConsoleAction {
  /** Unique within the plugin: the URL segment (`/console/entries/{id}/plugin/<plugin>/<name>`). */
  readonly name: string;
  /** The button's text. */
  readonly label: string;
  /** The form's fields (text inputs, or a select when `options` is given). */
  readonly fields?: readonly { name: string; label: string; required?: boolean; options?: readonly string[] }[];
  /** Whether the action applies to this entry now (the form is shown only then). */
  appliesTo(entry: Readonly<TitleEntry>): boolean;
  /** Runs it as the operator `p`; answers the message the entry page shows (a TitledError is shown as an error). */
  run(p: Principal, entryId: string, fields: Readonly<Record<string, string>>): Promise<string>;
}

/** Whether a plugin is a pipeline stage (has phase, appliesTo and run). */
export function isStagePlugin(p: EnginePlugin): p is StagePlugin {
  const s = p as Partial<StagePlugin>;
  return typeof s.run === 'function' && typeof s.appliesTo === 'function' && typeof s.phase === 'string';
}

/**
 * A plugin class the engine builds through tsyringe (constructor injection of
 * core services). Statics the engine reads before building it: `schema`, the
 * tables a plugin brings (entities and per-dialect migrations, read before the
 * database opens); `options`, the schema of `config.plugins.<name>` (checked
 * at start-up: a misspelt option stops the engine); `providers`, the
 * `config.providers` keys it reads.
 */
export type EnginePluginClass = (new (...args: any[]) => EnginePlugin) & {
  schema?: PluginSchema;
  options?: PluginOptionsSchema;
  providers?: readonly string[];
};

/** A stage class the engine builds through tsyringe (constructor injection of core services). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tsyringe resolves the arguments
export type StagePluginClass = new (...args: any[]) => StagePlugin;
