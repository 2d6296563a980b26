/**
 * A small pool of worker threads that read PDFs off the event loop. A PDF
 * with a text layer needs no OCR, so its whole reading (the text layer's
 * XHTML parsed into words, layout, classification, the barcode search,
 * extraction) is JavaScript and WebAssembly on one thread: in the daemon's
 * thread it stalls every request while it runs. Here each PDF goes to a
 * worker, which reads it only while every page has a text layer; a page that
 * needs OCR sends the document back with the text layer it read, and the
 * caller's thread goes on (OCR runs in tesseract processes, bounded by the
 * process-wide OCR queue, which a worker must not duplicate).
 *
 * Workers start on first use (`size` of them: the OCR concurrency, else the
 * cores), have their system tools started by this thread's tool runner
 * (read/tool-relay.ts), take at most two documents at once each (a document
 * spends part of its time waiting on poppler), are unreferenced while idle
 * (a CLI or a test exits when its work is done), and are replaced when one
 * dies. An abort terminates the worker reading the aborted document.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { TextLayerPage } from '../read/pdf.js';
import { runTool, ToolError } from '../read/exec.js';
import { serveToolRelay } from '../read/tool-relay.js';

/** What a worker answers: the analysis, the text layer of a document that needs OCR, or an error to rebuild. */
type WorkerAnswer<T> =
  | { id: number; ok: T }
  | { id: number; needsOcr: TextLayerPage[] }
  | { id: number; error: { name: string; message: string; code?: string } };

export interface WorkerTask {
  bytes: Uint8Array;
  options: Record<string, unknown>;
}

interface Slot {
  worker: Worker;
  busy: number;
}
interface Job<T> {
  task: WorkerTask;
  signal?: AbortSignal;
  resolve: (v: WorkerAnswer<T>) => void;
  reject: (e: Error) => void;
  retried?: boolean;
}
interface Pending<T> {
  job: Job<T>;
  slot: Slot;
}

const PER_WORKER = 2;

class ReadingPool<T> {
  private readonly slots: Slot[] = [];
  private readonly queue: Job<T>[] = [];
  private readonly pending = new Map<number, Pending<T>>();
  private nextId = 1;
  /** Documents the workers answered: read whole, or handed back for OCR. */
  readonly stats = { read: 0, handedBack: 0, failed: 0 };

  constructor(
    private readonly size: number,
    private readonly script: URL,
  ) {}

  /** Runs a task on a worker; resolves with the worker's answer (errors come back as answers, for the caller to rebuild). */
  run(task: WorkerTask, signal?: AbortSignal): Promise<WorkerAnswer<T>> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      this.queue.push({ task, signal, resolve, reject });
      this.pump();
    });
  }

  /** Worker threads running now. */
  get threads(): number {
    return this.slots.length;
  }

  /** Stops every worker (tests; a daemon's shutdown). */
  async close(): Promise<void> {
    const all = this.slots.splice(0);
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    // the worker's system tools are started here, by this thread's tool runner (read/tool-relay.ts)
    const { port1, port2 } = new MessageChannel();
    serveToolRelay(port1, runTool);
    const worker = new Worker(this.script, { workerData: { toolPort: port2 }, transferList: [port2] });
    worker.once('exit', () => port1.close());
    const slot: Slot = { worker, busy: 0 };
    worker.unref();
    worker.on('message', (m: WorkerAnswer<T>) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.release(slot);
      if ('ok' in m) this.stats.read++;
      else if ('needsOcr' in m) this.stats.handedBack++;
      else this.stats.failed++;
      p.job.resolve(m);
    });
    const die = (e: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      // the worker's documents: an aborted one fails with its abort; another (a worker stopped for someone else's abort) is read once more
      for (const [id, p] of this.pending) {
        if (p.slot !== slot) continue;
        this.pending.delete(id);
        if (p.job.signal?.aborted) p.job.reject(p.job.signal.reason as Error);
        else if (!p.job.retried) this.queue.unshift({ ...p.job, retried: true });
        else p.job.reject(e);
      }
      this.pump();
    };
    worker.on('error', die);
    worker.on('exit', (code) => die(new ToolError(`the reading worker stopped (exit code ${code})`, 'TOOL_FAILED')));
    this.slots.push(slot);
    return slot;
  }

  private release(slot: Slot): void {
    slot.busy--;
    if (!slot.busy) slot.worker.unref();
    this.pump();
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = this.slots.filter((s) => s.busy < PER_WORKER).sort((a, b) => a.busy - b.busy)[0];
      if (!slot || (slot.busy > 0 && this.slots.length < this.size))
        slot = this.slots.length < this.size ? this.spawn() : slot;
      if (!slot) return;
      const job = this.queue.shift()!;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason as Error);
        continue;
      }
      const id = this.nextId++;
      const s = slot;
      s.busy++;
      s.worker.ref();
      this.pending.set(id, { job, slot: s });
      // an aborted document stops its worker (a thread cannot be interrupted otherwise)
      job.signal?.addEventListener(
        'abort',
        () => {
          if (this.pending.has(id)) void s.worker.terminate();
        },
        { once: true },
      );
      s.worker.postMessage({ id, ...job.task });
    }
  }
}

let shared: ReadingPool<unknown> | undefined;
let users = 0;

/**
 * Marks one more user of the process's pool (an ocr stage); the returned
 * function ends that use, and the last user's end stops the pool's workers
 * (an engine's shutdown), so an embedding process keeps no idle threads.
 * A later read starts a new pool.
 */
/** Users holding the pool now (tests). */
export function readingPoolUsers(): number {
  return users;
}

export function retainReadingPool(): () => Promise<void> {
  users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--users > 0 || !shared) return;
    const pool = shared;
    shared = undefined;
    await pool.close();
  };
}

/** The process's pool (sized on first use). */
export function readingPool<T>(size?: number): ReadingPool<T> {
  shared ??= new ReadingPool(Math.max(1, size ?? availableParallelism()), new URL('./thread.js', import.meta.url));
  return shared as ReadingPool<T>;
}
