import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A server under test running in its own process; it reports `{ type: 'ready', ... }` over IPC once listening. */
export interface Child<R extends Record<string, unknown>> {
  proc: ChildProcess;
  pid: number;
  ready: R & { port: number };
  url: string;
  /** The last output of the child (stdout and stderr), for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The environment bin/titled gives every command (the NAME=VALUE words of its `#!/usr/bin/env -S ... node` line), so
 * a server under test runs as `titled serve` would, and `titled import` as a user's: read from the file, never copied.
 */
export function launcherEnv(): Record<string, string> {
  const line = readFileSync(new URL('../../../bin/titled', import.meta.url), 'utf8').split('\n', 1)[0]!;
  const m = /^#!\/usr\/bin\/env -S ((?:\w+=\S+ )*)node$/.exec(line);
  if (!m) throw new Error(`bin/titled: unexpected first line ${line}`);
  return Object.fromEntries(
    m[1]!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
  );
}

/**
 * Starts `node <script>` with an IPC channel and waits for its ready message.
 * `env` is added to the parent's environment and to bin/titled's (launcherEnv).
 */
export async function startChild<R extends Record<string, unknown>>(
  script: string,
  o: { env?: Record<string, string>; args?: string[]; execArgv?: string[]; timeoutMs?: number } = {},
): Promise<Child<R>> {
  const proc = fork(script, o.args ?? [], {
    env: { ...process.env, ...launcherEnv(), ...o.env },
    execArgv: o.execArgv ?? [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString('utf8')).slice(-8000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  const ready = await new Promise<R & { port: number }>((res, rej) => {
    const timer = setTimeout(
      () => rej(new Error(`${script} did not report ready within ${o.timeoutMs ?? 30_000} ms:\n${out}`)),
      o.timeoutMs ?? 30_000,
    );
    proc.on('message', (m: { type?: string }) => {
      if (m?.type === 'ready') {
        clearTimeout(timer);
        res(m as R & { port: number });
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      rej(new Error(`${script} exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
  return {
    proc,
    pid: proc.pid!,
    ready,
    url: `http://127.0.0.1:${ready.port}`,
    output: () => out,
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Resident set size of a process in bytes (Linux /proc), or null elsewhere. */
export function rssOf(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
