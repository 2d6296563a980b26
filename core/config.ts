import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { EngineConfigError } from './errors.js';
import { mergePatch } from './merge.js';
import { packageRoot } from './paths.js';

const JwtConfigSchema = z
  .object({
    /** JWKS endpoint of the identity provider. One of jwksUrl or publicKey. */
    jwksUrl: z.string().url().optional(),
    /** PEM (SPKI) public key, or a JWK as JSON text. */
    publicKey: z.string().optional(),
    issuer: z.string(),
    audience: z.string(),
    /** Claim holding the organization name (the `website` identifier). */
    orgClaim: z.string().default('org'),
    /** Claim holding the user's groups (array of strings); absent = no group restriction. */
    groupsClaim: z.string().default('groups'),
    userClaim: z.string().default('sub'),
    emailClaim: z.string().default('email'),
    /** Claim holding the user's role: `viewer` makes them read-only; anything else is an operator (docs/console.md). */
    roleClaim: z.string().default('titled_role'),
    algorithms: z.array(z.string()).default(['RS256', 'ES256', 'EdDSA', 'PS256']),
  })
  .refine((j) => j.jwksUrl || j.publicKey, { message: 'auth.jwt needs jwksUrl or publicKey' });

/** Where stored objects live (docs/storage.md): files under `<dataDir>/objects`, or an S3-compatible bucket. */
const StorageConfigSchema = z
  .object({
    kind: z.enum(['local', 's3']).default('local'),
    /** S3: the bucket (it must exist). */
    bucket: z.string().min(3).optional(),
    region: z.string().default('us-east-1'),
    /** S3-compatible endpoint URL (MinIO, s3rver, ...); absent: AWS's regional endpoint. */
    endpoint: z.string().url().optional(),
    /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which most S3-compatible servers need. */
    forcePathStyle: z.boolean().default(false),
    /** Static credentials; absent: the AWS SDK's default chain (AWS_ACCESS_KEY_ID, profile, instance role). */
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    sessionToken: z.string().min(1).optional(),
    /** Prepended to every object key in the bucket. */
    prefix: z
      .string()
      .regex(/^([A-Za-z0-9][A-Za-z0-9._\-/]*)?$/)
      .default(''),
    /** `redirect`: file URLs answer 302 to a presigned GET of the bucket; `proxy`: the daemon streams the object. */
    download: z.enum(['redirect', 'proxy']).default('redirect'),
  })
  .refine((s) => s.kind !== 's3' || !!s.bucket, { message: 'storage.kind s3 needs storage.bucket' })
  .refine((s) => !s.accessKeyId === !s.secretAccessKey, {
    message: 'storage needs both accessKeyId and secretAccessKey, or neither',
  });

/** Background removal of rows whose work is done (docs/storage.md, Pruning). */
const RetentionConfigSchema = z
  .object({
    /** How often the loop runs; 0 turns pruning off. */
    intervalMs: z
      .number()
      .int()
      .min(0)
      .default(10 * 60_000),
    /** Outbox rows dispatched (or, without a webhook plugin, written) longer ago than this are removed. */
    outboxMs: z
      .number()
      .int()
      .min(60_000)
      .default(7 * 24 * 3600_000),
    /** Failed jobs (finished ones are deleted when they finish) whose last change is older than this are removed. */
    jobsMs: z
      .number()
      .int()
      .min(60_000)
      .default(30 * 24 * 3600_000),
    /** Webhook deliveries that ended (delivered or failed) longer ago than this are removed. */
    deliveriesMs: z
      .number()
      .int()
      .min(60_000)
      .default(30 * 24 * 3600_000),
    /** Rows removed per statement (keeps each transaction short). */
    batchSize: z.number().int().min(1).max(100_000).default(1000),
  })
  .prefault({});

