import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Koa from 'koa';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { DestinationStream } from 'pino';
import { ApiKeys } from './auth/api-keys.js';
import { Sessions } from './auth/sessions.js';
import { Authenticator, type Principal } from './auth/authenticator.js';
import { Organizations } from './auth/organizations.js';
import { resolveConfig, type TitledConfig, type TitledConfigInput } from './config.js';
import { Database, type PluginSchema } from './db/database.js';
import { EngineConfigError, TitledError } from './errors.js';
import { createApp, type HttpDeps } from './http/app.js';
import { JobQueue } from './jobs/job-queue.js';
import { createLogger, type Logger } from './logger.js';
import { StageRegistry } from './pipeline/registry.js';
import { PipelineRunner } from './pipeline/runner.js';
import type { EnginePlugin, EnginePluginClass, StagePlugin } from './pipeline/stage.js';
import { TitleService } from './service/title-service.js';
import { EntryStore } from './store/entry-store.js';
import { Outbox } from './store/outbox.js';
import { Pruner } from './store/pruner.js';
import { LocalObjectStore, ObjectStore, type SignedObjectStore } from './storage/object-store.js';
import { createPii, ensureDataKeys, objectSealer, PiiCodec } from './crypto/index.js';
import { keyRotation, resealColumn, type KeyRotation } from './crypto/rotation.js';
import { TOKENS } from './tokens.js';
import { packageRoot } from './paths.js';
import { Metrics } from './metrics.js';
import type Router from '@koa/router';
import { buildOpenApi, type OpenApiContribution } from './http/openapi.js';
import { docsRoutes } from './http/docs.js';
import { consoleOpenApi, consoleRoutes } from './console/routes.js';
import type { ImportRunner } from './console/import-page.js';
import { Entries } from './service/entries.js';
import { guardPlugin } from './pipeline/hooks.js';
import { checkPluginConfig, type PluginManifest } from './pipeline/options.js';

/** A plugin the engine knows by name: how to load its class, and the provider keys it reads. */
export interface PluginCatalogEntry {
  load(): Promise<EnginePluginClass>;
  /** The `config.providers` keys the plugin reads (checked at start-up: a key no plugin reads is an error). */
  providers?: readonly string[];
}
export type PluginCatalog = Record<string, PluginCatalogEntry>;

export interface EngineOptions {
  /** The plugins this engine knows (the package entry point passes the built-in catalog, plugins/index.ts). */
  plugins?: PluginCatalog;
  /** Plugin classes beyond the catalog, by name (a name must still be listed in config `stages` to run). */
  stages?: Record<string, EnginePluginClass>;
  /** Where logs go (default: stdout). */
  logDestination?: DestinationStream;
  /** Run migrations on start (default true; `titled migrate` runs them alone). */
  migrate?: boolean;
}

/** The engine: the title service, workers, and the Koa app, built from one config. */
export interface Engine {
  readonly config: Readonly<TitledConfig>;
  readonly log: Logger;
  readonly db: Database;
  readonly service: TitleService;
  readonly orgs: Organizations;
  readonly keys: ApiKeys;
  readonly outbox: Outbox;
  readonly queue: JobQueue;
  readonly objects: ObjectStore;
  /** Removes old outbox rows, failed jobs and ended webhook deliveries (config `retention`; a loop once started). */
  readonly pruner: Pruner;
  /** PII at rest: the organizations' data keys and the codec that seals and opens (docs/security.md). */
  readonly pii: PiiCodec;
  /** Master and data key rotation (`titled keys rotate-master|rotate-data`). */
  readonly keyRotation: KeyRotation;
  readonly container: DependencyContainer;
  /** The Prometheus registry served at GET /metrics. */
  readonly metrics: Metrics;
  /** The Koa app (mount it in your own server, or call `listen`). */
  readonly app: Koa;
  readonly stages: readonly StagePlugin[];
  /** Every enabled plugin (stages and background plugins). */
  readonly plugins: readonly EnginePlugin[];
  /** Adds a stage before `start`; throws once the engine started. */
  registerStage(stage: EnginePlugin): void;
  /** The OpenAPI 3.1 document GET /openapi.json serves (core routes, the enabled plugins' `openapi()`, the console). */
  openapi(): Record<string, unknown>;
  /** Adds routes before the app is first used. */
  addRoutes(fn: HttpDeps['extraRoutes'][number]): void;
  /** Freezes the pipeline and starts the workers and plugins' background work (if `workers.enabled`). */
  start(): Promise<void>;
  /** Starts the workers and an HTTP server on config port/host (port 0 = any free port). */
  listen(): Promise<Server>;
  /** Stops the server and workers and closes the database. */
  stop(): Promise<void>;
  /** A principal acting for an organization, for library callers that embed the engine. */
  principalFor(orgName: string, opts?: { userId?: string; groups?: string[] | null }): Promise<Principal>;
}

