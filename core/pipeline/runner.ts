import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import PQueue from 'p-queue';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { Organizations } from '../auth/organizations.js';
import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { PermanentStageFailure, PluginError, StageError } from '../errors.js';
import type { ClaimedJob, JobQueue } from '../jobs/job-queue.js';
import type { TitleEntry } from '../model/entry.js';
import { reloaded } from '../merge.js';
import { JOB_PHASE_ORDER } from '../status.js';
import type { EntryStore, StoredEntry } from '../store/entry-store.js';
import type { Outbox } from '../store/outbox.js';
import { EntryObjects, type ObjectStore } from '../storage/object-store.js';
import type { StagePlugin } from './stage.js';
import { Metrics } from '../metrics.js';
import { runToCheckpoint, type CheckpointIO, type StageEvent } from './execute.js';

/** The job was taken over by another worker (its lease expired) or its entry was deleted: stop quietly. */
class JobGone extends Error {}

const MAX_STAGE_REPLAYS = 3;

/**
 * What a stage's checkpoint found out about the stages after it, asking their
 * `appliesTo` about the entry it wrote: `complete` when none applies (the
 * checkpoint finished the job; `nextQueued`: another job of the entry is
 * queued); else `next`, the first one that applies, whose phase the
 * checkpoint showed, or the first one whose `appliesTo` threw (`error`,
 * thrown once the checkpoint is committed, as it would have been before).
 */
type Ahead = { complete: true; nextQueued: boolean } | { complete: false; next: number; error?: { thrown: unknown } };

/**
 * Workers: claim jobs from the durable queue and run the enabled stages in
 * order, checkpointing after each. p-queue bounds how many jobs run at once.
 */
export class PipelineRunner {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly pq: PQueue;
  private timer?: NodeJS.Timeout;
  private running = false;
  private polling = false;
  /** A wake-up came while a poll was under way. */
  private pollAgain = false;
  /** Aborted when the engine stops: every running stage listens (as many as `workers.concurrency`; no listener cap). */
  private readonly stopController = unlimited(new AbortController());
  private readonly onEnqueued = () => {
    this.enqueues++;
    this.drained = false;
    void this.poll();
  };
  /** Stops listening for other daemons' notifications. */
  private stopNotified?: () => void;
  private lastPollAt = 0;
  /** Jobs this process enqueued (wake-ups), counted. */
  private enqueues = 0;
  /**
   * The last claim took every runnable job (it returned fewer than it asked
   * for) and nothing was enqueued here since it began: a job that ends
   * without a queued successor for its entry has nothing to unblock, so no
   * claim follows it. Jobs of other processes, retries coming due and
   * expired leases are found by the periodic poll, as before.
   */
  private drained = false;

