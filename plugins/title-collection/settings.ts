/**
 * The organization settings of physical title collection (stored in the
 * organization's `settings`, docs/title-collection.md):
 *   title_collection        boolean  enrolled in physical title collection
 *   physical_title_events   boolean  `title.physical_title_status.*` webhooks (read by the webhook plugin)
 *   receiving_address       object   the receiving facility (core's CompleteAddress)
 * Set from the CLI (`titled orgs set`) and the API (PATCH /title-collection/settings).
 */
import { z } from 'zod';
import { TitledError, describeZodError, type CompleteAddress, type Organization } from '../../core/plugin-api.js';
import { ReceivingAddressSchema } from './options.js';

export const OrgSettingsSchema = z
  .object({
    title_collection: z.boolean().optional(),
    physical_title_events: z.boolean().optional(),
    receiving_address: ReceivingAddressSchema.nullable().optional(),
  })
  .strict();
export type OrgSettingsPatch = z.infer<typeof OrgSettingsSchema>;

export function parseOrgSettings(body: unknown): OrgSettingsPatch {
  const r = OrgSettingsSchema.safeParse(body);
  if (!r.success) throw new TitledError('INVALID_INPUT', describeZodError(r.error));
  return r.data;
}

export const isEnrolled = (org: Readonly<Organization>): boolean => org.settings.title_collection === true;

export function receivingAddressOf(org: Readonly<Organization>): CompleteAddress | undefined {
  const r = ReceivingAddressSchema.safeParse(org.settings.receiving_address);
  return r.success ? r.data : undefined;
}

/** The settings as the API shows them. */
export function settingsView(org: Readonly<Organization>): Record<string, unknown> {
  return {
    organization: org.name,
    title_collection: isEnrolled(org),
    physical_title_events: org.settings.physical_title_events === true,
    receiving_address: receivingAddressOf(org) ?? null,
  };
}

/**
 * A receiving address from the command line: a JSON object, or
 * `Name, street1[, street2], City, ST 12345` (commas between the parts).
 */
export function parseAddressArg(text: string): CompleteAddress {
  const t = text.trim();
  let raw: unknown;
  if (t.startsWith('{')) {
    try {
      raw = JSON.parse(t);
    } catch {
      throw new TitledError('INVALID_INPUT', '--receiving-address: not valid JSON');
    }
  } else {
    const parts = t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const m = /^([A-Za-z]{2})\s+(\d{5}(?:-\d{4})?)$/.exec(parts.at(-1) ?? '');
    if (parts.length < 4 || parts.length > 5 || !m) {
      throw new TitledError(
        'INVALID_INPUT',
        '--receiving-address: write "Name, street1[, street2], City, ST 12345" or a JSON object',
      );
    }
    const [name, street1, ...rest] = parts.slice(0, -1);
    const city = rest.pop();
    raw = {
      recipient_name: name,
      street1,
      ...(rest[0] ? { street2: rest[0] } : {}),
      city,
      state: m[1]!.toUpperCase(),
      zip: m[2],
    };
  }
  const r = ReceivingAddressSchema.safeParse(raw);
  if (!r.success) throw new TitledError('INVALID_INPUT', `--receiving-address: ${describeZodError(r.error)}`);
  return r.data;
}
