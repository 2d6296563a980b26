/**
 * Provider options (config `providers.<source>`), validated once by zod.
 * `{ "provider": "sandbox" }` is the default for every source.
 */
import { z } from 'zod';
import { US_STATES, EngineConfigError } from '../../../core/plugin-api.js';

export const SandboxOptionsSchema = z
  .object({
    provider: z.literal('sandbox'),
    /** NMVTIS only: answer `unavailable` in the real maintenance windows (daily 06:00-07:00 UTC, Sundays 06:00-10:00 UTC). */
    maintenance: z.boolean().default(true),
  })
  .strict();

export const HttpOptionsSchema = z
  .object({
    provider: z.literal('http'),
    /** The gateway endpoint for this source (docs/providers.md); checked by the outbound URL guard. */
    url: z.string().url(),
    /** Sent as `Authorization: Bearer <apiKey>`. */
    apiKey: z.string().min(1).optional(),
    /** Sent as `Authorization: Basic base64(username:password)` (when no apiKey). */
    username: z.string().min(1).optional(),
    password: z.string().optional(),
    /** Extra request headers (e.g. a partner key). */
    headers: z.record(z.string(), z.string()).default({}),
    /** Time limit of one attempt. */
    timeoutMs: z.number().int().min(1).default(10_000),
    /** Retries after the first attempt, on 5xx, 408, 429, timeouts and connection errors. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Backoff: base * 2^(retry-1), capped at retryMaxMs, with jitter (50-100%). */
    retryBaseMs: z.number().int().min(0).default(250),
    retryMaxMs: z.number().int().min(0).default(5_000),
    /** Requests in flight to this provider at most (also the keep-alive socket pool size). */
    concurrency: z.number().int().min(1).max(1024).default(16),
    /** Requests started per second at most (0 = no limit). */
    ratePerSecond: z.number().min(0).default(0),
    /** States this gateway serves (state, portal, public); absent = all. Other states are `skipped`. */
    states: z.array(z.enum(US_STATES)).optional(),
  })
  .strict();

const NoneOptionsSchema = z.object({ provider: z.literal('none') }).strict();

const ProviderOptionsSchema = z.discriminatedUnion('provider', [
  SandboxOptionsSchema,
  HttpOptionsSchema,
  NoneOptionsSchema,
]);
export type SandboxOptions = z.infer<typeof SandboxOptionsSchema>;
export type HttpOptions = z.infer<typeof HttpOptionsSchema>;
export type ProviderOptions = z.infer<typeof ProviderOptionsSchema>;

/** Parses `providers.<source>` (absent = sandbox); a bad value is a start-up error naming the source. */
export function parseProviderOptions(source: string, raw: unknown): ProviderOptions {
  const r = ProviderOptionsSchema.safeParse(raw ?? { provider: 'sandbox' });
  if (!r.success) {
    const detail = r.error.issues
      .map((i) => `${['providers', source, ...i.path.map(String)].join('.')}: ${i.message}`)
      .join('; ');
    throw new EngineConfigError(`invalid provider options: ${detail}`);
  }
  return r.data;
}
