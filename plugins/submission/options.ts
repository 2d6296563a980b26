import { z } from 'zod';
import { CompleteAddressSchema, EngineConfigError } from '../../core/plugin-api.js';

const PortalSchema = z
  .object({
    /** The driver (plugins/submission/portal/drivers.ts): `fake-portal` is the only one shipped. */
    driver: z.string().min(1),
    /** The portal's base URL. */
    url: z.string().url(),
    username: z.string().default('titled'),
    password: z.string().default('titled'),
  })
  .strict();

/**
 * An outbound label for every MAIL packet, bought through the title-collection plugin's carrier
 * (COLLABORATORS.titleCollection.shipper); unset: no label, an operator records SUBMITTED.
 */
export const MailCarrierSchema = z
  .object({
    /** The carrier service asked for. */
    service: z.string().min(1).max(100).default('priority'),
    /** The parcel: a flat envelope holding the packet (inches, ounces). */
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
        height_in: 0.5,
        weight_oz: 8,
        predefined_package: 'FlatRateEnvelope',
      }),
    /** The sender on every label (the mail room); unset: the entry's new lienholder's address. */
    fromAddress: CompleteAddressSchema.optional(),
    /** How often open shipments are polled for tracking events (0: never; the webhook or simulate only). */
    pollIntervalMs: z
      .number()
      .int()
      .min(0)
      .default(15 * 60_000),
    /** Shipments polled per round. */
    pollBatch: z.number().int().min(1).max(1000).default(50),
  })
  .strict();

/**
 * Options of the submission plugin (config `plugins.submission`); docs/submission.md explains each.
 */
export const SubmissionOptionsSchema = z
  .object({
    /** Online portals by filing state (two-letter code) or `*` for every state without its own. */
    portals: z.record(z.string(), PortalSchema).default({}),
    /** Starts the shipped fake state portal on loopback and uses it as the `*` portal (sandbox, tests). */
    fakePortal: z
      .object({ start: z.boolean().default(false), port: z.number().int().min(0).max(65535).default(0) })
      .strict()
      .default({ start: false, port: 0 }),
    /**
     * Organizations whose principals act as operators (the /submissions routes and every
     * organization's submissions). The CLI needs none: it runs on the operator's machine.
     */
    operatorOrgs: z.array(z.string().min(1)).default([]),
    /** Portal submissions the worker drives at once (one browser context each). */
    concurrency: z.number().int().min(1).max(32).default(2),
    /** How often the worker looks for work. */
    pollIntervalMs: z.number().int().min(5).default(1000),
    /** Time between two status checks of a filed portal submission. */
    statusPollMs: z.number().int().min(1).default(60_000),
    /** Tries of one portal step before the submission is ERROR. */
    maxAttempts: z.number().int().min(1).max(20).default(3),
    /** Delay before the first retry; doubled each time. */
    retryBaseMs: z.number().int().min(0).default(30_000),
    /** How long a worker holds a claimed submission. */
    leaseMs: z.number().int().min(1000).default(300_000),
    /** A submission UNDER_REVIEW longer than this moves account_status to lien_delay (default 30 days). */
    lienDelayAfterMs: z
      .number()
      .int()
      .min(0)
      .default(30 * 24 * 3600 * 1000),
    /**
     * Chromium's path (playwright-core drives it); unset: /usr/bin/chromium-headless-shell when installed, else
     * /usr/bin/chromium (portal/browser.ts, chromiumExecutable).
     */
    chromiumPath: z.string().min(1).optional(),
    /** Time limit of one page action, ms. */
    actionTimeoutMs: z.number().int().min(100).default(30_000),
    /** Largest follow-up document fetched, bytes. */
    maxDocumentBytes: z
      .number()
      .int()
      .min(1)
      .default(20 * 1024 * 1024),
    /** Outbound carrier labels for MAIL packets (docs/submission.md, "MAIL: the carrier label"). */
    mailCarrier: MailCarrierSchema.optional(),
  })
  .strict();

export type SubmissionOptions = z.infer<typeof SubmissionOptionsSchema>;
export type MailCarrierOptions = z.infer<typeof MailCarrierSchema>;

export function parseSubmissionOptions(raw: unknown): SubmissionOptions {
  const r = SubmissionOptionsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EngineConfigError(`plugins.submission: ${msg}`);
  }
  return r.data;
}
