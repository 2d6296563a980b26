import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import PQueue from 'p-queue';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { Organizations } from '../auth/organizations.js';
import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { PermanentStageFailure, StageError } from '../errors.js';
import type { ClaimedJob, JobQueue } from '../jobs/job-queue.js';
import { changedKeys, clone } from '../merge.js';
import type { TitleEntry } from '../model/entry.js';
import { JOB_PHASE_ORDER } from '../status.js';
import { moveStatus, type EntryStore } from '../store/entry-store.js';
import type { Outbox } from '../store/outbox.js';
import { EntryObjects, type ObjectStore } from '../storage/object-store.js';
import type { StagePlugin } from './stage.js';

/** The job was taken over by another worker (its lease expired) or its entry was deleted: stop quietly. */
class JobGone extends Error {}

const MAX_STAGE_REPLAYS = 3;

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
  private readonly stopController = new AbortController();
  private readonly onEnqueued = () => void this.poll();
  private lastPollAt = 0;

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
    clearTimeout(this.timer);
    const abortTimer = setTimeout(() => this.stopController.abort(new Error('engine stopping')), graceMs);
    await this.pq.onIdle();
    clearTimeout(abortTimer);
  }

  /** Claims as many jobs as there are free workers and starts them. */
  async poll(): Promise<void> {
    if (!this.running || this.polling) return;
    this.polling = true;
    try {
      for (;;) {
        const free = this.config.workers.concurrency - this.pq.size - this.pq.pending;
        if (free <= 0) break;
        const jobs = await this.queue.claim(this.owner, free, this.config.workers.leaseMs);
        this.lastPollAt = Date.now();
        for (const job of jobs) void this.pq.add(() => this.runJob(job));
        if (jobs.length < free) break;
      }
    } catch (e) {
      this.log.error({ err: e, code: 'QUEUE_POLL_FAILED' }, 'claiming jobs failed');
    } finally {
      this.polling = false;
    }
  }

  private async runJob(job: ClaimedJob): Promise<void> {
    const log = this.log.child({ entryId: job.entryId, jobId: job.id, attempt: job.attempts });
    const leaseTimer = setInterval(() => {
      void this.queue.renew(job.id, this.owner, this.config.workers.leaseMs).catch(() => undefined);
    }, Math.max(500, Math.floor(this.config.workers.leaseMs / 3)));
    try {
      await this.runStages(job, log);
    } catch (e) {
      if (e instanceof JobGone) log.info({ code: 'JOB_GONE' }, e.message);
      else await this.handleFailure(job, e, log);
    } finally {
      clearInterval(leaseTimer);
      // a finished job may unblock a queued one of the same entry
      if (this.running) setImmediate(() => void this.poll());
    }
  }

  private async loadOrGone(job: ClaimedJob) {
    const found = await this.store.load(job.orgId, job.entryId);
    if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
    return found;
  }

  private async runStages(job: ClaimedJob, log: Logger): Promise<void> {
    const org = await this.orgs.byId(job.orgId);
    if (!org) throw new JobGone(`organization ${job.orgId} no longer exists`);
    const done = new Set(job.stagesDone);
    const startedAt = Date.now();
    for (const stage of this.stages) {
      if (done.has(stage.name)) continue;
      const { entry } = await this.loadOrGone(job);
      if (!stage.appliesTo(entry, job.input)) continue;
      if (JOB_PHASE_ORDER[stage.phase] > JOB_PHASE_ORDER[entry.job_status]) {
        await this.moveStatus(job, stage.phase, stage.name, done.size === 0 ? startedAt : undefined);
      }
      await this.runStage(stage, job, org, log);
      done.add(stage.name);
    }
    await this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
      const entry = found.entry;
      const next = await this.queue.queuedFor(job.entryId, m);
      // a request queued another job meanwhile: show the status it set, not complete
      await this.store.setJobStatus(m, job.orgId, entry, next ? next.initialStatus : 'complete', { jobId: job.id });
      if (typeof entry.processingStartTime !== 'number') entry.processingStartTime = startedAt;
      entry.processingTimeMs = Date.now() - (entry.processingStartTime as number);
      delete entry.job_error;
      await this.store.save(m, job.orgId, entry);
      if (!(await this.queue.finish(m, job.id, this.owner))) throw new JobGone('lease lost before finishing');
    });
    log.info({ code: 'JOB_COMPLETE' }, 'job finished');
  }

  /**
   * Runs one stage on a draft of the entry and checkpoints it. If someone else
   * changed the same top-level members meanwhile (a PATCH, say), the stage
   * runs again on the fresh entry; changes to other members are kept.
   */
  private async runStage(stage: StagePlugin, job: ClaimedJob, org: NonNullable<Awaited<ReturnType<Organizations['byId']>>>, log: Logger): Promise<void> {
    for (let replay = 0; ; replay++) {
      const { entry: snapshot, version } = await this.loadOrGone(job);
      const draft = clone(snapshot);
      const events: { name: string; payload?: Record<string, unknown> }[] = [];
      const stageLog = log.child({ stage: stage.name });
      const timeoutMs = stage.timeoutMs ?? this.config.stageTimeoutMs;
      const controller = new AbortController();
      const onStop = () => controller.abort(this.stopController.signal.reason);
      this.stopController.signal.addEventListener('abort', onStop);
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          stage.run({
            entry: draft, job: job.input, jobId: job.id, attempt: job.attempts, org, config: this.config,
            options: this.config.plugins[stage.name], log: stageLog, signal: controller.signal,
            objects: new EntryObjects(this.objects, snapshot.storeIndex), container: this.container,
            emit: (name, payload) => void events.push({ name, payload }),
            setStatus: (field, to, payload) => {
              const event = moveStatus(draft, field, to, payload);
              if (event) events.push(event);
            },
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const err = new Error(`timed out after ${timeoutMs} ms`);
              controller.abort(err);
              reject(err);
            }, timeoutMs);
          }),
        ]);
      } catch (e) {
        throw new StageError(stage.name, job.entryId, e, !(e instanceof PermanentStageFailure));
      } finally {
        clearTimeout(timer);
        this.stopController.signal.removeEventListener('abort', onStop);
      }
      const mine = changedKeys(snapshot, draft);
      const saved = await this.db.tx(async (m) => {
        const current = await this.store.load(job.orgId, job.entryId, m);
        if (!current) throw new JobGone(`entry ${job.entryId} was deleted`);
        let target = draft;
        if (current.version !== version) {
          const theirs = changedKeys(snapshot, current.entry);
          if (theirs.some((k) => mine.includes(k)) && replay < MAX_STAGE_REPLAYS) return false;
          target = current.entry;
          for (const k of mine) {
            if (k in draft) target[k] = draft[k];
            else delete target[k];
          }
        }
        await this.store.save(m, job.orgId, target);
        for (const ev of events) await this.outbox.append(m, { orgId: job.orgId, entryId: job.entryId, name: ev.name, payload: { stage: stage.name, jobId: job.id, ...ev.payload } });
        if (!(await this.queue.checkpoint(m, job.id, this.owner, [...job.stagesDone, stage.name]))) throw new JobGone('lease lost to another worker');
        job.stagesDone = [...job.stagesDone, stage.name];
        return true;
      });
      if (saved) {
        stageLog.debug({ code: 'STAGE_DONE', changed: mine }, 'stage done');
        return;
      }
      stageLog.info({ code: 'STAGE_REPLAY' }, 'entry changed meanwhile; running the stage again');
    }
  }

  /** Moves job_status forward to a stage's phase, in its own transaction, so clients see it while the stage runs. */
  private async moveStatus(job: ClaimedJob, status: TitleEntry['job_status'], stage: string, processingStartTime?: number): Promise<void> {
    await this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) throw new JobGone(`entry ${job.entryId} was deleted`);
      // forward only: a request may have set the status meanwhile (enriching, say), after the caller looked
      if (JOB_PHASE_ORDER[status] > JOB_PHASE_ORDER[found.entry.job_status]) await this.store.setJobStatus(m, job.orgId, found.entry, status, { stage });
      if (processingStartTime) found.entry.processingStartTime = processingStartTime;
      await this.store.save(m, job.orgId, found.entry);
    });
  }

  private async handleFailure(job: ClaimedJob, e: unknown, log: Logger): Promise<void> {
    const stage = e instanceof StageError ? e.stage : undefined;
    const retryable = !(e instanceof StageError) || e.retryable;
    const message = e instanceof Error ? e.message : String(e);
    if (retryable && job.attempts < this.config.workers.maxAttempts) {
      const base = this.config.workers.retryBaseMs * 2 ** (job.attempts - 1);
      const delay = Math.round(base / 2 + Math.random() * base / 2);
      log.warn({ code: 'STAGE_FAILED_RETRY', stage, err: e, retryInMs: delay }, 'stage failed; job will be retried');
      await this.queue.retry(job.id, this.owner, message, Date.now() + delay);
      setTimeout(() => void this.poll(), delay + 5).unref();
      return;
    }
    log.error({ code: 'JOB_FAILED', stage, err: e }, 'job failed for good');
    await this.db.tx(async (m) => {
      const found = await this.store.load(job.orgId, job.entryId, m);
      if (!found) return;
      const entry = found.entry;
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
