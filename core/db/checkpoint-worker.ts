/**
 * The SQLite WAL checkpointer's thread (see `WalCheckpointer`): its own
 * connection to the database file, a PASSIVE checkpoint (it copies what no
 * reader still needs back into the database file and never waits for or
 * blocks a reader or writer) every `busyMs` to `idleMs` while they find
 * frames to copy (about every 1,000 new frames: `nextCheckpointWait`),
 * backing off to every `idleMs` while they find none, and saying `idle` once
 * none found anything for `idleAfterMs`; one more on `stop`, then it closes.
 * Each checkpoint that copied frames is reported to the daemon's thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Sqlite from 'better-sqlite3';
import { nextCheckpointWait } from './wal-checkpointer.js';

const { file, busyMs, idleMs, idleAfterMs } = workerData as {
  file: string;
  busyMs: number;
  idleMs: number;
  idleAfterMs: number;
};
const port = parentPort!;
const db = new Sqlite(file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');

let backfilled = 0;
/** One PASSIVE checkpoint; the frames it copied. */
function checkpoint(): number {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    // `checkpointed` counts every frame backfilled so far in this WAL; report only the new ones
    const now = r ? r.checkpointed : 0;
    const fresh = now >= backfilled ? now - backfilled : now;
    backfilled = now;
    if (fresh > 0) port.postMessage({ type: 'checkpoint', log: r!.log, checkpointed: fresh });
    return fresh;
  } catch (e) {
    port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
    return 0;
  }
}

let wait = busyMs;
let timer: NodeJS.Timeout;
let lastWork = Date.now();
const tick = () => {
  const copied = checkpoint();
  if (copied) lastWork = Date.now();
  wait = nextCheckpointWait(wait, copied, busyMs, idleMs);
  // nothing to copy for a while: the daemon may end the thread (it starts one again with the next write)
  if (Date.now() - lastWork >= idleAfterMs) port.postMessage({ type: 'idle' });
  timer = setTimeout(tick, wait);
};
timer = setTimeout(tick, wait);
port.on('message', (m: unknown) => {
  if (m !== 'stop') return;
  clearTimeout(timer);
  checkpoint();
  db.close();
  port.postMessage({ type: 'stopped' });
  port.close();
});
