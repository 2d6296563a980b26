/**
 * zod schemas of the API's bodies beyond the account data (core/model/schemas.ts):
 * answers, the entry, the error body, the sign and submit shapes, the legacy
 * bodies. They exist for the OpenAPI document (core/http/openapi.ts), the one
 * source the typed client (client/) is generated from. Loose objects: the
 * spec's entries carry more members than listed, and clients tolerate new ones.
 *
 * Built on first use (the document is built once, when first asked for), not at
 * start-up: a daemon that never serves /openapi.json keeps none of them.
 */
import { z } from 'zod';
import { ACCOUNT_STATUSES, FORMS_STATUSES, JOB_STATUSES, PHYSICAL_TITLE_STATUSES } from '../status.js';
import { AccountDataSchema, AddressSchema, InsuranceSchema, PersonSchema } from '../model/schemas.js';
import { DOCUMENT_TYPES } from '../model/entry.js';

export type ApiSchemas = ReturnType<typeof build>;
let built: ApiSchemas | undefined;
/** The schemas (built once, on the first call). */
export const apiSchemas = (): ApiSchemas => (built ??= build());

function build() {
  const s = z.string();

  const ErrorBodySchema = z.object({
    error: s.describe('message'),
    statusCode: z.number().int().describe('the HTTP status'),
    disallowedFields: z
      .array(s)
      .optional()
      .describe('the rejected members (PATCH with members other than account_data)'),
  });

  const ActionResultSchema = z.object({ entryId: s, job_status: z.enum(JOB_STATUSES) });
  const FormsResultSchema = z.object({ entryId: s });
  const DeleteResultSchema = z.object({
    statusCode: z.literal(200),
    message: s,
    entryId: s,
    deletedCount: z.number().int(),
  });

  const DocumentUploadSchema = z.looseObject({
    display_name: s,
    store_key: s.describe('presigned URL on reads'),
    document_type: z.enum(DOCUMENT_TYPES).or(s),
    json_path: s.optional().describe('presigned URL of the extraction JSON'),
  });

  const TitleCollectionSchema = z.looseObject({
    collection_id: s,
    mode: z.enum(['STUB', 'LIVE']),
    carrier: s,
    service: s,
    return_address: s,
    instructions: z.array(s),
    created_at: s,
    tracking_number: s.optional(),
    label_url: s.optional(),
    qr_url: s.optional(),
    qr_verified: z.boolean().optional(),
    assets_expires_at: s,
  });

  const DocumentToSignSchema = z.looseObject({
    filename: s.optional(),
    id: s.optional(),
    signer_id: z.array(s).optional(),
    signed_copy: s.optional(),
  });

  const SignatureRequestSchema = z.looseObject({
    id: s,
    type: s.describe('WET_SIGN, RON, ...'),
    status: s.describe('DRAFT, COMPLETED, ...'),
    transaction_access_url: s.optional(),
    redirect_url: z.looseObject({ url: s.optional(), message: s.optional() }).optional(),
    requester_email: s.optional(),
    documents_to_sign: z.array(DocumentToSignSchema).optional(),
    created_at: s.optional(),
    updated_at: s.optional(),
    signers: z.array(PersonSchema).optional(),
    sign_cert: s.optional(),
    collected_dlid: s.optional(),
    full_export: s.optional(),
    physical_tracking: z.looseObject({}).optional(),
    instructions: s.optional(),
    metadata: z.looseObject({}).optional(),
    title_collection: TitleCollectionSchema.optional(),
  });

  const SignRequestBodySchema = z.looseObject({
    signers: z
      .array(PersonSchema.extend({ insurance: InsuranceSchema.nullish(), is_nonobligor: z.boolean().nullish() }))
      .optional(),
    documents_to_sign: z.array(DocumentToSignSchema).optional(),
    redirect_url: s.optional(),
    requester_email: s.optional(),
    instructions: s.optional(),
  });

  const SubmissionSchema = z.looseObject({
    submissionId: s,
    status: s.describe('the submission status (docs/statuses.md)'),
    method: z.enum(['MAIL', 'ONLINE_PORTAL']).optional(),
    intakeMode: z.enum(['MANAGED']).optional(),
    applicationNumber: s.optional(),
    confirmationImg: s.optional().describe('presigned URL of a PNG screenshot'),
    error: s.optional(),
    feedbackMessage: s.optional(),
    rounds: z.array(z.looseObject({})).optional().describe('follow-up document rounds'),
  });

  /** The entry (GET /title/{id}): the spec's required members typed, everything else kept loose. */
  const TitleEntrySchema = z.looseObject({
    website: s,
    entryId: s,
    userId: s,
    user_email: s.optional(),
    job_status: z.enum(JOB_STATUSES),
    createdAt: z.union([z.number(), s]),
    processingStartTime: z.number().optional(),
    processingTimeMs: z.number().optional(),
    last_modified: z.number().optional(),
    groupId: s.nullish(),
    storeIndex: s,
    VIN: s,
    state: s,
    Borrower: s,
    lenderLoanId: s,
    existingEntryId: s.optional(),
    attachment: z.array(DocumentUploadSchema),
    loanData: z.looseObject({}),
    account_data: AccountDataSchema,
    account_status: z.enum(ACCOUNT_STATUSES),
    physical_title_status: z.enum(PHYSICAL_TITLE_STATUSES).optional(),
    forms_status: z.enum(FORMS_STATUSES).optional(),
    tracking_url_provider: s,
    submission_id: s.optional(),
    title_collection: TitleCollectionSchema.optional(),
    signature_requests: z.array(SignatureRequestSchema).optional(),
    fee_estimate: z.looseObject({}).optional(),
    account_facts: z.looseObject({}).optional(),
    account_review: z.looseObject({}).optional(),
  });

  const ListResultSchema = z.object({
    items: z.array(z.union([TitleEntrySchema, z.object({ state: s, count: z.number().int() })])),
    count: z.number().int(),
    nextToken: s.nullable(),
    hasMore: z.boolean(),
    stateMap: z.record(s, z.number().int()).optional().describe('with stateMap=true: entry counts by state'),
  });

  const WebhookPayloadSchema = TitleEntrySchema.extend({
    webhook_events: z.array(s).describe('the subscribed events that triggered this delivery'),
  });

  const LoginResultSchema = z.object({ organization: s, expiresAt: s });
  const LogoutResultSchema = z.object({ statusCode: z.literal(200), message: s });
  const HealthSchema = z.object({ status: z.literal('ok') });
  const ReadySchema = z.object({ status: z.enum(['ready', 'not ready']), checks: z.record(s, z.boolean()) });

  // --- legacy interface (spec: POST /poa, POST /generate_forms) --------------------------------
  const LegacyPoaBodySchema = z.looseObject({
    vin: s,
    owner_email: s,
    pull_live: z.boolean().optional(),
    state: s.optional(),
    owner_full_name: s.optional(),
    owner_address: s.optional(),
    owner_ssn: s.optional(),
    owner_dob: s.optional(),
    owner_phone: s.optional(),
    plate: s.optional(),
    has_coowner: z.boolean().optional(),
    coowner_full_name: s.optional(),
    coowner_address: s.optional(),
    coowner_ssn: s.optional(),
    coowner_dob: s.optional(),
    coowner_phone: s.optional(),
    account_id: s.optional(),
    grantee: s.optional(),
  });
  const LegacyStatusSchema = z.object({ statusCode: s, message: s });
  const LegacyPersonSchema = z.looseObject({
    customer_id: s.optional(),
    full_name: s.optional(),
    dob: s.optional(),
    dlid: z.looseObject({}).optional(),
    ssn: s.optional(),
    addr: AddressSchema.optional(),
    addr_mailing: AddressSchema.optional(),
    contact_phone: s.optional(),
    contact_email: s.optional(),
    insurance: InsuranceSchema.optional(),
    ownership_type: s.optional(),
  });
  const GenerateFormsBodySchema = z.object({
    transaction: z.looseObject({
      request_date: s.optional(),
      id: s.optional(),
      state: s.optional(),
      pull_nmvtis: z.boolean().optional(),
      pull_state_data: z.boolean().optional(),
      borrower: z.array(LegacyPersonSchema).optional(),
      security_agreement_sign_date: s.optional(),
      loan_amount: z.number().optional(),
      new_lienholder: z.looseObject({}).optional(),
      prior_lien: z.looseObject({}).optional(),
      add_owner: z.array(LegacyPersonSchema).optional(),
      drop_owner: z.array(LegacyPersonSchema).optional(),
    }),
    vehicle: z.looseObject({ vin: s }),
  });
  const GenerateFormsResultSchema = z.object({ entryId: s, statusCode: s });
  return {
    ErrorBodySchema,
    ActionResultSchema,
    FormsResultSchema,
    DeleteResultSchema,
    DocumentUploadSchema,
    TitleCollectionSchema,
    SignatureRequestSchema,
    SignRequestBodySchema,
    SubmissionSchema,
    TitleEntrySchema,
    ListResultSchema,
    WebhookPayloadSchema,
    LoginResultSchema,
    LogoutResultSchema,
    HealthSchema,
    ReadySchema,
    LegacyPoaBodySchema,
    LegacyStatusSchema,
    GenerateFormsBodySchema,
    GenerateFormsResultSchema,
  };
}
