import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { createEngine, type Engine, type EngineOptions } from '../../index.js';
// the NMVTIS sandbox's maintenance windows are off for the suite (it runs at any hour)
import './sandbox-env.js';

export const PG_URL = process.env.TITLED_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export type Dialect = 'sqlite' | 'postgres';
/** Dialects the store suites run on (TITLED_TEST_DIALECTS=sqlite to skip PostgreSQL locally). */
export const DIALECTS: Dialect[] = (process.env.TITLED_TEST_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[];

export interface TestOrg {
  name: string;
  key: string;
  keyId: string;
}

export interface TestEngine {
  engine: Engine;
  url: string;
  dataDir: string;
  logs: string[];
  org: TestOrg;
  /** Creates another organization with a key. */
  newOrg(name?: string, groups?: string[]): Promise<TestOrg>;
  /** fetch against the daemon; `key` sets Bearer auth (default: the first org's key; null: none). */
  request(
    method: string,
    path: string,
    o?: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * Boots an engine the way the daemon does (createEngine + listen on a free
 * port), on a fresh SQLite folder or a fresh PostgreSQL schema.
 */
export async function startTestEngine(
  o: {
    dialect?: Dialect;
    config?: Record<string, unknown>;
    options?: EngineOptions;
    listen?: boolean;
    dataDir?: string;
    schema?: string;
  } = {},
): Promise<TestEngine> {
  const dialect = o.dialect ?? 'sqlite';
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'titled-test-'));
  const schema = o.schema ?? `t_${randomBytes(6).toString('hex')}`;
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk, _e, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const engine = await createEngine(
    {
      port: 0,
      dataDir,
      log: { level: 'info' },
      workers: { pollIntervalMs: 50, retryBaseMs: 20 },
      // suites that send many requests with one key are not about rate limits (test/security/rate-limit.test.ts is)
      rateLimit: { enabled: false },
      ...(dialect === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema } : {}),
      ...o.config,
    },
    { logDestination, ...o.options },
  );
  let url = '';
  if (o.listen !== false) {
    const server = await engine.listen();
    const addr = server.address() as { port: number };
    url = `http://127.0.0.1:${addr.port}`;
  } else {
    await engine.start();
  }
  let n = 0;
  const newOrg = async (name = `org-${randomBytes(4).toString('hex')}-${n++}`, groups?: string[]): Promise<TestOrg> => {
    const org = (await engine.orgs.byName(name)) ?? (await engine.orgs.create(name));
    const key = await engine.keys.create(org.id, { groups });
    return { name, key: key.key, keyId: key.id };
  };
  const org = await newOrg();
  const t: TestEngine = {
    engine,
    url,
    dataDir,
    logs,
    org,
    newOrg,
    async request(method, path, r = {}) {
      const headers: Record<string, string> = { ...r.headers };
      const key = r.key === undefined ? org.key : r.key;
      if (key) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = r.rawBody;
      if (r.body !== undefined) body = JSON.stringify(r.body);
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async stop() {
      await engine.stop();
      if (dialect === 'postgres' && !o.schema) await dropSchema(schema);
      if (!o.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

export async function dropSchema(schema: string): Promise<void> {
  const ds = new DataSource({ type: 'postgres', url: PG_URL });
  await ds.initialize();
  await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await ds.destroy();
}

/** Polls `fn` until it returns a truthy value (no wall-clock assertions: it gives up only after many tries). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  o: { tries?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  const tries = o.tries ?? 400;
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, o.everyMs ?? 25));
  }
  throw new Error(`condition not met: ${o.what ?? 'eventually'}`);
}

/** A VIN with a correct check digit (1HGCM82633A004352 is the classic valid example). */
export const VALID_VIN = '1HGCM82633A004352';
