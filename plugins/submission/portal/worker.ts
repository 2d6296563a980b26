/**
 * The portal worker: claims due ONLINE_PORTAL submissions with a lease and
 * drives each in its own browser context (bounded concurrency, one browser).
 * Every completed step goes to the submission's ledger before the next one,
 * so a retry (after a crash, a lost answer or a lease expiry) resumes where it
 * stopped and never files twice: once `submit` has started, a retry first
 * looks the application up by our reference. Also records `lien_delay` for
 * reviews that take longer than `lienDelayAfterMs` (every method).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TitledError, type Database, type Logger } from '../../../core/plugin-api.js';
import type { Lifecycle } from '../lifecycle.js';
import { fromRow, type Submission } from '../model.js';
import type { SubmissionOptions } from '../options.js';
import type { BrowserPool } from './browser.js';
import { PortalBlocked, type FilingData, type PortalDocument, type PortalDriver } from './driver.js';

/** What the worker needs from the plugin: the driver and the data of a submission, and storage. */
export interface WorkerHost {
  driverFor(s: Submission): PortalDriver | undefined;
  /** The filing's facts, its documents written as files under `dir` (the step's folder). */
  filingData(s: Submission, dir: string): Promise<FilingData>;
  /** A follow-up round's documents, written as files under `dir`. */
  roundDocuments(s: Submission, roundId: string, dir: string): Promise<PortalDocument[]>;
  storeScreenshot(s: Submission, png: Buffer): Promise<string>;
}

interface Ledger {
  /** How long each step of the filing took, ms (operations' view of a slow portal). */
  timings?: Record<string, number>;
  reviewed?: string;
  submitStartedAt?: string;
  submitted?: { applicationNumber: string; at: string; recovered?: boolean };
  rounds?: Record<string, string>;
}

export class PortalWorker {
  private timer?: NodeJS.Timeout;
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  private ticking = false;

  constructor(
    private readonly db: Database,
    private readonly life: Lifecycle,
    private readonly o: SubmissionOptions,
    private readonly browsers: BrowserPool,
    private readonly host: WorkerHost,
    private readonly log: Logger,
    private readonly owner: string,
  ) {}

  start(): void {
    this.stopping = false;
    this.schedule(0);
    this.log.info(
      { code: 'SUBMISSION_WORKER_STARTED', concurrency: this.o.concurrency, chromium: this.browsers.executablePath },
      'submission worker started',
    );
  }

