/**
 * The OpenAPI 3.1 document (GET /openapi.json), generated from the zod
 * schemas with zod 4's own JSON Schema output (`z.toJSONSchema` over a
 * registry, so shared shapes are `$ref`s into `components.schemas`).
 *
 * Core documents its own routes here. A plugin that adds routes documents
 * them with an optional `openapi()` member (EnginePlugin) returning path items
 * and the zod schemas they reference; test/openapi/openapi.test.ts fails when
 * a route of the app is missing from the document.
 */
import { z } from 'zod';
import { ERROR_CATALOG as ERRORS } from '../errors.js';
import * as M from '../model/schemas.js';
import { ACCOUNT_STATUSES, JOB_STATUSES, PHYSICAL_TITLE_STATUSES } from '../status.js';
import { apiSchemas } from './api-schemas.js';

/** An OpenAPI path item (`{ get: {...}, post: {...} }`), as plain JSON. */
export type PathItem = Record<string, unknown>;

/** What a plugin adds to the document (EnginePlugin `openapi()`). */
export interface OpenApiContribution {
  /** Path items by OpenAPI path (`/title/{id}/sign`); a path core documents too is replaced by the plugin's. */
  paths?: Record<string, PathItem>;
  /** zod schemas to add to `components.schemas` under these names; reference them as `#/components/schemas/<name>`. */
  schemas?: Record<string, z.ZodType>;
  /** Entries of the document's `webhooks` section. */
  webhooks?: Record<string, PathItem>;
}

