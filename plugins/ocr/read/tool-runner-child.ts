/**
 * The tool runner's process (tool-runner.ts): starts each tool it is asked
 * for with spawnHere and answers its output or its error; a kill request
 * stops a tool, and a parent that goes away stops them all.
 */
import { spawnHere } from './exec.js';
import { sentError } from './tool-error.js';
import type { RunnerAnswer, RunnerRequest } from './tool-runner.js';

const running = new Map<number, AbortController>();

const answer = (m: RunnerAnswer) => {
  if (process.connected) process.send!(m);
};

process.on('message', (m: RunnerRequest) => {
  if ('kill' in m) {
    running.get(m.id)?.abort();
    return;
  }
  const ctl = new AbortController();
  running.set(m.id, ctl);
  const { id, cmd, args, input, timeoutMs, maxOutputBytes, env } = m;
  spawnHere(cmd, args, { input, timeoutMs, maxOutputBytes, env, signal: ctl.signal })
    .then(
      (ok) => answer({ id, ok }),
      (e: Error & { code?: string }) => {
        if (!ctl.signal.aborted) answer({ id, error: sentError(e) });
      },
    )
    .finally(() => running.delete(id));
});

process.on('disconnect', () => {
  for (const ctl of running.values()) ctl.abort();
  process.exit(0);
});