/**
 * What a running daemon tells the CLI on the same data folder
 * (`<dataDir>/daemon.json`): the base URL of its presigned links and its
 * outbound allow list, so `titled entries get` prints links that work and
 * `titled webhooks set` accepts the hosts the daemon will deliver to.
 */
export interface DaemonInfo {
  pid: number;
  publicUrl: string;
  allowHosts: string[];
  startedAt: string;
}

function writeDaemonInfo(config: Readonly<TitledConfig>, port: number, log: Logger): void {
  const info: DaemonInfo = {
    pid: process.pid,
    publicUrl: (config.publicUrl ?? `http://localhost:${port}`).replace(/\/$/, ''),
    allowHosts: [...config.allowHosts],
    startedAt: new Date().toISOString(),
  };
  try {
    mkdirSync(resolve(config.dataDir), { recursive: true });
    writeFileSync(join(resolve(config.dataDir), 'daemon.json'), JSON.stringify(info, null, 2) + '\n');
  } catch (e) {
    log.warn({ err: e, code: 'DAEMON_INFO_FAILED' }, 'could not write daemon.json');
  }
}

function removeDaemonInfo(config: Readonly<TitledConfig>): void {
  const file = join(resolve(config.dataDir), 'daemon.json');
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as DaemonInfo).pid === process.pid) unlinkSync(file);
  } catch {
    /* absent or not ours */
  }
}

/** The daemon running on this data folder, if one is (its daemon.json names a live process). */
export function runningDaemon(dataDir: string): DaemonInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(resolve(dataDir), 'daemon.json'), 'utf8')) as DaemonInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