export const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().default('127.0.0.1'),
  /** Base URL clients reach the daemon at; presigned URLs start with it. Default http://localhost:<port>. */
  publicUrl: z.string().url().optional(),
  dataDir: z.string().default('./data'),
  /** Trust X-Forwarded-* headers (behind a TLS-terminating proxy: session cookies get Secure). */
  trustProxy: z.boolean().default(false),
  /** postgres://... selects PostgreSQL; absent selects SQLite in dataDir. */
  databaseUrl: z.string().optional(),
  /** PostgreSQL schema (default public); tests use one schema per run. */
  databaseSchema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  /** HMAC secret for presigned URLs and session cookies; generated into dataDir when absent. */
  secret: z.string().min(16).optional(),
  bodyLimitBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Shape limits of JSON request bodies, checked before parsing (docs/errors.md, Limits). */
  limits: z
    .object({
      jsonMaxDepth: z.number().int().min(4).max(1000).default(64),
      jsonMaxMembers: z.number().int().min(1).default(10_000),
      jsonMaxStringLength: z.number().int().min(1).default(100_000),
    })
    .prefault({}),
  /** Enabled stage plugins, in pipeline order. */
  stages: z.array(z.string()).default(['intake']),
  /** Enabled state plugins (two-letter codes); empty = all registered. */
  states: z.array(z.string().length(2)).default([]),
  stageTimeoutMs: z.number().int().positive().default(120_000),
  workers: z
    .object({
      enabled: z.boolean().default(true),
      concurrency: z.number().int().min(1).max(256).default(4),
      /** Jobs of one organization a daemon runs at once while another organization's jobs wait; default half of `concurrency`, rounded up. */
      perOrganization: z.number().int().min(1).max(256).optional(),
      pollIntervalMs: z.number().int().min(10).default(250),
      leaseMs: z.number().int().min(1000).default(60_000),
      maxAttempts: z.number().int().min(1).max(20).default(3),
      retryBaseMs: z.number().int().min(0).default(2000),
      /** PostgreSQL: LISTEN/NOTIFY wakes every daemon's workers when a job is enqueued (polling stays). */
      notify: z.boolean().default(true),
    })
    .prefault({}),
  presignTtlSeconds: z.number().int().positive().default(3600),
  storage: StorageConfigSchema.prefault({}),
  retention: RetentionConfigSchema,
  auth: z
    .object({
      jwt: JwtConfigSchema.optional(),
      sessionTtlSeconds: z
        .number()
        .int()
        .positive()
        .default(12 * 3600),
      sessionCookieName: z.string().default('titled_session'),
      /** How long a verified API key stays cached; revocation takes effect within this time. */
      keyCacheMs: z.number().int().min(0).default(5000),
    })
    .prefault({}),
  /** PII at rest: envelope encryption of SSNs, dates of birth and license numbers (docs/security.md). */
  encryption: z
    .object({
      /** Seal PII on write (reads always open what was sealed). */
      enabled: z.boolean().default(true),
      /** Where master keys live: `local` (masterKey, else a key file) or `http` (a KMS-style service). */
      provider: z.enum(['local', 'http']).default('local'),
      /** The master key, base64 of 32 bytes (openssl rand -base64 32); absent: the key file. */
      masterKey: z.string().optional(),
      /** Earlier master keys, kept while `titled keys rotate-master` wraps the data keys again. */
      previousMasterKeys: z.array(z.string()).default([]),
      /** The master key file (default `<dataDir>/master.key`, created 0600 at first start). */
      keyFile: z.string().optional(),
      http: z
        .object({
          url: z.string().url(),
          token: z.string().optional(),
          timeoutMs: z.number().int().positive().default(5000),
        })
        .optional(),
      /** How long a process trusts its cached active data key version (another process may rotate it). */
      activeKeyCacheMs: z.number().int().min(0).default(30_000),
    })
    .prefault({}),
  /** `Idempotency-Key` on POST requests (docs/security.md). */
  idempotency: z
    .object({
      /** How long a key and its first response are kept, per organization. */
      ttlSeconds: z
        .number()
        .int()
        .min(1)
        .default(24 * 3600),
      /** A first request still running after this long is taken for dead (its key is free again). */
      lockSeconds: z.number().int().min(1).default(300),
      /** Largest response body kept for replay; a larger one is not replayable (the key is released). */
      maxResponseBytes: z
        .number()
        .int()
        .min(1024)
        .default(1024 * 1024),
    })
    .prefault({}),
  /** Request rate limits (README, Rate limits): a fixed window per credential and per organization; 0 turns one off. */
  rateLimit: z
    .object({
      enabled: z.boolean().default(true),
      windowSeconds: z.number().int().min(1).default(60),
      perCredential: z.number().int().min(0).default(600),
      perOrganization: z.number().int().min(0).default(3000),
      /**
       * `memory`: counters in each process (N daemons allow N times the limit); `postgres`: one table every daemon on
       * the database shares (PostgreSQL only); `auto` (default): `postgres` on PostgreSQL, else `memory`.
       */
      store: z.enum(['auto', 'memory', 'postgres']).default('auto'),
    })
    .prefault({}),
  /** CORS (docs/operations.md): off while `origins` is empty; `["*"]` allows any origin. */
  cors: z
    .object({
      origins: z.array(z.string()).default([]),
      /** Lets browsers send cookies cross-origin (the origin is then echoed, never `*`). */
      credentials: z.boolean().default(false),
      maxAgeSeconds: z.number().int().min(0).default(600),
    })
    .prefault({}),
  /** Hosts or CIDRs exempted from the outbound URL guard (local testing). */
  allowHosts: z.array(z.string()).default([]),
  /** Per-source provider settings, read by the plugins that own the sources. */
  providers: z.record(z.string(), z.unknown()).default({}),
  /**
   * Plugins from modules outside the package, by name: a path (absolute, or
   * relative to the working directory) of an ES module whose default export
   * is the plugin class. The name must also be listed in `stages` to run.
   */
  pluginModules: z.record(z.string(), z.string().min(1)).default({}),
  /** Per-stage plugin options, keyed by stage name. */
  plugins: z.record(z.string(), z.unknown()).default({}),
  log: z
    .object({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    })
    .prefault({}),
});

