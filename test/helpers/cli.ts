import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// the NMVTIS sandbox's maintenance windows are off for the suite (it runs at any hour)
import './sandbox-env.js';

/** The compiled CLI next to the compiled tests. */
export const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `titled ARGS` on a data folder, with none of the caller's titled settings (config, database, allow list, URL). */
export function runCli(args: string[], dataDir: string): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, TITLED_DATA_DIR: dataDir };
  for (const k of [
    'TITLED_CONFIG',
    'DATABASE_URL',
    'TITLED_LOG_LEVEL',
    'TITLED_ALLOW_HOSTS',
    'TITLED_PUBLIC_URL',
    'PORT',
  ])
    delete env[k];
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((res, rej) => {
    child.once('error', rej);
    child.once('close', (code) => res({ code, stdout, stderr }));
  });
}
