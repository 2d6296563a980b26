/**
 * The tool runner: one small helper process (tool-runner-child.ts, a Node
 * process of about 40 MB) that starts system tools for this process and
 * hands back their output. Starting a process from a big one is slow on
 * Linux (its page tables are copied; Node does it synchronously, on the
 * event loop): about 15 ms of blocked loop and CPU per tool from a 400 MB
 * daemon reading documents, 1.3 ms from the runner. The runner starts on
 * first use, keeps no process alive while idle, and is started again after
 * it dies; what it was running then is run in this process. The runner leads
 * a process group of its own, which its tools join: when it dies with tools
 * running, the group is killed, so a tool it left behind does not run on
 * beside the one started here in its place.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { RunOptions } from './exec.js';
import { abortError, rebuildError, ToolError } from './tool-error.js';

/** What the runner is asked, and what it answers. */
export type RunnerRequest =
  | {
      id: number;
      cmd: string;
      args: readonly string[];
      input?: Uint8Array;
      timeoutMs: number;
      maxOutputBytes: number;
      env?: NodeJS.ProcessEnv;
    }
  | { id: number; kill: true };
export type RunnerAnswer =
  { id: number; ok: Uint8Array } | { id: number; error: { message: string; name: string; code?: string } };

type Fallback = (cmd: string, args: readonly string[], o: RunOptions) => Promise<Buffer>;

interface Call {
  run: () => Promise<Buffer>;
  resolve: (v: Buffer) => void;
  reject: (e: Error) => void;
  done: () => void;
}

interface Runner {
  child: ChildProcess;
  calls: Map<number, Call>;
}

/** Past its own time limit, the runner has this long to answer before the call fails here. */
const GRACE_MS = 5_000;

let runner: Runner | undefined;
/** The runner could not be started (no fork here): tools are started in this process. */
let unavailable = false;
let nextId = 1;
/** Runners started, and tools run here because their runner died (tests). */
export const runnerStats = { started: 0, ranHere: 0 };

/** Lets this process exit while the runner has nothing to do, and keeps it while it has. */
function hold(r: Runner): void {
  const busy = r.calls.size > 0;
  const channel = r.child.channel as { ref(): void; unref(): void } | undefined;
  if (busy) (r.child.ref(), channel?.ref());
  else (r.child.unref(), channel?.unref());
}

function start(): Runner {
  const child = fork(new URL('./tool-runner-child.js', import.meta.url), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: ['--max-old-space-size=64'],
    // a process group of its own (the tools it starts join it): see `gone`. It still ends with this process: it
    // exits when its channel closes (tool-runner-child.ts)
    detached: true,
  });
  runnerStats.started++;
  const r: Runner = { child, calls: new Map() };
  child.on('message', (m: RunnerAnswer) => {
    const call = r.calls.get(m.id);
    if (!call) return;
    call.done();
    if ('ok' in m) call.resolve(Buffer.from(m.ok.buffer, m.ok.byteOffset, m.ok.byteLength));
    else call.reject(rebuildError(m.error));
  });
  const gone = (e?: Error) => {
    if (runner === r) runner = undefined;
    if (e && (e as NodeJS.ErrnoException).syscall?.startsWith('spawn')) unavailable = true;
    // tools it was running outlive it (a killed runner cannot stop them): its group goes, they with it
    if (r.calls.size > 0 && child.pid) killGroup(child.pid);
    // what it was running is run here (the tools only read their input)
    for (const call of [...r.calls.values()]) {
      call.done();
      runnerStats.ranHere++;
      call.run().then(call.resolve, call.reject);
    }
  };
  child.on('error', gone);
  child.on('exit', () => gone());
  return r;
}

/** runTool through the runner; `here` runs the tool in this process when the runner cannot. */
export function runnerRun(cmd: string, args: readonly string[], o: RunOptions, here: Fallback): Promise<Buffer> {
  if (unavailable) return here(cmd, args, o);
  const { signal } = o;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  runner ??= start();
  const r = runner;
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    const onAbort = () => {
      send(r, { id, kill: true });
      call.done();
      reject(abortError(signal!));
    };
    const backstop = setTimeout(() => {
      send(r, { id, kill: true });
      call.done();
      reject(new ToolError(`${cmd} took longer than ${o.timeoutMs} ms`, 'TOOL_TIMEOUT'));
    }, o.timeoutMs + GRACE_MS);
    const call: Call = {
      run: () => here(cmd, args, o),
      resolve,
      reject,
      done: () => {
        clearTimeout(backstop);
        signal?.removeEventListener('abort', onAbort);
        r.calls.delete(id);
        hold(r);
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    r.calls.set(id, call);
    hold(r);
    const { input, timeoutMs, maxOutputBytes, env } = o;
    if (!send(r, { id, cmd, args, input, timeoutMs, maxOutputBytes, env })) {
      call.done();
      runnerStats.ranHere++;
      call.run().then(resolve, reject);
    }
  });
}

/** Kills the process group `pgid` (the runner's); nothing when it is gone already. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: no process of the group is left
  }
}

/** Sends a request; false when the runner's channel is closed (it is gone, or going). */
function send(r: Runner, m: RunnerRequest): boolean {
  if (!r.child.connected) return false;
  try {
    r.child.send(m);
    return true;
  } catch {
    return false;
  }
}
