import { z } from 'zod';
import { CompleteAddressSchema, EngineConfigError } from '../../core/plugin-api.js';

/** The receiving facility: core's complete mailing address (every line, a state code, a ZIP). */
export const ReceivingAddressSchema = CompleteAddressSchema;

/**
 * Options of the title-collection plugin: config `plugins["title-collection"]`
 * (docs/title-collection.md explains each). The carrier webhook secret may
 * also come from TITLED_CARRIER_WEBHOOK_SECRET (it wins, like every TITLED_ variable).
 */
export const TitleCollectionOptionsSchema = z
  .object({
    /** sandbox (mode STUB, no network) or http (mode LIVE, `http.endpoint`). */
    provider: z.enum(['sandbox', 'http']).default('sandbox'),
    http: z
      .object({
        endpoint: z.string().url(),
        apiKey: z.string().optional(),
        timeoutMs: z.number().int().min(1).default(15_000),
      })
      .strict()
      .optional(),
    /** The carrier service asked for. */
    service: z.string().min(1).max(100).default('ground_return'),
    /** The parcel: a flat envelope for one title. */
    parcel: z
      .object({
        length_in: z.number().positive(),
        width_in: z.number().positive(),
        height_in: z.number().positive(),
        weight_oz: z.number().positive(),
        predefined_package: z.string().optional(),
      })
      .strict()
      .default({
        length_in: 12.5,
        width_in: 9.5,
        height_in: 0.25,
        weight_oz: 4,
        predefined_package: 'FlatRateEnvelope',
      }),
    /** How long label and QR URLs are valid after creation (`assets_expires_at`). */
    assetsTtlSeconds: z
      .number()
      .int()
      .min(60)
      .default(30 * 24 * 3600),
    /** Ask the carrier for a QR code for label-less drop-off. */
    qrCode: z.boolean().default(true),
    /** HMAC-SHA256 key of the carrier webhook (POST /title-collection/carrier-events); unset: the route refuses. */
    webhookSecret: z.string().min(16).optional(),
    /** Polling fallback: how often open collections are polled for tracking events (0: never). */
    pollIntervalMs: z
      .number()
      .int()
      .min(0)
      .default(15 * 60_000),
    /** Collections polled per round. */
    pollBatch: z.number().int().min(1).max(1000).default(50),
    /** The receiving facility of organizations that set none (`titled orgs set NAME --receiving-address`). */
    receivingAddress: CompleteAddressSchema.optional(),
  })
  .strict();

export type TitleCollectionOptions = z.infer<typeof TitleCollectionOptionsSchema>;

export function parseOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): TitleCollectionOptions {
  const input: Record<string, unknown> = { ...((raw ?? {}) as Record<string, unknown>) };
  if (env.TITLED_CARRIER_WEBHOOK_SECRET) input.webhookSecret = env.TITLED_CARRIER_WEBHOOK_SECRET;
  const r = TitleCollectionOptionsSchema.safeParse(input);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EngineConfigError(`plugins.title-collection: ${msg}`);
  }
  if (r.data.provider === 'http' && !r.data.http)
    throw new EngineConfigError('plugins.title-collection: provider http needs http.endpoint');
  return r.data;
}
