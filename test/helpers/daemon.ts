/**
 * The daemon as a child process (`titled serve` from the compiled CLI), for
 * the tests that kill it: started with a config file, answered over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// the NMVTIS sandbox's maintenance windows are off for the suite (it runs at any hour)
import './sandbox-env.js';

/** The compiled CLI next to the compiled tests. */
export const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

export interface Daemon {
  proc: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

/** The test process's environment without the TITLED_ settings (the child reads its own), but the suite's sandbox-env. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env))
    if ((k.startsWith('TITLED_') && k !== 'TITLED_SANDBOX_MAINTENANCE') || k === 'PORT' || k === 'DATABASE_URL')
      delete env[k];
  return { ...env, ...extra };
}

/**
 * `titled serve --port 0 [--config <file>]` (null: the config comes from
 * `env`, TITLED_CONFIG and the like); resolves once it logs where it listens.
 */
export async function serveDaemon(configFile: string | null, env: NodeJS.ProcessEnv = childEnv({})): Promise<Daemon> {
  const args = [CLI, 'serve', '--port', '0', ...(configFile ? ['--config', configFile] : [])];
  const proc = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.once('exit', (code, signal) => res({ code, signal })),
  );
  const url = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"address":"([\d.]+:\d+)".*"msg":"listening"/.exec(out);
      if (m) res(`http://${m[1]}`);
    });
    proc.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    void exited.then((e) => rej(new Error(`daemon exited (${e.code ?? e.signal}) before listening:\n${out}`)));
  });
  return { proc, url, exited, output: () => out };
}

/** SIGKILL, and the exit seen. */
export async function kill9(d: Daemon): Promise<void> {
  d.proc.kill('SIGKILL');
  const e = await d.exited;
  if (e.signal !== 'SIGKILL')
    throw new Error(`daemon ended with ${e.code ?? e.signal}, not by SIGKILL:\n${d.output().slice(-2000)}`);
}
