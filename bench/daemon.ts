/**
 * The daemon under test: `createEngine({...}).listen()` on a free port, the
 * way `titled serve` runs it, in its own process. Spawned by the bench with an
 * IPC channel; reports `{ type: 'ready', port, key }` once listening.
 *
 * Environment: BENCH_DATA_DIR (SQLite folder, required), BENCH_ORG (creates
 * this organization and an API key for it, returned as `key`),
 * BENCH_LOG_LEVEL (default warn), BENCH_STAGES (comma list, default intake),
 * BENCH_ENCRYPTION (`off` turns PII encryption at rest off; default on, as the daemon runs).
 * Rate limits stay on (BENCH_RATE_LIMIT=off: off) with limits no bench run reaches, so their cost is in the figures.
 * BENCH_WORKERS=0 (no pipeline workers).
 */
import { createEngine } from '../index.js';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

const engine = await createEngine({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  stages: (process.env.BENCH_STAGES ?? 'intake').split(',').filter(Boolean),
  // BENCH_WORKERS=0: no pipeline workers (the console suite measures creation alone)
  ...(process.env.BENCH_WORKERS === '0' ? { workers: { enabled: false } } : {}),
  log: { level: (process.env.BENCH_LOG_LEVEL ?? 'warn') as 'warn' },
  encryption: { enabled: process.env.BENCH_ENCRYPTION !== 'off' },
  rateLimit: { enabled: process.env.BENCH_RATE_LIMIT !== 'off', perCredential: 1e9, perOrganization: 1e9 },
});
let key: string | undefined;
if (process.env.BENCH_ORG) {
  const name = process.env.BENCH_ORG;
  const org = (await engine.orgs.byName(name)) ?? (await engine.orgs.create(name));
  key = (await engine.keys.create(org.id, { label: 'bench' })).key;
}
const server = await engine.listen();
const port = (server.address() as { port: number }).port;

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  try {
    await engine.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());
process.send?.({ type: 'ready', port, key, pid: process.pid });