export type TitledConfig = z.infer<typeof ConfigSchema>;
export type TitledConfigInput = z.input<typeof ConfigSchema>;

/** Environment variables and the config members they set (docs: README, Configuration). */
function fromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (env.PORT) out.port = env.PORT;
  if (env.TITLED_HOST) out.host = env.TITLED_HOST;
  if (env.TITLED_PUBLIC_URL) out.publicUrl = env.TITLED_PUBLIC_URL;
  if (env.TITLED_DATA_DIR) out.dataDir = env.TITLED_DATA_DIR;
  if (env.DATABASE_URL) out.databaseUrl = env.DATABASE_URL;
  if (env.TITLED_SECRET) out.secret = env.TITLED_SECRET;
  if (env.TITLED_MASTER_KEY) out.encryption = { masterKey: env.TITLED_MASTER_KEY };
  if (env.TITLED_LOG_LEVEL) out.log = { level: env.TITLED_LOG_LEVEL };
  if (env.TITLED_CORS_ORIGINS)
    out.cors = {
      origins: env.TITLED_CORS_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (env.TITLED_ALLOW_HOSTS)
    out.allowHosts = env.TITLED_ALLOW_HOSTS.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return out;
}

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new EngineConfigError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
}

/**
 * Builds the frozen configuration: config/default.json, then the file named by
 * TITLED_CONFIG, then environment variables, then `overrides` (library callers,
 * CLI flags), each merged over the one before; validated once with zod.
 */
export function resolveConfig(
  overrides: TitledConfigInput | Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = process.env,
): Readonly<TitledConfig> {
  let merged = readJson(join(packageRoot, 'config', 'default.json')) as unknown;
  if (env.TITLED_CONFIG) merged = mergePatch(merged, readJson(resolve(env.TITLED_CONFIG)));
  merged = mergePatch(merged, fromEnv(env));
  merged = mergePatch(merged, overrides);
  // parsed once per process: zod's compiled fast path (generated and compiled per object schema on its first parse)
  // would cost more than it saves, and stay in memory for good (docs/operations.md, "Memory")
  const parsed = ConfigSchema.safeParse(merged, { jitless: true });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EngineConfigError(`invalid configuration: ${detail}`);
  }
  return deepFreeze(parsed.data);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
