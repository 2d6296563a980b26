import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { EnginePlugin } from '../pipeline/stage.js';

export type Retention = Readonly<TitledConfig['retention']>;

const DAY = 24 * 3600_000;

/**
 * Deletes the rows of `table` whose `id` the query `selectIds` (with `params`;
 * it may join other tables) returns, `batchSize` per statement, until none is
 * left; answers how many went. Each batch is its own short statement, so a
 * large backlog never holds a long lock (SQLite: writers take turns between batches).
 */
export async function deleteInBatches(
  db: Database,
  table: string,
  selectIds: string,
  params: unknown[],
  batchSize: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { affected } = await db.exec(`DELETE FROM ${table} WHERE id IN (${selectIds} LIMIT ?)`, [
      ...params,
      batchSize,
    ]);
    total += affected;
    if (affected < batchSize) return total;
  }
}

/**
 * The pruning loop (config `retention`): every `intervalMs` it removes the
 * outbox rows, failed jobs and (through the plugins' `prune` hooks) webhook
 * deliveries and their attempts whose retention ran out. Finished jobs are
 * deleted as they finish; failed ones are kept `jobsMs` for inspection.
 * Outbox rows go `outboxMs` after they were dispatched; rows never
 * dispatched (no webhook plugin reads them) go `outboxMs`, but at least one
 * day, after they were written: a dispatcher holds a job's events only while
 * the job runs. Several daemons
 * may prune at once: deleting a row twice is harmless.
 */
export class Pruner {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly db: Database,
    private readonly retention: Retention,
    private readonly plugins: () => readonly EnginePlugin[],
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.retention.intervalMs <= 0 || this.timer) return;
    const tick = () => {
      this.running = this.pruneNow().catch((e) =>
        this.log.error({ err: e, code: 'PRUNE_FAILED' }, 'pruning failed; will retry'),
      );
      void this.running.finally(() => {
        if (this.timer) this.timer = setTimeout(tick, this.retention.intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, Math.min(this.retention.intervalMs, 5000)).unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass (the loop's work; tests and the CLI call it): rows removed, by table. */
  async pruneNow(now = Date.now()): Promise<Record<string, number>> {
    const r = this.retention;
    const removed: Record<string, number> = {
      outbox: await deleteInBatches(
        this.db,
        'outbox',
        'SELECT id FROM outbox WHERE ("dispatchedAt" IS NOT NULL AND "dispatchedAt" < ?)' +
          ' OR ("dispatchedAt" IS NULL AND "createdAt" < ?)',
        [now - r.outboxMs, now - Math.max(r.outboxMs, DAY)],
        r.batchSize,
      ),
      jobs: await deleteInBatches(
        this.db,
        'jobs',
        `SELECT id FROM jobs WHERE status = 'failed' AND "updatedAt" < ?`,
        [now - r.jobsMs],
        r.batchSize,
      ),
    };
    for (const p of this.plugins()) {
      if (p.prune) Object.assign(removed, await p.prune(r, now));
    }
    const total = Object.values(removed).reduce((a, b) => a + b, 0);
    if (total) this.log.info({ code: 'PRUNED', removed }, 'old rows pruned');
    return removed;
  }
}