/** The package's version (package.json). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The server secret: config `secret`, else a random one kept in `<dataDir>/secret` so URLs and sessions survive restarts. */
function loadSecret(config: TitledConfig): string {
  if (config.secret) return config.secret;
  const dir = resolve(config.dataDir);
  const file = join(dir, 'secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // written whole to a temp file, then linked into place: two processes starting on a new folder agree on one secret
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, randomBytes(32).toString('hex'), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Loads the classes of the plugins the config enables (only those) and checks
 * `config.plugins` and `config.providers` against every known plugin.
 */
async function loadPlugins(config: TitledConfig, options: EngineOptions): Promise<Record<string, EnginePluginClass>> {
  const known: Record<string, PluginCatalogEntry> = { ...options.plugins };
  for (const [name, cls] of Object.entries(options.stages ?? {}))
    known[name] = { load: async () => cls, providers: cls.providers };
  for (const [name, path] of Object.entries(config.pluginModules))
    known[name] = { load: () => loadPluginModule(name, path) };
  for (const name of config.stages) {
    if (!known[name])
      throw new EngineConfigError(
        `config lists stage '${name}', which is not a known stage (known: ${Object.keys(known).sort().join(', ')})`,
      );
  }
  const classes: Record<string, EnginePluginClass> = Object.fromEntries(
    await Promise.all(config.stages.map(async (name) => [name, await known[name]!.load()] as const)),
  );
  const manifests: PluginManifest[] = Object.entries(known).map(([name, k]) => ({
    name,
    providers: [...(k.providers ?? []), ...(classes[name]?.providers ?? [])],
    options: classes[name]?.options,
  }));
  checkPluginConfig(config, manifests);
  return classes;
}

/** A plugin class from a module of the config's `pluginModules` (its default export). */
async function loadPluginModule(name: string, path: string): Promise<EnginePluginClass> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (e) {
    throw new EngineConfigError(
      `pluginModules.${name}: cannot load ${path}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (typeof mod.default !== 'function')
    throw new EngineConfigError(`pluginModules.${name}: ${path} has no default export of a plugin class`);
  return mod.default as EnginePluginClass;
}

/** Builds one plugin through the container; its options were checked, its constructor's errors name it, its hooks are guarded. */
function buildPlugin(container: DependencyContainer, name: string, cls: EnginePluginClass): EnginePlugin {
  container.register(cls, { useClass: cls });
  let plugin: EnginePlugin;
  try {
    plugin = container.resolve<EnginePlugin>(cls);
  } catch (e) {
    if (e instanceof EngineConfigError) throw e;
    throw new EngineConfigError(`plugin '${name}' could not be built: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (plugin.name !== name) throw new EngineConfigError(`stage class for '${name}' calls itself '${plugin.name}'`);
  return guardPlugin(plugin);
}

/**
 * The library entry point: builds an engine from configuration (merged over
 * config/default.json, TITLED_CONFIG and environment variables), opens the
 * database and runs its migrations. Call `start()` for workers, `listen()`
 * for the HTTP server too.
 */
export async function createEngine(
  configInput: TitledConfigInput | Record<string, unknown> = {},
  options: EngineOptions = {},
): Promise<Engine> {
  const config = resolveConfig(configInput);
  const log = createLogger(config.log.level, options.logDestination);
  const catalog = await loadPlugins(config, options);
  const db = await openDatabase(config, catalog, options.migrate !== false);
  db.notifications.setLogger(log);
  const secret = loadSecret(config);
  const publicUrl = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
  const objects = await openObjectStore(config, secret, publicUrl);
  const parts = buildCore(config, log, db, { secret, objects });
  try {
    // not before the migrations ran (`titled migrate` opens the engine without running them)
    if (options.migrate !== false) await ensureDataKeys(parts.pii, db);
  } catch (e) {
    await db.close();
    throw new EngineConfigError(`cannot read or make the organizations' data keys: ${(e as Error).message}`);
  }
  for (const name of config.stages) parts.registry.register(buildPlugin(parts.container, name, catalog[name]!));
  return assemble(parts);
}

/** Opens the database with the core's and the enabled plugins' tables, and migrates it (unless told not to). */
async function openDatabase(
  config: TitledConfig,
  catalog: Record<string, EnginePluginClass>,
  migrate: boolean,
): Promise<Database> {
  const schemas = config.stages.map((n) => catalog[n]!.schema).filter((s): s is PluginSchema => !!s);
  const db = await Database.open(config, schemas);
  try {
    if (migrate) await db.migrate();
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

/**
 * The object store the config's `storage` names (docs/storage.md). The AWS SDK is loaded only for an S3 store:
 * it is about 20 MB of the daemon's resident memory, which a daemon on local files does not need.
 */
async function openObjectStore(
  config: Readonly<TitledConfig>,
  secret: string,
  publicUrl: string,
): Promise<SignedObjectStore> {
  const s = config.storage;
  if (s.kind === 'local') return new LocalObjectStore(join(resolve(config.dataDir), 'objects'), secret, publicUrl);
  const { S3ObjectStore } = await import('./storage/s3-object-store.js');
  return new S3ObjectStore({ ...s, bucket: s.bucket! }, secret, publicUrl);
}

type CoreParts = ReturnType<typeof buildCore>;

/** The core services, and the container plugins are built from (each service registered by type). */
function buildCore(
  config: Readonly<TitledConfig>,
  log: Logger,
  db: Database,
  { secret, objects }: { secret: string; objects: SignedObjectStore },
) {
  const pii = createPii(config, db);
  objects.setSealer(objectSealer(pii));
  const outbox = new Outbox(db);
  const store = new EntryStore(db, outbox, pii);
  const perOrganization = config.workers.perOrganization ?? Math.ceil(config.workers.concurrency / 2);
  const queue = new JobQueue(db, { perOrganization, pii });
  // an organization's data key is made with it, never inside a later transaction that could roll it back
  const orgs = new Organizations(db, async (org) => void (pii.enabled && (await pii.keys.active(org.id))));
  const keys = new ApiKeys(db);
  const auth = new Authenticator(config, orgs, keys, secret, new Sessions(db));
  const registry = new StageRegistry();
  const metrics = new Metrics(db);
  const container = rootContainer.createChildContainer();
  container.registerInstance(TOKENS.Config, config);
  container.registerInstance(TOKENS.Logger, log);
  container.registerInstance(TOKENS.Container, container);
  container.registerInstance(Database, db);
  container.registerInstance(Metrics, metrics);
  container.registerInstance(ObjectStore as unknown as new () => ObjectStore, objects);
  container.registerInstance(EntryStore, store);
  container.registerInstance(Outbox, outbox);
  container.registerInstance(JobQueue, queue);
  container.registerInstance(Organizations, orgs);
  container.registerInstance(PiiCodec, pii);
  const cursorKey = createHash('sha256').update(`cursor:${secret}`).digest();
  const service = new TitleService(db, store, queue, registry, objects, config, cursorKey, { log, outbox, container });
  container.registerInstance(TitleService, service);
  container.registerInstance(ApiKeys, keys);
  container.registerInstance(Entries, new Entries(store, (e, ttl, org) => service.present(e, ttl, org)));
  return {
    config,
    log,
    db,
    objects,
    outbox,
    store,
    queue,
    orgs,
    keys,
    auth,
    registry,
    container,
    service,
    pii,
    metrics,
  };
}

/** The engine object over the core's parts: the app, the lifecycle (start, listen, stop) and the library helpers. */
function assemble(parts: CoreParts): Engine {
  const { config, log, db, objects, outbox, store, queue, orgs, keys, auth, registry, container, service, metrics } =
    parts;
  let runner: PipelineRunner | undefined;
  const pruner = new Pruner(db, config.retention, () => registry.plugins(), log);
  const extraRoutes: HttpDeps['extraRoutes'] = [];
  /** Routes and documentation the engine itself adds after the core routes (the console). */
  const extraLate: ((r: Router) => void)[] = [];
  const extraDocs = (): OpenApiContribution[] => [consoleOpenApi()];
  // loaded on the first import (csv-parse is not needed until then)
  const importer: ImportRunner = async (p, input) =>
    (await import('./import/csv-import.js')).importCsv({ service, db, metrics }, p, input);
  extraLate.push((r) =>
    consoleRoutes(r, {
      config,
      auth,
      orgs,
      keys,
      service,
      store,
      db,
      log,
      plugins: () => registry.plugins(),
      importer,
    }),
  );
  let app: Koa | undefined;
  let server: Server | undefined;
  let started = false;

  const ready = async () => {
    const workers = !config.workers.enabled || !!runner?.isRunning;
    const checks: Record<string, boolean> = { database: await db.ping(), workers };
    // a bucket is a service of its own: reachable or not (files on disk always are)
    if (config.storage.kind === 's3') checks.storage = await objects.ping();
    return { ready: Object.values(checks).every(Boolean), checks };
  };

  const engine: Engine = {
    config,
    log,
    db,
    service,
    orgs,
    keys,
    outbox,
    queue,
    objects,
    container,
    pruner,
    pii: parts.pii,
    metrics,
    keyRotation: keyRotation(
      parts.pii,
      [
        { table: 'entries', columns: ['doc', 'sources'], guard: 'version' },
        { table: 'jobs', columns: ['input'], guard: 'updatedAt' },
        { table: 'idempotency_keys', columns: ['body'], id: 'key', guard: 'state' },
      ].map((t) => ({ reseal: (orgId: string) => resealColumn(db, parts.pii, orgId, t) })),
    ),
    get app() {
      const pluginRoutes = registry
        .plugins()
        .filter((p) => p.routes)
        .map((p) => p.routes!.bind(p));
      const lateRoutes = [(r: Router) => docsRoutes(r, () => engine.openapi()), ...extraLate];
      app ??= createApp({
        config,
        log,
        service,
        auth,
        objects,
        ready,
        db,
        pii: parts.pii,
        metrics,
        lateRoutes,
        extraRoutes: [...pluginRoutes, ...extraRoutes],
      });
      return app;
    },
    get stages() {
      return registry.list();
    },
    get plugins() {
      return registry.plugins();
    },
    openapi() {
      return buildOpenApi({
        version: packageVersion(),
        cookieName: config.auth.sessionCookieName,
        serverUrl: config.publicUrl,
        contributions: [
          ...registry
            .plugins()
            .filter((p) => p.openapi)
            .map((p) => p.openapi!()),
          ...extraDocs(),
        ],
      });
    },
    registerStage(stage) {
      if (started) throw new EngineConfigError(`cannot register stage '${stage.name}': the engine has already started`);
      registry.register(guardPlugin(stage));
    },
    addRoutes(fn) {
      if (app) throw new EngineConfigError('cannot add routes after the app was built');
      extraRoutes.push(fn);
    },
    async start() {
      if (started) return;
      const stages = registry.freeze(config.stages);
      started = true;
      if (config.workers.enabled) {
        runner = new PipelineRunner(stages, db, store, outbox, queue, orgs, objects, container, config, log);
        runner.start();
        for (const p of registry.plugins()) await p.start?.();
        pruner.start();
      }
      log.info(
        {
          stages: stages.map((s) => s.name),
          database: db.dialect,
          workers: config.workers.enabled ? config.workers.concurrency : 0,
        },
        'engine started',
      );
    },
    async listen() {
      await engine.start();
      // a daemon's commits never wait for a WAL checkpoint (SQLite; core/db/wal-checkpointer.ts)
      db.backgroundCheckpoints((msg) => log.warn({ code: 'WAL_CHECKPOINT_FALLBACK' }, msg));
      const koa = engine.app;
      server = await new Promise<Server>((res, rej) => {
        const s = koa.listen(config.port, config.host, () => res(s));
        s.once('error', rej);
      });
      server.keepAliveTimeout = 65_000;
      const addr = server.address();
      // without a configured publicUrl, presigned URLs name the port actually bound (port 0 = any free port)
      if (!config.publicUrl && typeof addr === 'object' && addr) objects.setPublicUrl(`http://localhost:${addr.port}`);
      if ((config.databaseUrl || config.storage.kind === 's3') && !config.secret) {
        const why = "no secret configured: daemons sharing this database or bucket refuse each other's links";
        log.warn({ code: 'SECRET_NOT_SHARED' }, why);
      }
      writeDaemonInfo(config, typeof addr === 'object' && addr ? addr.port : config.port, log);
      log.info({ address: typeof addr === 'object' && addr ? `${addr.address}:${addr.port}` : addr }, 'listening');
      return server;
    },
    async stop() {
      if (server) {
        const s = server;
        server = undefined;
        await new Promise<void>((res) => {
          s.close(() => res());
          s.closeIdleConnections?.();
        });
      }
      await pruner.stop();
      removeDaemonInfo(config);
      for (const p of [...registry.plugins()].reverse()) await p.stop?.();
      await runner?.stop();
      await db.close();
      await objects.close();
      container.dispose?.();
    },
    async principalFor(orgName, opts = {}) {
      const org = await orgs.byName(orgName);
      if (!org) throw new TitledError('NOT_FOUND', `no organization '${orgName}'`);
      return { org, userId: opts.userId ?? 'library', groups: opts.groups ?? null, via: 'api_key' };
    },
  };
  return engine;
}
