import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { EngineConfigError } from './errors.js';
import { mergePatch } from './merge.js';
import { packageRoot } from './paths.js';

const JwtConfigSchema = z.object({
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
}).refine((j) => j.jwksUrl || j.publicKey, { message: 'auth.jwt needs jwksUrl or publicKey' });

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
  databaseSchema: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional(),
  /** HMAC secret for presigned URLs and session cookies; generated into dataDir when absent. */
  secret: z.string().min(16).optional(),
  bodyLimitBytes: z.number().int().positive().default(10 * 1024 * 1024),
  /** Shape limits of JSON request bodies, checked before parsing (docs/errors.md, Limits). */
  limits: z.object({
    jsonMaxDepth: z.number().int().min(4).max(1000).default(64),
    jsonMaxMembers: z.number().int().min(1).default(10_000),
    jsonMaxStringLength: z.number().int().min(1).default(100_000),
  }).prefault({}),
  /** Enabled stage plugins, in pipeline order. */
  stages: z.array(z.string()).default(['intake']),
  /** Enabled state plugins (two-letter codes); empty = all registered. */
  states: z.array(z.string().length(2)).default([]),
  stageTimeoutMs: z.number().int().positive().default(120_000),
  workers: z.object({
    enabled: z.boolean().default(true),
    concurrency: z.number().int().min(1).max(256).default(4),
    /** Jobs of one organization a daemon runs at once while another organization's jobs wait; default half of `concurrency`, rounded up. */
    perOrganization: z.number().int().min(1).max(256).optional(),
    pollIntervalMs: z.number().int().min(10).default(250),
    leaseMs: z.number().int().min(1000).default(60_000),
    maxAttempts: z.number().int().min(1).max(20).default(3),
    retryBaseMs: z.number().int().min(0).default(2000),
  }).prefault({}),
  presignTtlSeconds: z.number().int().positive().default(3600),
  auth: z.object({
    jwt: JwtConfigSchema.optional(),
    sessionTtlSeconds: z.number().int().positive().default(12 * 3600),
    sessionCookieName: z.string().default('titled_session'),
    /** How long a verified API key stays cached; revocation takes effect within this time. */
    keyCacheMs: z.number().int().min(0).default(5000),
  }).prefault({}),
  /** CORS (docs/operations.md): off while `origins` is empty; `["*"]` allows any origin. */
  cors: z.object({
    origins: z.array(z.string()).default([]),
    /** Lets browsers send cookies cross-origin (the origin is then echoed, never `*`). */
    credentials: z.boolean().default(false),
    maxAgeSeconds: z.number().int().min(0).default(600),
  }).prefault({}),
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
  log: z.object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  }).prefault({}),
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
  if (env.TITLED_LOG_LEVEL) out.log = { level: env.TITLED_LOG_LEVEL };
  if (env.TITLED_CORS_ORIGINS) out.cors = { origins: env.TITLED_CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean) };
  if (env.TITLED_ALLOW_HOSTS) out.allowHosts = env.TITLED_ALLOW_HOSTS.split(',').map((s) => s.trim()).filter(Boolean);
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
export function resolveConfig(overrides: TitledConfigInput | Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): Readonly<TitledConfig> {
  let merged = readJson(join(packageRoot, 'config', 'default.json')) as unknown;
  if (env.TITLED_CONFIG) merged = mergePatch(merged, readJson(resolve(env.TITLED_CONFIG)));
  merged = mergePatch(merged, fromEnv(env));
  merged = mergePatch(merged, overrides);
  const parsed = ConfigSchema.safeParse(merged);
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
