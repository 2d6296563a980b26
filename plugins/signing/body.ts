/** The body of POST /title/{id}/sign (spec), validated. */
import { z } from 'zod';
import { parseInput } from '../../core/plugin-api.js';

const str = z.string().max(2000);
const Address = z.object({}).passthrough();
export const SignerInputSchema = z
  .object({
    name: str.optional(),
    addr: Address.optional(),
    dob: str.optional(),
    id: z.string().max(200).optional(),
    name_first: str.optional(),
    name_middle: str.optional(),
    name_last: str.optional(),
    name_suffix: str.optional(),
    oats_names: z.array(str).max(20).optional(),
    contact_phone: str.optional(),
    contact_email: z.string().email().max(300).optional(),
    ssn: str.optional(),
    insurance: z.object({}).passthrough().optional(),
    is_nonobligor: z.boolean().optional(),
  })
  .passthrough();

export const DocumentInputSchema = z
  .object({
    filename: str.optional(),
    /** The entry member (`form_title_application`, `forms_poa[1]`) or an object key of the entry. */
    id: z.string().min(1).max(1024),
    signer_id: z.array(z.string().max(200)).max(20).optional(),
    signed_copy: str.optional(),
  })
  .passthrough();

export const SignBodySchema = z
  .object({
    signers: z.array(SignerInputSchema).max(20).optional(),
    documents_to_sign: z.array(DocumentInputSchema).max(50).optional(),
    redirect_url: z
      .union([z.string().url().max(2000), z.object({ url: z.string().url().max(2000), message: str.optional() })])
      .optional(),
    requester_email: z.string().email().max(300).optional(),
    instructions: z.string().max(4000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** Beyond the spec: force a request type (default: chosen from the state's rules). */
    type: z.enum(['E_SIGN', 'WET_SIGN', 'RON']).optional(),
  })
  .strict();

export type SignBody = z.infer<typeof SignBodySchema>;

export function parseSignBody(raw: unknown): SignBody {
  return parseInput(SignBodySchema, raw ?? {}) as SignBody;
}
