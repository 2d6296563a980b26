/**
 * System tools for the reading workers (worker/pool.ts), started by the
 * main thread's tool runner (tool-runner.ts). A worker thread shares its
 * process's memory, so a tool it spawned itself copied the page tables of
 * the whole process, as a spawn from the main thread would (about 15 ms per
 * tool from a 400 MB process, and two workers spawning at once wait on each
 * other): the worker asks over a MessagePort of its own instead, and the
 * main thread runs the tool through the runner and sends the output back.
 *
 * `serveToolRelay` is the main thread's side (one port per worker);
 * `useToolRelay` and `relayRun` the worker's (exec.ts `runTool`).
 */
import type { MessagePort } from 'node:worker_threads';
import type { RunOptions } from './exec.js';
import { abortError, rebuildError, sentError, ToolError } from './tool-error.js';
import type { RunnerAnswer, RunnerRequest } from './tool-runner.js';

/** A worker asks what the runner is asked, and is answered as the runner answers. */
type RelayRequest = RunnerRequest;
type RelayAnswer = RunnerAnswer;

type Run = (cmd: string, args: readonly string[], o: RunOptions) => Promise<Buffer>;

/** Tool requests the main thread answered for workers (tests). */
export const relayStats = { served: 0 };

/** Past its own time limit, the main thread has this long to answer before the call fails in the worker. */
const GRACE_MS = 10_000;

/**
 * Answers one worker's tool requests with `run` (the main thread's runTool).
 * The port does not keep the process alive; when it closes (the worker
 * stopped), the tools still running for it are stopped.
 */
export function serveToolRelay(port: MessagePort, run: Run): void {
  const running = new Map<number, AbortController>();
  port.on('message', (m: RelayRequest) => {
    if ('kill' in m) return running.get(m.id)?.abort();
    const controller = new AbortController();
    running.set(m.id, controller);
    relayStats.served++;
    const { input, timeoutMs, maxOutputBytes, env } = m;
    run(m.cmd, m.args, { input, timeoutMs, maxOutputBytes, env, signal: controller.signal }).then(
      (out) => {
        running.delete(m.id);
        // a copy of exactly the output's bytes, whose memory moves to the worker (a Buffer may view a larger pool)
        const ok = new Uint8Array(out);
        port.postMessage({ id: m.id, ok } satisfies RelayAnswer, [ok.buffer]);
      },
      (e: Error & { code?: string }) => {
        running.delete(m.id);
        if (controller.signal.aborted) return;
        port.postMessage({ id: m.id, error: sentError(e) } satisfies RelayAnswer);
      },
    );
  });
  port.on('close', () => {
    for (const c of running.values()) c.abort();
    running.clear();
  });
  port.unref();
}

interface Pending {
  resolve: (v: Buffer) => void;
  reject: (e: Error) => void;
}

let relay: { port: MessagePort; pending: Map<number, Pending>; nextId: number } | undefined;

/** In a reading worker: tools are run by the main thread over `port`. */
export function useToolRelay(port: MessagePort): void {
  const pending = new Map<number, Pending>();
  port.on('message', (m: RelayAnswer) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if ('ok' in m) p.resolve(Buffer.from(m.ok.buffer, m.ok.byteOffset, m.ok.byteLength));
    else p.reject(rebuildError(m.error));
  });
  port.unref();
  relay = { port, pending, nextId: 1 };
}

/** Whether this thread's tools go to the main thread. */
export function hasToolRelay(): boolean {
  return relay !== undefined;
}

/** runTool in a reading worker: the main thread runs the tool (see useToolRelay). */
export function relayRun(cmd: string, args: readonly string[], o: RunOptions): Promise<Buffer> {
  const r = relay!;
  const { signal } = o;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const id = r.nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    const done = () => {
      clearTimeout(backstop);
      signal?.removeEventListener('abort', onAbort);
      r.pending.delete(id);
      if (!r.pending.size) r.port.unref();
    };
    const onAbort = () => {
      r.port.postMessage({ id, kill: true } satisfies RelayRequest);
      done();
      reject(abortError(signal!));
    };
    const backstop = setTimeout(() => {
      r.port.postMessage({ id, kill: true } satisfies RelayRequest);
      done();
      reject(new ToolError(`${cmd} took longer than ${o.timeoutMs} ms`, 'TOOL_TIMEOUT'));
    }, o.timeoutMs + GRACE_MS);
    r.pending.set(id, {
      resolve: (v) => (done(), resolve(v)),
      reject: (e) => (done(), reject(e)),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    r.port.ref();
    const { input, timeoutMs, maxOutputBytes, env } = o;
    r.port.postMessage({ id, cmd, args, input, timeoutMs, maxOutputBytes, env } satisfies RelayRequest);
  });
}
