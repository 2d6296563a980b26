import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import type Koa from 'koa';
import type Router from '@koa/router';
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
import { LocalObjectStore, ObjectStore } from './storage/object-store.js';
import { TOKENS } from './tokens.js';
import { BUILTIN_STAGES } from '../plugins/index.js';

export interface EngineOptions {
  /** Plugin classes beyond the built-in ones, by name (a name must still be listed in config `stages` to run). */
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
  readonly container: DependencyContainer;
  /** The Koa app (mount it in your own server, or call `listen`). */
  readonly app: Koa;
  readonly stages: readonly StagePlugin[];
  /** Every enabled plugin (stages and background plugins). */
  readonly plugins: readonly EnginePlugin[];
  /** Adds a stage before `start`; throws once the engine started. */
  registerStage(stage: EnginePlugin): void;
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
 * The library entry point: builds an engine from configuration (merged over
 * config/default.json, TITLED_CONFIG and environment variables), opens the
 * database and runs its migrations. Call `start()` for workers, `listen()`
 * for the HTTP server too.
 */
export async function createEngine(configInput: TitledConfigInput | Record<string, unknown> = {}, options: EngineOptions = {}): Promise<Engine> {
  const config = resolveConfig(configInput);
  const log = createLogger(config.log.level, options.logDestination);
  const known = new Set([...Object.keys(BUILTIN_STAGES), ...Object.keys(options.stages ?? {})]);
  for (const name of config.stages) {
    if (!known.has(name)) throw new EngineConfigError(`config lists stage '${name}', which is not a known stage (known: ${[...known].sort().join(', ')})`);
  }
  // only the plugins the config names are loaded
  const catalog: Record<string, EnginePluginClass> = Object.fromEntries(await Promise.all(
    config.stages.map(async (name) => [name, options.stages?.[name] ?? (await BUILTIN_STAGES[name]!())] as const)));
  const schemas = config.stages.map((n) => catalog[n]!.schema).filter((s): s is PluginSchema => !!s);
  const db = await Database.open(config, schemas);
  try {
    if (options.migrate !== false) await db.migrate();
  } catch (e) {
    await db.close();
    throw e;
  }
  const secret = loadSecret(config);
  const publicUrl = (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, '');
  const objects = new LocalObjectStore(join(resolve(config.dataDir), 'objects'), secret, publicUrl);
  const outbox = new Outbox(db);
  const store = new EntryStore(db, outbox);
  const queue = new JobQueue(db, { perOrganization: config.workers.perOrganization ?? Math.ceil(config.workers.concurrency / 2) });
  const orgs = new Organizations(db);
  const keys = new ApiKeys(db);
  const auth = new Authenticator(config, orgs, keys, secret, new Sessions(db));
  const registry = new StageRegistry();

  const container = rootContainer.createChildContainer();
  container.registerInstance(TOKENS.Config, config);
  container.registerInstance(TOKENS.Logger, log);
  container.registerInstance(Database, db);
  container.registerInstance(ObjectStore as unknown as new () => ObjectStore, objects);
  container.registerInstance(EntryStore, store);
  container.registerInstance(Outbox, outbox);
  container.registerInstance(JobQueue, queue);
  container.registerInstance(Organizations, orgs);

  const service = new TitleService(db, store, queue, registry, objects, config, createHash('sha256').update(`cursor:${secret}`).digest(), { log, outbox, container });
  container.registerInstance(TitleService, service);
  container.registerInstance(ApiKeys, keys);
  for (const name of config.stages) {
    const cls = catalog[name]!;
    container.register(cls, { useClass: cls });
    const plugin = container.resolve<EnginePlugin>(cls);
    if (plugin.name !== name) throw new EngineConfigError(`stage class for '${name}' calls itself '${plugin.name}'`);
    registry.register(plugin);
  }

  let runner: PipelineRunner | undefined;
  const extraRoutes: HttpDeps['extraRoutes'] = [];
  let app: Koa | undefined;
  let server: Server | undefined;
  let started = false;

  const ready = async () => {
    const checks = { database: await db.ping(), workers: !config.workers.enabled || !!runner?.isRunning };
    return { ready: checks.database && checks.workers, checks };
  };

  const engine: Engine = {
    config, log, db, service, orgs, keys, outbox, queue, objects, container,
    get app() {
      const pluginRoutes = registry.plugins().filter((p) => p.routes).map((p) => p.routes!.bind(p));
      app ??= createApp({ config, log, service, auth, objects, ready, extraRoutes: [...pluginRoutes, ...extraRoutes] });
      return app;
    },
    get stages() {
      return registry.list();
    },
    get plugins() {
      return registry.plugins();
    },
    registerStage(stage) {
      if (started) throw new EngineConfigError(`cannot register stage '${stage.name}': the engine has already started`);
      registry.register(stage);
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
      }
      log.info({ stages: stages.map((s) => s.name), database: db.dialect, workers: config.workers.enabled ? config.workers.concurrency : 0 }, 'engine started');
    },
    async listen() {
      await engine.start();
      const koa = engine.app;
      server = await new Promise<Server>((res, rej) => {
        const s = koa.listen(config.port, config.host, () => res(s));
        s.once('error', rej);
      });
      server.keepAliveTimeout = 65_000;
      const addr = server.address();
      // without a configured publicUrl, presigned URLs name the port actually bound (port 0 = any free port)
      if (!config.publicUrl && typeof addr === 'object' && addr) objects.setPublicUrl(`http://localhost:${addr.port}`);
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
      for (const p of [...registry.plugins()].reverse()) await p.stop?.();
      await runner?.stop();
      await db.close();
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