  wake(): void {
    if (!this.stopping) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.running]);
    await this.browsers.close();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  /** One look for work: lien delays, then as many due portal submissions as there are free slots. */
  async tick(): Promise<void> {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    try {
      await this.lienDelays();
      const free = this.o.concurrency - this.running.size;
      for (const s of free > 0 ? await this.claim(free) : []) {
        const p = this.run(s).finally(() => {
          this.running.delete(p);
          this.wake();
        });
        this.running.add(p);
      }
    } catch (e) {
      this.log.warn({ err: e, code: 'SUBMISSION_STEP_FAILED' }, 'submission worker poll failed');
    } finally {
      this.ticking = false;
      if (!this.stopping) this.schedule(this.o.pollIntervalMs);
    }
  }

  private async claim(n: number): Promise<Submission[]> {
    const now = Date.now();
    const due = await this.db.query<Record<string, unknown>>(
      `SELECT * FROM submissions WHERE method = 'ONLINE_PORTAL' AND status IN ('PENDING', 'SUBMITTED', 'UNDER_REVIEW')
       AND "nextAttemptAt" <= ? AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
       ORDER BY "nextAttemptAt" LIMIT ?`,
      [now, now, n],
    );
    const out: Submission[] = [];
    for (const r of due) {
      const res = await this.db.exec(
        'UPDATE submissions SET "leaseOwner" = ?, "leaseExpiresAt" = ? ' +
          'WHERE id = ? AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)',
        [this.owner, now + this.o.leaseMs, r.id, now],
      );
      if (res.affected) out.push({ ...fromRow(r), leaseOwner: this.owner, leaseExpiresAt: now + this.o.leaseMs });
    }
    return out;
  }

  private async release(id: string, patch: { nextAttemptAt: number; attempts?: number }): Promise<void> {
    const sets = ['"leaseOwner" = NULL', '"leaseExpiresAt" = NULL', '"nextAttemptAt" = ?'];
    const params: unknown[] = [patch.nextAttemptAt];
    if (patch.attempts !== undefined) {
      sets.push('attempts = ?');
      params.push(patch.attempts);
    }
    await this.db.exec(`UPDATE submissions SET ${sets.join(', ')} WHERE id = ? AND "leaseOwner" = ?`, [
      ...params,
      id,
      this.owner,
    ]);
  }

  /** Drives one claimed submission one step (file, or upload follow-ups and check the status). */
  private async run(claimed: Submission): Promise<void> {
    const driver = this.host.driverFor(claimed);
    const ctx = driver
      ? await this.browsers.context().catch((e: Error) => e)
      : new PortalBlocked('no portal is configured for this state');
    let dir: string | undefined;
    try {
      if (ctx instanceof Error) throw ctx;
      const page = await ctx.newPage();
      dir = await stepFolder();
      // one step per claim: filing, or (from the next claim on, statusPollMs later) follow-ups and a status check
      if (claimed.status === 'PENDING') await this.file(claimed, driver!, page, dir);
      else await this.follow(claimed, driver!, page, dir);
      await this.release(claimed.id, { nextAttemptAt: Date.now() + this.o.statusPollMs, attempts: 0 });
    } catch (e) {
      await this.failed(claimed, e as Error);
    } finally {
      if (!(ctx instanceof Error)) await ctx.close().catch(() => undefined);
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Dry run for an operator: prepare, fill and review in a context of its own, then close it: nothing is filed. */
  async dryRun(s: Submission): Promise<Record<string, string>> {
    const driver = this.host.driverFor(s);
    if (!driver) throw new TitledError('CONFLICT', "no online portal is configured for the entry's state");
    const ctx = await this.browsers.context();
    const dir = await stepFolder();
    try {
      const page = await ctx.newPage();
      const data = driver.prepare(await this.host.filingData(s, dir));
      await driver.fill(page, data);
      return await driver.review(page, data);
    } catch (e) {
      if (e instanceof PortalBlocked) throw new TitledError('CONFLICT', `dry run stopped: ${e.message}`);
      throw new TitledError('UNAVAILABLE', `dry run failed: ${(e as Error).message}`);
    } finally {
      await ctx.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  private async failed(claimed: Submission, e: Error): Promise<void> {
    const s = (await this.life.rows.get(claimed.id)) ?? claimed;
    const attempts = s.attempts + 1;
    const final = e instanceof PortalBlocked || attempts >= this.o.maxAttempts;
    this.log.warn(
      {
        code: 'SUBMISSION_STEP_FAILED',
        submissionId: s.id,
        entryId: s.entryId,
        attempt: attempts,
        final,
        error: e.message,
      },
      'portal step failed',
    );
    if (final && ['PENDING', 'SUBMITTED', 'UNDER_REVIEW'].includes(s.status)) {
      await this.life
        .move(s, 'ERROR', { by: 'worker', note: `after ${attempts} tries`, patch: { error: e.message, attempts } })
        .catch(() => undefined);
      await this.release(s.id, { nextAttemptAt: Date.now() });
      return;
    }
    await this.release(s.id, { nextAttemptAt: Date.now() + this.o.retryBaseMs * 2 ** (attempts - 1), attempts });
  }

  private async saveLedger(s: Submission, ledger: Ledger): Promise<Submission> {
    return this.life.patch(s, { ledger: ledger as Record<string, unknown> });
  }

  /** prepare -> fill -> review -> submit, each recorded; a started submit is looked up before it is tried again. */
  private async file(s0: Submission, driver: PortalDriver, page: Page, dir: string): Promise<Submission> {
    let s = s0;
    const ledger = { ...s.ledger } as Ledger;
    const timings: Record<string, number> = {};
    let mark = Date.now();
    const lap = (step: string) => {
      const now = Date.now();
      timings[step] = now - mark;
      mark = now;
    };
    const data = driver.prepare(await this.host.filingData(s, dir));
    lap('prepare');
    let confirmation: { applicationNumber: string; screenshot: Buffer } | null = null;
    if (ledger.submitStartedAt) {
      confirmation = await driver.find(page, data);
      if (confirmation)
        ledger.submitted = {
          applicationNumber: confirmation.applicationNumber,
          at: new Date().toISOString(),
          recovered: true,
        };
    }
    if (!confirmation) {
      await driver.fill(page, data);
      lap('fill');
      await driver.review(page, data);
      lap('review');
      ledger.reviewed = new Date().toISOString();
      ledger.submitStartedAt = new Date().toISOString();
      s = await this.saveLedger(s, ledger);
      lap('ledger');
      confirmation = await driver.submit(page, data);
      lap('submit');
      ledger.submitted = { applicationNumber: confirmation.applicationNumber, at: new Date().toISOString() };
    }
    ledger.timings = timings;
    s = await this.saveLedger(s, ledger);
    const key = await this.host.storeScreenshot(s, confirmation.screenshot);
    return this.life.move(s, 'SUBMITTED', {
      by: 'worker',
      note: ledger.submitted?.recovered ? 'found by reference after a lost answer' : undefined,
      patch: { applicationNumber: confirmation.applicationNumber, confirmationKey: key, attempts: 0 },
    });
  }

  /** Sends follow-up rounds not yet sent, then reads the application's status and moves the submission to it. */
  private async follow(s0: Submission, driver: PortalDriver, page: Page, dir: string): Promise<void> {
    let s = s0;
    const no = s.applicationNumber!;
    const ledger = { ...s.ledger, rounds: { ...(s.ledger as Ledger).rounds } } as Ledger & {
      rounds: Record<string, string>;
    };
    for (const r of s.rounds.filter((x) => !x.sentAt && !ledger.rounds[x.roundId])) {
      await driver.uploadFollowUp(page, no, await this.host.roundDocuments(s, r.roundId, join(dir, r.roundId)));
      ledger.rounds[r.roundId] = new Date().toISOString();
      const rounds = s.rounds.map((x) => (x.roundId === r.roundId ? { ...x, sentAt: ledger.rounds[r.roundId]! } : x));
      s = await this.life.patch(s, { ledger: ledger as unknown as Record<string, unknown>, rounds });
    }
    const report = await driver.poll(page, no);
    if (report.status === s.status) return;
    if (report.status === 'SUBMITTED') return; // received, not yet reviewed
    await this.life.move(s, report.status, {
      by: 'worker',
      perfected: report.status === 'ACCEPTED',
      patch: {
        feedbackMessage: report.feedbackMessage ?? (report.status === 'ACCEPTED' ? null : s.feedbackMessage),
        ...(report.status === 'REJECTED' ? { error: 'the state rejected the application' } : {}),
      },
    });
  }

  /** UNDER_REVIEW for longer than `lienDelayAfterMs`: account_status lien_delay, once per review. */
  private async lienDelays(): Promise<void> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM submissions WHERE status = \'UNDER_REVIEW\' AND delayed = 0 AND "statusSince" <= ? LIMIT 50',
      [Date.now() - this.o.lienDelayAfterMs],
    );
    for (const r of rows) {
      const s = fromRow(r);
      await this.life
        .account(s, ['lien_delay'], 'UNDER_REVIEW', { delayed: 1 })
        .catch((e: Error) =>
          this.log.warn(
            { code: 'SUBMISSION_STEP_FAILED', submissionId: s.id, error: e.message },
            'lien_delay not recorded',
          ),
        );
    }
  }
}

/** A folder of the step's own for the documents it uploads (removed when the step ends). */
function stepFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'titled-portal-'));
}
