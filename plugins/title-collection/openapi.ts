/** The title-collection plugin's routes in the OpenAPI document (GET /openapi.json; docs/title-collection.md). */
import {
  openApiEntryIdParam as idParam,
  openApiJson as json,
  openApiOperation as op,
  type OpenApiContribution,
} from '../../core/plugin-api.js';
import { TRACKING_STATUSES } from './carrier.js';

const t = ['title collection'];
const ERR = [400, 403, 404, 409, 500];
const COLLECTION = {
  type: 'object',
  description:
    'TitleCollection: collection_id, mode, carrier, service, return_address, instructions, created_at, ' +
    'tracking_number, label_url, qr_url, qr_verified, assets_expires_at',
  additionalProperties: true,
};
const wrapped = json({ type: 'object', properties: { title_collection: { oneOf: [COLLECTION, { type: 'null' }] } } });
const SETTINGS = {
  type: 'object',
  properties: {
    title_collection: { type: 'boolean' },
    physical_title_events: { type: 'boolean' },
    receiving_address: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};

export function titleCollectionOpenApi(): OpenApiContribution {
  return {
    paths: {
      '/title/{id}/collection': {
        parameters: [idParam],
        post: op({
          summary: "Create or return the entry's title collection (once per title)",
          tags: t,
          ok: wrapped,
          errors: ERR,
        }),
        get: op({
          summary: 'The collection and its tracking events',
          tags: t,
          ok: json({ type: 'object', additionalProperties: true }),
          errors: ERR,
        }),
      },
      '/title/{id}/collection/receive': {
        parameters: [idParam],
        post: op({
          summary: 'The receiving facility logged the paper title (matched against VIN and title number)',
          tags: t,
          body: {
            type: 'object',
            properties: { vin: { type: 'string' }, title_number: { type: 'string' } },
            additionalProperties: false,
          },
          ok: wrapped,
          errors: ERR,
        }),
      },
      '/title/{id}/collection/lost': {
        parameters: [idParam],
        post: op({
          summary: 'The original is lost: unavailable, duplicate-title forms',
          tags: t,
          ok: json({ type: 'object', additionalProperties: true }),
          errors: ERR,
        }),
      },
      '/title/{id}/collection/simulate': {
        parameters: [idParam],
        post: op({
          summary: 'Sandbox carrier: play a tracking event',
          tags: t,
          body: { type: 'object', required: ['event'], properties: { event: { enum: [...TRACKING_STATUSES] } } },
          ok: json({ type: 'object', additionalProperties: true }),
          errors: ERR,
        }),
      },
      '/title-collection/settings': {
        get: op({
          summary: "The caller's organization's collection settings",
          tags: t,
          ok: json(SETTINGS),
          errors: [403, 500],
        }),
        patch: op({
          summary: 'Change the collection settings',
          tags: t,
          body: SETTINGS,
          ok: json(SETTINGS),
          errors: [400, 403, 500],
        }),
      },
      '/title-collection/carrier-events': {
        post: op({
          summary: 'Carrier tracking webhook (HMAC-signed in X-Carrier-Signature; no API key)',
          tags: t,
          public: true,
          body: { type: 'object', additionalProperties: true },
          ok: json({ type: 'object', additionalProperties: true }),
          errors: [400, 403, 413, 500, 501],
        }),
      },
    },
  };
}
