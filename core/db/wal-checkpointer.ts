/**
 * SQLite WAL checkpoints off the event loop (docs/operations.md, "SQLite").
 *
 * With SQLite's automatic checkpoints, every thousandth page written makes
 * the committing statement copy the WAL back into the database file and
 * fsync it, on the daemon's only thread: measured on the create workload
 * (2,200 entries), about 80 of 4,400 commits took 10-20 ms each, 70% of all
 * commit time, about 0.4 ms per created entry during which no request is
 * served. A daemon therefore runs PASSIVE checkpoints (they never block a
 * reader or a writer) from a worker thread with a connection of its own,
 * every 50 ms to 1 s while there is work, about every 1,000 new frames (each
 * checkpoint sorts its WAL segment's whole index, so many small ones cost CPU
 * for nothing), and every second when idle. The connection's
 * own automatic checkpoint stays as a backstop at 4,000 pages (16 MB of WAL):
 * under writes that never pause, a checkpoint from another connection never
 * quite catches up, and the WAL can only start over after one that does;
 * the backstop then copies the few frames left (measured: commit time 1.3 s
 * -> 0.5 s for the same 2,200 entries, WAL at most about 18 MB).
 *
 * A worker thread costs about 16 MB of memory, so it runs only while the
 * daemon writes: the first write starts it, and it ends after 30 s without
 * anything to copy. Without the thread (before the first write, after it
 * ended, or when it failed) the connection has SQLite's default (every 1,000
 * pages).
 */
import { Worker } from 'node:worker_threads';

/** The connection's own automatic checkpoint while the thread runs (pages of WAL). */
const BACKSTOP_PAGES = 4_000;
/** SQLite's default, while no thread runs. */
const DEFAULT_PAGES = 1_000;
const BUSY_INTERVAL_MS = 50;
const IDLE_INTERVAL_MS = 1_000;
const IDLE_AFTER_MS = 30_000;

/**
 * The frames a checkpoint aims to copy. Each checkpoint sorts the page numbers of its WAL segment's whole index (up to
 * 4,096 frames), however few of them are new, so many small checkpoints cost more CPU than fewer larger ones: the
 * interval stretches (up to `idleMs`) while each would copy fewer, and shrinks (down to `busyMs`) under more writes.
 * Measured under callgrind on the intake workload (1,000 entries): 50 ms fixed, 5.73 M instructions per entry
 * (walMerge alone 162 k); 250 ms fixed, 5.55 M; this, 5.43 M.
 */
const TARGET_FRAMES = 1_000;

/**
 * How long the thread waits before its next checkpoint, after one that waited `wait` ms and copied `copied` frames:
 * frames came at about copied / wait, so the next one comes when about TARGET_FRAMES more have (within `busyMs` and
 * `idleMs`); after one that copied nothing, twice as long (at most `idleMs`).
 */
export function nextCheckpointWait(wait: number, copied: number, busyMs: number, idleMs: number): number {
  if (copied <= 0) return Math.min(idleMs, wait * 2);
  return Math.min(idleMs, Math.max(busyMs, Math.round((wait * TARGET_FRAMES) / copied)));
}

export interface CheckpointStats {
  /** Threads started (one per stretch of writes). */
  threads: number;
  /** Checkpoints from a thread that copied frames. */
  checkpoints: number;
  /** Frames copied back into the database file from a thread. */
  frames: number;
}

/** What the checkpointer needs of the daemon's connection. */
export interface WalConnection {
  pragma(s: string): unknown;
}

/** One thread's life: started, reporting, stopped. */
class CheckpointThread {
  private readonly worker: Worker;
  private stopping?: Promise<void>;
  private exited = false;

  constructor(
    file: string,
    on: { checkpoint: (frames: number) => void; idle: () => void; failed: (why: string) => void },
    idleAfterMs: number,
  ) {
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), {
      workerData: { file, busyMs: BUSY_INTERVAL_MS, idleMs: IDLE_INTERVAL_MS, idleAfterMs },
    });
    // the thread keeps no process alive on its own: stop() ends it, and an engine never stopped may still exit
    this.worker.unref();
    this.worker.on('message', (m: { type: string; checkpointed?: number; message?: string }) => {
      if (m.type === 'checkpoint') on.checkpoint(m.checkpointed ?? 0);
      else if (m.type === 'idle') on.idle();
      else if (m.type === 'error') on.failed(`WAL checkpoint failed in its thread: ${m.message}`);
    });
    this.worker.on('error', (e) => on.failed(`WAL checkpoint thread failed: ${e.message}`));
    this.worker.on('exit', () => {
      this.exited = true;
      if (!this.stopping) on.failed('WAL checkpoint thread exited');
    });
  }

  /** A last checkpoint, then the thread ends. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      const done = () => resolve();
      this.worker.once('exit', done);
      this.worker.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') void this.worker.terminate().then(done, done);
      });
      this.worker.postMessage('stop');
    });
    return this.stopping;
  }
}

export class WalCheckpointer {
  readonly stats: CheckpointStats = { threads: 0, checkpoints: 0, frames: 0 };
  private thread?: CheckpointThread;
  private readonly ending = new Set<Promise<void>>();
  /** A thread failed: checkpoints stay on the connection from then on. */
  private failed = false;
  private closed = false;

  /**
   * @param file the SQLite database file
   * @param conn the daemon's connection: its automatic checkpoints are the backstop while a thread runs
   * @param warn logs why checkpoints went back to the connection for good
   */
  constructor(
    private readonly file: string,
    private readonly conn: WalConnection,
    private readonly warn: (msg: string) => void,
    private readonly idleAfterMs = IDLE_AFTER_MS,
  ) {}

  /** Whether a thread runs now. */
  get running(): boolean {
    return this.thread !== undefined;
  }

  /** A write is coming: starts a thread unless one runs (cheap when one does). */
  writing(): void {
    if (this.thread || this.failed || this.closed) return;
    this.stats.threads++;
    const thread: CheckpointThread = new CheckpointThread(
      this.file,
      {
        checkpoint: (frames) => {
          this.stats.checkpoints++;
          this.stats.frames += frames;
        },
        idle: () => {
          if (this.thread === thread) this.end(thread);
        },
        failed: (why) => {
          if (this.thread !== thread || this.failed) return;
          this.failed = true;
          this.end(thread);
          this.warn(`${why}; automatic checkpoints are back on the daemon's connection`);
        },
      },
      this.idleAfterMs,
    );
    this.thread = thread;
    this.conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** The connection's checkpoints back to the default, then the thread ends (in the background). */
  private end(thread: CheckpointThread): void {
    this.thread = undefined;
    try {
      this.conn.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    } catch {
      // the connection is closed already
    }
    const p = thread.stop().finally(() => this.ending.delete(p));
    this.ending.add(p);
  }

  /** Ends the thread, if one runs, and starts none again. */
  async stop(): Promise<void> {
    this.closed = true;
    if (this.thread) this.end(this.thread);
    await Promise.all([...this.ending]);
  }
}
