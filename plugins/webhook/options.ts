import { z } from 'zod';
import { definePluginOptions, EngineConfigError } from '../../core/plugin-api.js';

/**
 * Options of the webhook plugin: config `plugins.webhook`, and the
 * environment variable TITLED_WEBHOOK_RETRY_BASE_MS (it wins over config
 * files, like every TITLED_ variable). docs/webhooks.md explains each.
 */
const WebhookOptionsDef = definePluginOptions('webhook', {
  /** Time limit of one attempt (spec Limits: 10 seconds). */
  timeoutMs: z.number().int().min(1).default(10_000),
  /** Delay before the first retry; each next retry doubles it, plus up to 25 % jitter. */
  retryBaseMs: z.number().int().min(0).default(60_000),
  /** Retries after the first attempt (spec Limits: up to 3). */
  maxRetries: z.number().int().min(0).max(10).default(3),
  /** How long a claimed delivery stays with its worker; a worker that died loses it after this. Longer than timeoutMs. */
  leaseMs: z.number().int().min(100).optional(),
  /** How often the dispatcher and the senders look for work when nothing woke them. */
  pollIntervalMs: z.number().int().min(5).default(200),
  /** Deliveries in flight at once in this process. */
  concurrency: z.number().int().min(1).max(512).default(32),
  /** Outbox events turned into deliveries per transaction. */
  batchSize: z.number().int().min(1).max(5000).default(500),
  /** Validity of presigned URLs in delivered bodies (spec Limits: 1 hour). */
  presignTtlSeconds: z.number().int().min(1).default(3600),
});
export const WebhookOptionsSchema = WebhookOptionsDef.schema;

export type WebhookOptions = z.infer<typeof WebhookOptionsSchema> & { leaseMs: number };

export function parseWebhookOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): WebhookOptions {
  const input: Record<string, unknown> = { ...((raw ?? {}) as Record<string, unknown>) };
  const envBase = env.TITLED_WEBHOOK_RETRY_BASE_MS;
  if (envBase !== undefined && envBase !== '') {
    if (!/^\d+$/.test(envBase))
      throw new EngineConfigError(
        `TITLED_WEBHOOK_RETRY_BASE_MS must be a whole number of milliseconds, not '${envBase}'`,
      );
    input.retryBaseMs = Number(envBase);
  }
  const o = WebhookOptionsDef.parse(input);
  return { ...o, leaseMs: o.leaseMs ?? o.timeoutMs + 30_000 };
}

/** Delay before retry number `retry` (1-based): base * 2^(retry-1), plus 0-25 % jitter so failed receivers are not hit in lockstep. */
export function retryDelayMs(base: number, retry: number, random = Math.random): number {
  const d = base * 2 ** (retry - 1);
  return Math.round(d + d * 0.25 * random());
}
