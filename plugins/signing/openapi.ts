/** The signing plugin's routes in the OpenAPI document (GET /openapi.json; docs/signing.md). */
import {
  openApiEntryIdParam as idParam,
  openApiJson as json,
  openApiOperation as op,
  openApiPathParam as pathParam,
  openApiRef as ref,
  type OpenApiContribution,
} from '../../core/plugin-api.js';
import { SignBodySchema } from './body.js';

const t = ['signing'];
const page = ['signing page'];
const ERR = [400, 403, 404, 409, 429, 500];
const REQUEST = {
  type: 'object',
  additionalProperties: true,
  description:
    'SignatureRequest: id, type (E_SIGN, WET_SIGN, RON), status, transaction_access_url, redirect_url, ' +
    'requester_email, documents_to_sign, created_at, updated_at, signers (each with its own transaction_access_url in ' +
    "the requester's POST answer only), sign_cert, collected_dlid, full_export, physical_tracking, instructions, " +
    'metadata, title_collection',
};
const token = pathParam('token', "a signer's single-signer token (from signers[].transaction_access_url)");
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const binary = (type: string) => ({
  description: 'OK',
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
});
const signerPage = (summary: string, ok: unknown, params: unknown[] = []) =>
  op({
    summary,
    tags: page,
    public: true,
    ok,
    params: [token, ...params],
    errors: [404, 500],
  });

export function signingOpenApi(): OpenApiContribution {
  return {
    schemas: { SignBody: SignBodySchema },
    paths: {
      '/title/{id}/sign': {
        parameters: [idParam],
        post: op({
          summary:
            "Create the entry's signature request, or return the open one (?Action=ACTIVATE sends a DRAFT, " +
            '?Action=BUMP reminds the signers who have not signed)',
          tags: t,
          body: ref('SignBody'),
          ok: json(REQUEST),
          errors: ERR,
          params: [{ name: 'Action', in: 'query', required: false, schema: { enum: ['ACTIVATE', 'BUMP'] } }],
        }),
        get: op({
          summary: "The entry's signature requests (no signer links)",
          tags: t,
          ok: json({ type: 'object', properties: { items: { type: 'array', items: REQUEST } } }),
          errors: ERR,
        }),
      },
      '/title/{id}/sign/mark-signed': {
        parameters: [idParam],
        post: op({
          summary: 'WET_SIGN: the signed originals came back (operator)',
          tags: t,
          ok: json(REQUEST),
          errors: ERR,
        }),
      },
      '/title/{id}/sign/cancel': {
        parameters: [idParam],
        post: op({ summary: 'Cancel the open signature request (operator)', tags: t, ok: json(REQUEST), errors: ERR }),
      },
      '/sign/request/{id}': {
        get: op({
          summary: "A signature request's status page",
          tags: page,
          public: true,
          ok: html('the status page'),
          params: [pathParam('id', 'the signature request id')],
          errors: [404, 500],
        }),
      },
      '/sign/{token}': {
        get: signerPage(
          "The signer's page: documents, consent, signature (works without JavaScript)",
          html('the page'),
        ),
        post: {
          ...signerPage('Sign (or decline): a form post, url-encoded or multipart (license photo)', html('done')),
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: true } },
              'multipart/form-data': { schema: { type: 'object', additionalProperties: true } },
            },
          },
        },
      },
      '/sign/{token}/packet.pdf': { get: signerPage('WET_SIGN: the print-and-sign packet', binary('application/pdf')) },
      '/sign/{token}/doc/{doc}.pdf': {
        get: signerPage('A document to sign', binary('application/pdf'), [pathParam('doc', 'the document id')]),
      },
      '/sign/{token}/doc/{doc}/page/{n}.png': {
        get: signerPage('A page preview', binary('image/png'), [
          pathParam('doc', 'the document id'),
          pathParam('n', 'page number'),
        ]),
      },
    },
  };
}
