/**
 * SQLite WAL checkpoints off the event loop (docs/operations.md, "SQLite").
 *
 * With SQLite's automatic checkpoints, every thousandth page written makes
 * the committing statement copy the WAL back into the database file and
 * fsync it, on the daemon's only thread: measured on the create workload
 * (2,200 entries), about 80 of 4,400 commits took 10-20 ms each, 70% of all
 * commit time, about 0.4 ms per created entry during which no request is
 * served. The daemon therefore runs PASSIVE checkpoints (they never block a
 * reader or a writer) from a worker thread with a connection of its own,
 * every 50 ms while there is work (every second when idle). The connection's
 * own automatic checkpoint stays as a backstop at 4,000 pages (16 MB of WAL):
 * under writes that never pause, a checkpoint from another connection never
 * quite catches up, and the WAL can only start over after one that does;
 * the backstop then copies the few frames left (measured: commit time 1.3 s
 * -> 0.5 s for the same 2,200 entries, WAL at most about 18 MB). When the
 * thread fails or exits, the connection's checkpoints go back to SQLite's
 * default (every 1,000 pages).
 */
import { Worker } from 'node:worker_threads';

/** The connection's own automatic checkpoint while the thread runs (pages of WAL). */
const BACKSTOP_PAGES = 4_000;
const BUSY_INTERVAL_MS = 50;
const IDLE_INTERVAL_MS = 1_000;

export interface CheckpointStats {
  /** Checkpoints that copied frames. */
  checkpoints: number;
  /** Frames copied back into the database file. */
  frames: number;
}

/** What the checkpointer needs of the daemon's connection. */
export interface WalConnection {
  pragma(s: string): unknown;
}

export class WalCheckpointer {
  readonly stats: CheckpointStats = { checkpoints: 0, frames: 0 };
  private readonly worker: Worker;
  private stopping?: Promise<void>;
  private fallenBack = false;
  private exited = false;

  /**
   * @param file the SQLite database file
   * @param conn the daemon's connection, whose automatic checkpoints are turned off while the thread runs
   * @param warn logs why checkpoints went back to the connection
   */
  constructor(
    file: string,
    private readonly conn: WalConnection,
    private readonly warn: (msg: string) => void,
  ) {
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), {
      workerData: { file, busyMs: BUSY_INTERVAL_MS, idleMs: IDLE_INTERVAL_MS },
    });
    // the thread keeps no daemon alive on its own: stop() ends it, and an engine never stopped may still exit
    this.worker.unref();
    this.worker.on('message', (m: { type: string; checkpointed?: number; message?: string }) => {
      if (m.type === 'checkpoint') {
        this.stats.checkpoints++;
        this.stats.frames += m.checkpointed ?? 0;
      } else if (m.type === 'error') this.fallBack(`WAL checkpoint failed in its thread: ${m.message}`);
    });
    this.worker.on('error', (e) => this.fallBack(`WAL checkpoint thread failed: ${e.message}`));
    this.worker.on('exit', () => {
      this.exited = true;
      if (!this.stopping) this.fallBack('WAL checkpoint thread exited');
    });
    conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** Automatic checkpoints back on the daemon's connection (SQLite's default: every 1,000 pages). */
  private fallBack(why: string): void {
    if (this.fallenBack) return;
    this.fallenBack = true;
    try {
      this.conn.pragma('wal_autocheckpoint = 1000');
    } catch {
      // the connection is closing
    }
    this.warn(`${why}; automatic checkpoints are back on the daemon's connection`);
  }

  /** A last checkpoint, then the thread ends; automatic checkpoints are back on the connection. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      const done = () => resolve();
      this.worker.once('exit', done);
      this.worker.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') void this.worker.terminate().then(done, done);
      });
      this.worker.postMessage('stop');
    }).then(() => {
      this.fallenBack = true;
      try {
        this.conn.pragma('wal_autocheckpoint = 1000');
      } catch {
        // the connection is closed already
      }
    });
    return this.stopping;
  }
}