  constructor(
    private readonly stages: readonly StagePlugin[],
    private readonly db: Database,
    private readonly store: EntryStore,
    private readonly outbox: Outbox,
    private readonly queue: JobQueue,
    private readonly orgs: Organizations,
    private readonly objects: ObjectStore,
    private readonly container: DependencyContainer,
    private readonly config: Readonly<TitledConfig>,
    private readonly log: Logger,
  ) {
    this.pq = new PQueue({ concurrency: config.workers.concurrency });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Seconds since the last successful poll (readiness). */
  get lastPollAgeMs(): number {
    return Date.now() - this.lastPollAt;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.queue.events.on('enqueued', this.onEnqueued);
    // another daemon on this PostgreSQL database enqueued (or unblocked) a job: claim now, not at the next poll
    if (this.config.workers.notify) this.stopNotified = this.db.notifications.on('jobs', this.onEnqueued);
    const tick = () => {
      void this.poll().finally(() => {
        if (this.running) this.timer = setTimeout(tick, this.config.workers.pollIntervalMs);
      });
    };
    tick();
  }

  /** Stops claiming, aborts running stages after `graceMs`, and waits for the jobs in hand. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.queue.events.off('enqueued', this.onEnqueued);
    this.stopNotified?.();
    clearTimeout(this.timer);
    const abortTimer = setTimeout(() => this.stopController.abort(new Error('engine stopping')), graceMs);
    await this.pq.onIdle();
    clearTimeout(abortTimer);
  }

  /** Claims as many jobs as there are free workers and starts them. */
  async poll(): Promise<void> {
    if (!this.running) return;
    // a wake-up while a poll is under way is not dropped: that poll claims once more before it ends
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        await this.claimAll();
      } while (this.pollAgain && this.running);
    } finally {
      this.polling = false;
    }
  }

  /** Claims as many jobs as there are free workers and starts them (one poll's work). */
  private async claimAll(): Promise<void> {
    try {
      for (;;) {
        const free = this.config.workers.concurrency - this.pq.size - this.pq.pending;
        if (free <= 0) break;
        const seen = this.enqueues;
        const jobs = await this.queue.claim(this.owner, free, this.config.workers.leaseMs);
        this.lastPollAt = Date.now();
        for (const job of jobs) void this.pq.add(() => this.runJob(job));
        this.drained = jobs.length < free && seen === this.enqueues;
        if (jobs.length < free) break;
      }
    } catch (e) {
      this.log.error({ err: e, code: 'QUEUE_POLL_FAILED' }, 'claiming jobs failed');
    }
  }

  private async runJob(job: ClaimedJob): Promise<void> {
    const log = this.log.child({ entryId: job.entryId, jobId: job.id, attempt: job.attempts });
    const leaseTimer = setInterval(
      () => {
        void this.queue.renew(job.id, this.owner, this.config.workers.leaseMs).catch(() => undefined);
      },
      Math.max(500, Math.floor(this.config.workers.leaseMs / 3)),
    );
    let successor = true;
    try {
      successor = await this.runStages(job, log);
    } catch (e) {
      if (e instanceof JobGone) log.info({ code: 'JOB_GONE' }, e.message);
      else await this.handleFailure(job, e, log);
    } finally {
      clearInterval(leaseTimer);
      // a finished job may unblock a queued one of the same entry, or free a worker for a job the last claim left
      if (this.running && (successor || !this.drained)) setImmediate(() => void this.poll());
    }
  }

  private async loadOrGone(job: ClaimedJob): Promise<StoredEntry> {
    const found = await this.store.load(job.orgId, job.entryId);
    if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
    return found;
  }

  /**
   * Runs the job's stages; true when the entry has another job queued (the
   * job that ends here may have kept it from running).
   *
   * The entry goes from one stage to the next as the last checkpoint wrote it
   * (with the version written): nothing is read again unless someone else
   * wrote it meanwhile, which the next checkpoint notices by the version. A
   * checkpoint also looks at the stages after it: it moves job_status to the
   * next applicable stage's phase (so clients see the phase before the stage
   * runs, as before), or, when no stage is left, completes the job, in the
   * same transaction.
   */
  private async runStages(job: ClaimedJob, log: Logger): Promise<boolean> {
    const org = await this.orgs.byId(job.orgId);
    if (!org) throw new JobGone(`organization ${job.orgId} no longer exists`);
    const done = new Set(job.stagesDone);
    const startedAt = Date.now();
    /**
     * The entry as last read or written here. Carried from a checkpoint to the
     * next stage unread: a write by someone else meanwhile (a PATCH, say) is
     * like one made while that stage runs, which its checkpoint notices by
     * the version and merges (or runs the stage again).
     */
    let held: StoredEntry | null = null;
    /** From the last checkpoint: the stages before this one do not apply, this one does (its phase is shown). */
    let next: number | undefined;
    for (let i = 0; i < this.stages.length; i++) {
      const stage = this.stages[i]!;
      if (done.has(stage.name)) continue;
      if (next !== undefined && i < next) continue;
      if (i !== next) {
        held ??= await this.loadOrGone(job);
        if (!stage.appliesTo(held.entry, job.input)) continue;
        if (JOB_PHASE_ORDER[stage.phase] > JOB_PHASE_ORDER[held.entry.job_status]) {
          held = await this.moveStatus(job, stage.phase, stage.name, done.size === 0 ? startedAt : undefined);
        }
      }
      const r = await this.runStage(stage, i, job, org, log, held, done, startedAt);
      done.add(stage.name);
      if (r.ahead.complete) {
        log.info({ code: 'JOB_COMPLETE' }, 'job finished');
        return r.ahead.nextQueued;
      }
      if (r.ahead.error) throw r.ahead.error.thrown;
      held = r.held;
      next = r.ahead.next;
    }
    const nextQueued = await this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
      const entry = found.entry;
      const queued = await this.complete(m, job, entry, startedAt);
      await this.store.save(m, job.orgId, entry);
      if (!(await this.queue.finish(m, job.id, this.owner))) throw new JobGone('lease lost before finishing');
      return queued;
    });
    log.info({ code: 'JOB_COMPLETE' }, 'job finished');
    return nextQueued;
  }

  /** Ends the job on `entry` (in the transaction `m`; the caller saves it and removes the job); true when another job of the entry is queued. */
  private async complete(m: EntityManager, job: ClaimedJob, entry: TitleEntry, startedAt: number): Promise<boolean> {
    const next = await this.queue.queuedFor(job.entryId, m);
    // a request queued another job meanwhile: show the status it set, not complete
    await this.store.setJobStatus(m, job.orgId, entry, next ? next.initialStatus : 'complete', { jobId: job.id });
    if (typeof entry.processingStartTime !== 'number') entry.processingStartTime = startedAt;
    entry.processingTimeMs = Date.now() - (entry.processingStartTime as number);
    delete entry.job_error;
    return next !== null;
  }

  /** The first stage after `index` not in `done` whose `appliesTo` holds for `entry` (or throws), or null when none does. */
  private lookAhead(
    index: number,
    done: ReadonlySet<string>,
    entry: Readonly<TitleEntry>,
    job: ClaimedJob,
  ): { next: number; error?: { thrown: unknown } } | null {
    for (let j = index + 1; j < this.stages.length; j++) {
      const stage = this.stages[j]!;
      if (done.has(stage.name)) continue;
      try {
        if (stage.appliesTo(entry, job.input)) return { next: j };
      } catch (e) {
        return { next: j, error: { thrown: e } };
      }
    }
    return null;
  }

  /**
   * Runs one stage on a draft of the entry and checkpoints it (the one stage
   * executor, execute.ts). The checkpoint also asks the stages after this one
   * whether they apply, and moves job_status or completes the job, in the
   * same transaction. `held` is the entry as last read or written (null: read it).
   */
  private async runStage(
    stage: StagePlugin,
    index: number,
    job: ClaimedJob,
    org: NonNullable<Awaited<ReturnType<Organizations['byId']>>>,
    log: Logger,
    held: StoredEntry | null,
    done: ReadonlySet<string>,
    startedAt: number,
  ): Promise<{ held: StoredEntry; ahead: Ahead }> {
    const stageLog = log.child({ stage: stage.name });
    let first = held;
    const gone: () => never = () => {
      throw new JobGone(`entry ${job.entryId} was deleted`);
    };
    const io: CheckpointIO<{ held: StoredEntry; ahead: Ahead }> = {
      read: async () => {
        const b = first ?? (await this.loadOrGone(job));
        first = null;
        return b;
      },
      tx: (fn) => this.db.tx(fn),
      versionOf: (m) => this.store.versionOf(job.orgId, job.entryId, m),
      load: (m) => this.store.load(job.orgId, job.entryId, m),
      gone,
      commit: (m, target, events) => this.checkpoint(m, stage, index, job, target, events, done, startedAt),
    };
    const timer = this.container.resolve(Metrics).stageDuration.startTimer({ stage: stage.name });
    let outcome = 'error';
    try {
      const r = await this.runStageTimed(stage, io, job, org, stageLog);
      outcome = 'ok';
      return r;
    } finally {
      timer({ outcome });
    }
  }

  private async runStageTimed(
    stage: StagePlugin,
    io: CheckpointIO<{ held: StoredEntry; ahead: Ahead }>,
    job: ClaimedJob,
    org: NonNullable<Awaited<ReturnType<Organizations['byId']>>>,
    stageLog: Logger,
  ): Promise<{ held: StoredEntry; ahead: Ahead }> {
    const gone = io.gone;
    const { result, changed } = await runToCheckpoint(stage, 'run', io, {
      parts: (snapshot) => ({
        job: job.input,
        jobId: job.id,
        attempt: job.attempts,
        org,
        config: this.config,
        options: this.config.plugins[stage.name],
        log: stageLog,
        objects: new EntryObjects(this.objects, snapshot.storeIndex),
        container: this.container,
      }),
      timeoutMs: stage.timeoutMs ?? this.config.stageTimeoutMs,
      stopSignal: this.stopController.signal,
      maxReplays: MAX_STAGE_REPLAYS,
      // a stage's progress (ctx.progress) is written now; the version it wrote is the checkpoint's "mine" when nobody else wrote
      progress: async (patch, version) => {
        let mine = version;
        await this.db.tx(async (m) => {
          const current = await this.store.load(job.orgId, job.entryId, m);
          if (!current) return gone();
          Object.assign(current.entry, patch);
          const written = await this.store.write(m, job.orgId, current.entry);
          if (current.version === version) mine = written.version;
        });
        return mine;
      },
      failed: (e) => new StageError(stage.name, job.entryId, e, !(e instanceof PermanentStageFailure)),
      onReplay: () => stageLog.info({ code: 'STAGE_REPLAY' }, 'entry changed meanwhile; running the stage again'),
    });
    stageLog.debug({ code: 'STAGE_DONE', changed }, 'stage done');
    return result;
  }

  /** A stage's checkpoint, in its transaction: the events, the look ahead, the entry, and the job's progress. */
  private async checkpoint(
    m: EntityManager,
    stage: StagePlugin,
    index: number,
    job: ClaimedJob,
    target: TitleEntry,
    events: StageEvent[],
    done: ReadonlySet<string>,
    startedAt: number,
  ): Promise<{ held: StoredEntry; ahead: Ahead }> {
    for (const ev of events) {
      await this.outbox.append(m, {
        orgId: job.orgId,
        entryId: job.entryId,
        name: ev.name,
        payload: { stage: stage.name, jobId: job.id, ...ev.payload },
      });
    }
    // the entry as a reload would show it: the stages after this one are asked about it
    const entry = reloaded(target);
    const found = this.lookAhead(index, new Set(done).add(stage.name), entry, job);
    let ahead: Ahead;
    if (!found) {
      ahead = { complete: true, nextQueued: await this.complete(m, job, entry, startedAt) };
    } else {
      const next = this.stages[found.next]!;
      if (!found.error && JOB_PHASE_ORDER[next.phase] > JOB_PHASE_ORDER[entry.job_status]) {
        await this.store.setJobStatus(m, job.orgId, entry, next.phase, { stage: next.name });
      }
      ahead = { complete: false, ...found };
    }
    const written = await this.store.write(m, job.orgId, entry);
    if (ahead.complete) {
      if (!(await this.queue.finish(m, job.id, this.owner))) throw new JobGone('lease lost before finishing');
    } else if (!(await this.queue.checkpoint(m, job.id, this.owner, [...job.stagesDone, stage.name]))) {
      throw new JobGone('lease lost to another worker');
    }
    job.stagesDone = [...job.stagesDone, stage.name];
    return { held: written, ahead };
  }

  /** Moves job_status forward to a stage's phase, in its own transaction, so clients see it while the stage runs; returns the entry written. */
  private async moveStatus(
    job: ClaimedJob,
    status: TitleEntry['job_status'],
    stage: string,
    processingStartTime?: number,
  ): Promise<StoredEntry> {
    return this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
      // forward only: a request may have set the status meanwhile (enriching, say), after the caller looked
      if (JOB_PHASE_ORDER[status] > JOB_PHASE_ORDER[found.entry.job_status])
        await this.store.setJobStatus(m, job.orgId, found.entry, status, { stage });
      if (processingStartTime) found.entry.processingStartTime = processingStartTime;
      return this.store.write(m, job.orgId, found.entry);
    });
  }

  private async handleFailure(job: ClaimedJob, e: unknown, log: Logger): Promise<void> {
    const stage = e instanceof StageError ? e.stage : e instanceof PluginError ? e.plugin : undefined;
    const hook = e instanceof StageError ? 'run' : e instanceof PluginError ? e.hook : undefined;
    const retryable = !(e instanceof StageError) || e.retryable;
    const message = e instanceof Error ? e.message : String(e);
    if (retryable && job.attempts < this.config.workers.maxAttempts) {
      const base = this.config.workers.retryBaseMs * 2 ** (job.attempts - 1);
      const delay = Math.round(base / 2 + (Math.random() * base) / 2);
      log.warn(
        { code: 'STAGE_FAILED_RETRY', stage, hook, err: e, retryInMs: delay },
        'stage failed; job will be retried',
      );
      await this.queue.retry(job.id, this.owner, message, Date.now() + delay);
      setTimeout(() => void this.poll(), delay + 5).unref();
      return;
    }
    log.error({ code: 'JOB_FAILED', stage, hook, err: e }, 'job failed for good');
    await this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) return;
      const entry = found.entry;
      this.stages.find((x) => x.name === stage)?.abandoned?.(entry);
      await this.store.setJobStatus(m, job.orgId, entry, 'error', { stage, jobId: job.id });
      entry.job_error = { stage: stage ?? null, message, attempts: job.attempts, at: new Date().toISOString() };
      // a request queued another job meanwhile: it runs next, so show the status it set (after the error event)
      const next = await this.queue.queuedFor(job.entryId, m);
      if (next) await this.store.setJobStatus(m, job.orgId, entry, next.initialStatus, { jobId: next.id });
      await this.store.save(m, job.orgId, entry);
      await this.queue.fail(m, job.id, this.owner, message);
    });
  }
}

/** An AbortController whose signal takes any number of listeners (node warns of a leak past 10 by default). */
function unlimited(c: AbortController): AbortController {
  setMaxListeners(0, c.signal);
  return c;
}
