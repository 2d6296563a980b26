import { z } from 'zod';
import { EngineConfigError } from '../../core/plugin-api.js';

const ReminderSchema = z
  .object({
    /** Hours after sending before the first reminder, then between reminders. */
    everyHours: z.number().min(0.000001).default(48),
    /** Reminders at most (0: none). */
    max: z.number().int().min(0).max(50).default(3),
  })
  .strict();

/**
 * Options of the signing plugin: config `plugins.signing` (docs/signing.md).
 * `organizations.<name>` overrides the reminder schedule and expiry per organization.
 */
export const SigningOptionsSchema = z
  .object({
    /** Days a request (and its signers' links) stays open after it is sent; then EXPIRED. */
    expiryDays: z.number().min(0.000001).default(30),
    reminders: ReminderSchema.default({ everyHours: 48, max: 3 }),
    organizations: z
      .record(
        z.string(),
        z
          .object({
            expiryDays: z.number().min(0.000001).optional(),
            reminders: ReminderSchema.partial().optional(),
          })
          .strict(),
      )
      .default({}),
    /** Least time between two `?Action=BUMP` re-sends of one request. */
    bumpMinIntervalSeconds: z.number().min(0).default(3600),
    /** How often the background loop looks for reminders and expiries. */
    pollIntervalMs: z.number().int().min(10).default(60_000),
    /** Scheme, host and port of signers' links (default: config publicUrl, else the host the POST /title/{id}/sign came to). */
    publicUrl: z.string().url().optional(),
    /** The organization's sealing certificate: PKCS#12 file and passphrase (default: a self-signed one under dataDir). */
    certificate: z
      .object({ p12File: z.string(), passphrase: z.string().default('') })
      .strict()
      .optional(),
    /** Email over SMTP (nodemailer); without it, no email is sent. */
    smtp: z
      .object({
        host: z.string(),
        port: z.number().int().min(1).max(65535).default(587),
        secure: z.boolean().default(false),
        from: z.string().default('titled <no-reply@localhost>'),
        user: z.string().optional(),
        password: z.string().optional(),
      })
      .strict()
      .optional(),
    /** SMS: `sandbox` records messages in memory (docs/signing.md); `http` POSTs them to `url`. */
    sms: z
      .object({
        provider: z.enum(['sandbox', 'http', 'none']).default('sandbox'),
        url: z.string().url().optional(),
        token: z.string().optional(),
      })
      .strict()
      .default({ provider: 'sandbox' }),
    /** Remote online notarization: `sandbox` completes sessions at once; `http` asks the vendor at `url`. */
    ron: z
      .object({ provider: z.enum(['sandbox', 'http']).default('sandbox'), url: z.string().url().optional() })
      .strict()
      .default({ provider: 'sandbox' }),
    /** Return address printed on WET_SIGN packets. */
    returnAddress: z.string().default(''),
    /** DPI of the page previews shown on the signing page. */
    previewDpi: z.number().int().min(20).max(200).default(60),
  })
  .strict();

export type SigningOptions = z.infer<typeof SigningOptionsSchema>;

export function parseSigningOptions(raw: unknown): SigningOptions {
  const r = SigningOptionsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const what = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EngineConfigError(`plugins.signing: ${what}`);
  }
  return r.data;
}

/** The reminder schedule and expiry that apply to an organization. */
export function scheduleFor(o: SigningOptions, orgName: string): { expiryMs: number; everyMs: number; max: number } {
  const own = o.organizations[orgName];
  const rem = { ...o.reminders, ...own?.reminders };
  return {
    expiryMs: (own?.expiryDays ?? o.expiryDays) * 86_400_000,
    everyMs: rem.everyHours * 3_600_000,
    max: rem.max,
  };
}