/** A `$ref` to a component schema. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: unknown, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

/** Error responses by status, each listing the error codes (core/errors.ts) that answer it. */
function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const [code, e] of Object.entries(ERRORS))
    byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), `${code} (${e.message})`]);
  byStatus.set(400, [...(byStatus.get(400) ?? []), 'malformed HTTP request']);
  byStatus.set(431, ['request line or headers too large']);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [`Error${status}`, json(ref('ErrorBody'), `Error body. Codes: ${codes.join('; ')}`)]),
  );
}
const errs = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/Error${s}` }]));

export interface Op {
  summary: string;
  tags: string[];
  body?: unknown;
  ok?: unknown;
  okStatus?: number;
  errors?: number[];
  public?: boolean;
  params?: unknown[];
  description?: string;
}
/** One operation: summary, tags, JSON body, the OK answer and the error answers by status (the shared error bodies). */
export function op(o: Op): Record<string, unknown> {
  return {
    summary: o.summary,
    tags: o.tags,
    ...(o.description ? { description: o.description } : {}),
    ...(o.public ? { security: [] } : {}),
    ...(o.params ? { parameters: o.params } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses: { [String(o.okStatus ?? 200)]: o.ok ?? { description: 'OK' }, ...errs(...(o.errors ?? [])) },
  };
}
export const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
export const idParam = pathParam('id', 'the entryId (a duplicate pointer resolves to its canonical entry)');
const query = (name: string, schema: unknown, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const AUTH_ERRORS = [400, 403, 404, 500];

/** The title API (spec: Endpoints). */
function titlePaths(): Record<string, PathItem> {
  const t = ['title'];
  const a = ['actions'];
  return {
    '/title': {
      post: op({
        summary: 'Create an entry (or update the entry with the same VIN)',
        tags: t,
        ok: json(ref('ActionResult')),
        body: {
          oneOf: [
            ref('CreateTitleBody'),
            { type: 'array', items: { type: 'string', format: 'uri' }, description: 'legacy: document URLs' },
          ],
        },
        errors: [400, 403, 409, 413, 415, 500],
      }),
      get: op({
        summary: 'List entries',
        tags: t,
        ok: json(ref('ListResult')),
        errors: [400, 403, 500],
        params: [
          query('vin', { type: 'string' }, 'exact VIN'),
          query('groupId', { type: 'string' }, 'group'),
          query('state', { type: 'string', minLength: 2, maxLength: 2 }, 'two-letter state'),
          query('job_status', { type: 'string', enum: [...JOB_STATUSES] }, 'job status'),
          query('account_status', { type: 'string', enum: [...ACCOUNT_STATUSES] }, 'account status'),
          query('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }, 'page size'),
          query('nextToken', { type: 'string' }, "the previous page's nextToken"),
          query('stateMap', { type: 'string', enum: ['true', 'false'] }, 'true: counts by state instead of entries'),
        ],
      }),
    },
    '/title/{id}': {
      parameters: [idParam],
      get: op({
        summary: 'Get an entry (object paths as presigned URLs)',
        tags: t,
        ok: json(ref('TitleEntry')),
        errors: AUTH_ERRORS,
      }),
      patch: op({
        summary: 'Merge account_data into the entry (RFC 7396)',
        tags: t,
        body: ref('PatchTitleBody'),
        ok: json(ref('TitleEntry')),
        errors: [400, 403, 404, 409, 413, 415, 500],
      }),
      delete: op({
        summary: 'Delete the entry and its duplicate pointers',
        tags: t,
        ok: json(ref('DeleteResult')),
        errors: AUTH_ERRORS,
      }),
    },
    '/title/{id}/data': {
      parameters: [idParam],
      post: op({
        summary: 'Request an enrichment job',
        tags: a,
        body: ref('SyncFlags'),
        ok: json(ref('ActionResult')),
        errors: [400, 403, 409, 500, 501],
      }),
    },
    '/title/{id}/fees': {
      parameters: [idParam],
      post: op({
        summary: 'Request a fee calculation',
        tags: a,
        ok: json(ref('ActionResult')),
        errors: [...AUTH_ERRORS, 501],
      }),
    },
    '/title/{id}/forms': {
      parameters: [idParam],
      post: op({
        summary: 'Generate or regenerate forms (synchronous)',
        tags: a,
        ok: json(ref('FormsResult')),
        errors: [...AUTH_ERRORS, 409, 501],
      }),
    },
    '/title/{id}/sign': {
      parameters: [idParam],
      post: op({
        summary: 'Start the signature process',
        tags: a,
        body: ref('SignRequestBody'),
        ok: json(ref('SignatureRequest')),
        errors: [...AUTH_ERRORS, 409, 501],
        description: 'Answers 501 unless a signing plugin is enabled.',
      }),
    },
    '/title/{id}/submit': {
      parameters: [idParam],
      post: op({
        summary: 'Submit the title work to the state',
        tags: a,
        ok: json(ref('Submission')),
        errors: [...AUTH_ERRORS, 409, 501],
      }),
    },
    '/title/{id}/submit/{submissionId}': {
      parameters: [idParam, pathParam('submissionId', 'the id POST /title/{id}/submit returned')],
      get: op({ summary: 'Get a submission', tags: a, ok: json(ref('Submission')), errors: [...AUTH_ERRORS, 501] }),
    },
  };
}

/** Health, metrics, sessions, files, the document itself, the reference page and the legacy interface. */
function basePaths(): Record<string, PathItem> {
  const ops = ['operations'];
  const auth = ['auth'];
  const legacy = ['legacy'];
  return {
    '/healthz': { get: op({ summary: 'Liveness', tags: ops, public: true, ok: json(ref('Health')) }) },
    '/readyz': {
      get: op({
        summary: 'Readiness (database, workers)',
        tags: ops,
        public: true,
        ok: json(ref('Ready')),
        errors: [503],
      }),
    },
    '/metrics': {
      get: op({
        summary: 'Prometheus metrics (docs/operations.md)',
        tags: ops,
        public: true,
        ok: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
      }),
    },
    '/openapi.json': { get: op({ summary: 'This document', tags: ops, public: true, ok: json({ type: 'object' }) }) },
    '/docs': {
      get: op({
        summary: 'API reference page (swagger-ui, served offline)',
        tags: ops,
        public: true,
        ok: html('HTML page'),
      }),
    },
    '/docs/{file}': {
      parameters: [pathParam('file', 'a swagger-ui asset')],
      get: op({
        summary: 'API reference page assets',
        tags: ops,
        public: true,
        ok: { description: 'asset' },
        errors: [404],
      }),
    },
    '/auth/login': {
      post: op({
        summary: 'Start a session: send an API key (Bearer or Basic); the answer sets the session cookie',
        tags: auth,
        ok: json(ref('LoginResult')),
        errors: [403],
      }),
    },
    '/auth/logout': {
      post: op({
        summary: 'End the session (server side too)',
        tags: auth,
        public: true,
        ok: json(ref('LogoutResult')),
      }),
    },
    '/files/{key}': {
      parameters: [
        pathParam('key', 'object key (may hold slashes)'),
        query('expires', { type: 'string' }, 'expiry (epoch seconds)'),
        query('signature', { type: 'string' }, 'HMAC signature'),
      ],
      get: op({
        summary: 'A presigned object (documents, forms, pulls)',
        tags: ['files'],
        public: true,
        ok: {
          description: 'the file',
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        },
        errors: [403, 404],
      }),
    },
    '/legacy/poa': {
      post: op({
        summary: 'Legacy: create a power of attorney',
        tags: legacy,
        body: ref('LegacyPoaBody'),
        okStatus: 201,
        ok: json(ref('LegacyStatus'), 'Created'),
        errors: [400, 403, 501],
      }),
    },
    '/legacy/generate_forms': {
      post: op({
        summary: 'Legacy: generate a transaction',
        tags: legacy,
        body: ref('GenerateFormsBody'),
        ok: json(ref('GenerateFormsResult')),
        errors: [400, 403, 501],
      }),
    },
  };
}

/** The webhook payloads (spec: Events): one entry per event family, each the entry plus `webhook_events`. */
function webhooks(): Record<string, PathItem> {
  const post = (summary: string) => ({
    post: {
      summary,
      tags: ['webhooks'],
      description:
        'POST to the endpoint of a webhook profile, signed (webhook-id, webhook-timestamp, webhook-signature; docs/webhooks.md). ' +
        '2xx confirms; 4xx is logged and not retried; 5xx and timeouts are retried with backoff.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookPayload') } } },
      responses: { '200': { description: 'received' } },
    },
  });
  return {
    'title.job_status.complete': post('job_status became complete'),
    'title.job_status.error': post('job_status became error'),
    'title.data.found': post('an NMVTIS, public or private pull changed from not_found to found'),
    'title.account_status.*': post(
      `account_status changed; delivered as title.account_status.<status> (${ACCOUNT_STATUSES.join(', ')})`,
    ),
    'title.physical_title_status.*': post(`physical_title_status changed (${PHYSICAL_TITLE_STATUSES.join(', ')})`),
  };
}

/** Core's component schemas (api-schemas.ts builds its own on first use). */
function coreSchemas(): Record<string, z.ZodType> {
  const A = apiSchemas();
  return {
    ErrorBody: A.ErrorBodySchema,
    ActionResult: A.ActionResultSchema,
    FormsResult: A.FormsResultSchema,
    DeleteResult: A.DeleteResultSchema,
    ListResult: A.ListResultSchema,
    TitleEntry: A.TitleEntrySchema,
    DocumentUpload: A.DocumentUploadSchema,
    AccountData: M.AccountDataSchema,
    CreateTitleBody: M.CreateTitleBodySchema,
    PatchTitleBody: M.PatchTitleBodySchema,
    SyncFlags: M.SyncFlagsSchema,
    Address: M.AddressSchema,
    Person: M.PersonSchema,
    Insurance: M.InsuranceSchema,
    Lienholder: M.LienholderSchema,
    Lien: M.LienSchema,
    FeeItem: M.FeeItemSchema,
    Vehicle: M.VehicleSchema,
    VehicleTitle: M.VehicleTitleSchema,
    Loan: M.LoanSchema,
    Sale: M.SaleSchema,
    SignRequestBody: A.SignRequestBodySchema,
    SignatureRequest: A.SignatureRequestSchema,
    TitleCollection: A.TitleCollectionSchema,
    Submission: A.SubmissionSchema,
    WebhookPayload: A.WebhookPayloadSchema,
    LoginResult: A.LoginResultSchema,
    LogoutResult: A.LogoutResultSchema,
    Health: A.HealthSchema,
    Ready: A.ReadySchema,
    LegacyPoaBody: A.LegacyPoaBodySchema,
    LegacyStatus: A.LegacyStatusSchema,
    GenerateFormsBody: A.GenerateFormsBodySchema,
    GenerateFormsResult: A.GenerateFormsResultSchema,
  };
}

/** The zod schemas as JSON Schema 2020-12 components, shared shapes as `$ref`s between them. */
function componentSchemas(schemas: Record<string, z.ZodType>): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) {
    // a schema object may be registered once: a second name for the same schema refers to the first
    if (!registry.has(schema)) registry.add(schema, { id });
  }
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const result: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(out.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    result[id] = rest;
  }
  for (const [id, schema] of Object.entries(schemas)) result[id] ??= ref(registry.get(schema)!.id);
  return result;
}

export interface OpenApiOptions {
  version: string;
  /** The session cookie's name (config auth.sessionCookieName). */
  cookieName: string;
  /** What the enabled plugins and the engine's own extras (console) contribute. */
  contributions: OpenApiContribution[];
  serverUrl?: string;
}

/** Builds the document. */
export function buildOpenApi(o: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, PathItem> = { ...basePaths(), ...titlePaths() };
  const schemas: Record<string, z.ZodType> = coreSchemas();
  const hooks = webhooks();
  for (const c of o.contributions) {
    Object.assign(paths, c.paths);
    Object.assign(schemas, c.schemas);
    Object.assign(hooks, c.webhooks);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'titled',
      version: o.version,
      description:
        'Vehicle title processing engine: title entries, enrichment, fees, forms, signing, submission and webhooks.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    ...(o.serverUrl ? { servers: [{ url: o.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }, { basicAuth: [] }, { cookieAuth: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks: hooks,
    components: {
      schemas: componentSchemas(schemas),
      responses: errorResponses(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (tk_...) or a JWT of the configured identity provider',
        },
        basicAuth: { type: 'http', scheme: 'basic', description: 'API key id as user name, its secret as password' },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: o.cookieName,
          description: 'The session cookie POST /auth/login sets',
        },
      },
    },
  };
}

/** An OpenAPI path for a Koa route path: `/title/:id` -> `/title/{id}`, `/files/*key` -> `/files/{key}`. */
export function openApiPath(koaPath: string): string {
  const p = koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*([A-Za-z0-9_]+)/g, '{$1}');
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}
