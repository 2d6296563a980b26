import type { Engine } from '../../core/index.js';
import { ENGINE_OPTION_HELP, ENGINE_OPTIONS, UsageError, engineOverrides, type Command } from '../command.js';

/** How long a graceful stop may take before the process gives up and exits 1. */
const STOP_GRACE_MS = 30_000;

function parsePort(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535)
    throw new UsageError(`--port must be a number from 0 to 65535, not '${v}'`);
  return Number(v);
}

export const serve: Command = {
  name: 'serve',
  summary: 'run the daemon: HTTP API and pipeline workers',
  usage: 'serve [--port N] [--host H] [--data-dir DIR] [--database-url URL] [--config FILE]',
  details:
    'Runs migrations, starts the workers and the HTTP server, and logs JSON lines (pino) to stdout.\nSIGTERM or SIGINT stops it gracefully (exit code 0).',
  options: { ...ENGINE_OPTIONS, port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  optionHelp: [
    ['-p, --port N', 'port to listen on; 0 picks a free one (env PORT; default 8080)'],
    ['--host H', 'address to bind (env TITLED_HOST; default 127.0.0.1)'],
    ...ENGINE_OPTION_HELP,
  ],
  async run({ values }) {
    const overrides = engineOverrides(values);
    if (typeof values.port === 'string') overrides.port = parsePort(values.port);
    if (typeof values.host === 'string') overrides.host = values.host;
    const { createEngine } = await import('../../index.js');
    const engine: Engine = await createEngine(overrides);
    try {
      await engine.listen();
    } catch (e) {
      await engine.stop().catch(() => undefined);
      throw e;
    }
    return new Promise<number>((resolveExit) => {
      let stopping = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) {
          engine.log.warn({ signal }, 'second signal: exiting without waiting');
          process.exit(1);
        }
        stopping = true;
        engine.log.info({ signal }, 'shutting down');
        const force = setTimeout(() => {
          engine.log.error({ code: 'STOP_TIMEOUT', graceMs: STOP_GRACE_MS }, 'graceful stop took too long; exiting');
          process.exit(1);
        }, STOP_GRACE_MS);
        force.unref();
        engine.stop().then(
          () => {
            clearTimeout(force);
            engine.log.info('stopped');
            resolveExit(0);
          },
          (e: unknown) => {
            clearTimeout(force);
            engine.log.error({ err: e }, 'stop failed');
            resolveExit(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    });
  },
};
