/** The submission plugin's routes in the OpenAPI document (GET /openapi.json; docs/submission.md). */
import {
  openApiEntryIdParam as idParam,
  openApiJson as json,
  openApiOperation as op,
  openApiPathParam,
  openApiRef as ref,
  type OpenApiContribution,
} from '../../core/plugin-api.js';
import { DocumentsBody, SubmitBody } from './service.js';
import { SHIPMENT_STATUSES, TRACKING_STATUSES as TRACKING } from './shipping.js';

const sid = openApiPathParam('sid', 'the submissionId');
const t = ['submission'];
const ops = ['submission operators'];
const obj = (description: string) => ({ type: 'object', description, additionalProperties: true });
const ERR = [400, 403, 404, 409, 500];

const SHIPMENT = {
  type: 'object',
  description:
    "The MAIL packet's outbound carrier label (plugins.submission.mailCarrier; beyond the spec, docs/submission.md)",
  properties: {
    provider: { enum: ['sandbox', 'http'] },
    mode: { enum: ['STUB', 'LIVE'] },
    carrier: { type: 'string' },
    service: { type: 'string' },
    shipmentId: { type: 'string' },
    trackingNumber: { type: 'string' },
    trackingUrl: { type: 'string' },
    labelUrl: { type: 'string', description: 'presigned URL of the label PDF' },
    to: { type: 'string', description: 'the filing office, one line' },
    status: {
      enum: [...SHIPMENT_STATUSES],
      description: "the carrier's last status; voided: the label was voided after the submission was canceled",
    },
    voidPending: {
      type: 'boolean',
      description: 'the submission was canceled before a scan; the void failed at the carrier and the poll retries it',
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { enum: [...TRACKING] },
          source: { enum: ['webhook', 'poll', 'simulate'] },
          occurredAt: { type: 'string', format: 'date-time' },
          description: { type: 'string' },
          location: { type: 'string' },
        },
      },
    },
  },
};
const SUBMISSION = {
  ...obj(
    'Submission: submissionId, status, method, intakeMode, applicationNumber, confirmationImg (presigned PNG), error, ' +
      'feedbackMessage, followUpRounds (roundId, uploadedAt, feedbackMessage, sentAt, attachments); beyond the spec: ' +
      'packet (presigned PDF), shipment (MAIL with mailCarrier: the outbound label, see Shipment), needsAttention, ' +
      'entryId, history',
  ),
  properties: {
    shipment: SHIPMENT,
    needsAttention: {
      type: 'boolean',
      description:
        'true when the MAIL packet came back (shipment return_to_sender or failure) and nothing moved the submission since',
    },
  },
};
const RECORD = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['SUBMITTED', 'UNDER_REVIEW', 'ACTION_REQUIRED', 'ACCEPTED', 'REJECTED', 'LIEN_PERFECTED'] },
    applicationNumber: { type: 'string' },
    feedbackMessage: { type: 'string' },
    error: { type: 'string' },
    note: { type: 'string' },
    perfected: { type: 'boolean', description: 'ACCEPTED: the acceptance perfects the lien' },
  },
};
const optional = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });

export function submissionOpenApi(): OpenApiContribution {
  return {
    schemas: { SubmitBody, SubmitDocumentsBody: DocumentsBody },
    paths: {
      '/title/{id}/submit': {
        parameters: [idParam],
        post: op({
          summary: 'File the entry with the state (MAIL, ONLINE_PORTAL, or MANAGED intake)',
          tags: t,
          body: ref('SubmitBody'),
          ok: json({ type: 'object', properties: { submissionId: { type: 'string' }, status: { type: 'string' } } }),
          errors: ERR,
        }),
      },
      '/title/{id}/submit/{sid}': {
        parameters: [idParam, sid],
        get: op({
          summary: 'A submission (clients poll until a final status)',
          tags: t,
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/title/{id}/submit/{sid}/documents': {
        parameters: [idParam, sid],
        post: op({
          summary: 'A follow-up round: documents answering ACTION_REQUIRED',
          tags: t,
          body: ref('SubmitDocumentsBody'),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/title/{id}/submit/{sid}/shipment/simulate': {
        parameters: [idParam, sid],
        post: op({
          summary: "Sandbox carrier: play a tracking event on the MAIL packet's label (delivered: SUBMITTED)",
          tags: t,
          body: {
            type: 'object',
            required: ['event'],
            properties: { event: { enum: [...TRACKING] } },
            additionalProperties: false,
          },
          ok: json({
            type: 'object',
            properties: {
              applied: { type: 'boolean' },
              event: obj('the simulated tracking event'),
              submission: SUBMISSION,
            },
          }),
          errors: [...ERR, 501],
        }),
      },
      '/title/{id}/submit/{sid}/cancel': {
        parameters: [idParam, sid],
        post: op({
          summary: 'Cancel before a final status',
          tags: t,
          body: optional({ reason: { type: 'string' } }),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/submissions': {
        get: op({
          summary: 'Submissions of every organization (operator organizations only)',
          tags: ops,
          ok: json({ type: 'object', properties: { submissions: { type: 'array', items: SUBMISSION } } }),
          errors: [400, 403, 500],
          params: [
            ...['status', 'entryId', 'limit'].map((name) => ({
              name,
              in: 'query',
              required: false,
              schema: { type: 'string' },
            })),
            {
              name: 'attention',
              in: 'query',
              required: false,
              description: 'true: only submissions whose MAIL packet came back (needsAttention); false: the others',
              schema: { enum: ['true', 'false'] },
            },
          ],
        }),
      },
      '/submissions/{sid}': {
        parameters: [sid],
        get: op({ summary: 'One submission (operators)', tags: ops, ok: json(SUBMISSION), errors: ERR }),
      },
      '/submissions/{sid}/method': {
        parameters: [sid],
        post: op({
          summary: 'Pick the method of a managed submission',
          tags: ops,
          body: optional({ method: { enum: ['MAIL', 'ONLINE_PORTAL'] } }),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/submissions/{sid}/ready': {
        parameters: [sid],
        post: op({
          summary: 'Mark a managed submission ready (AWAITING_READINESS to PENDING)',
          tags: ops,
          body: optional({ method: { enum: ['MAIL', 'ONLINE_PORTAL'] } }),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/submissions/{sid}/record': {
        parameters: [sid],
        post: op({ summary: "Record the state's answer", tags: ops, body: RECORD, ok: json(SUBMISSION), errors: ERR }),
      },
      '/submissions/{sid}/follow-up': {
        parameters: [sid],
        post: op({
          summary: 'Ask the client for more documents (ACTION_REQUIRED)',
          tags: ops,
          body: optional({ feedbackMessage: { type: 'string' } }),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
      '/submissions/{sid}/review': {
        parameters: [sid],
        post: op({
          summary: 'Dry run of the portal driver (files nothing)',
          tags: ops,
          ok: json(obj('the review')),
          errors: ERR,
        }),
      },
      '/submissions/{sid}/cancel': {
        parameters: [sid],
        post: op({
          summary: 'Cancel (operators)',
          tags: ops,
          body: optional({ reason: { type: 'string' } }),
          ok: json(SUBMISSION),
          errors: ERR,
        }),
      },
    },
  };
}
