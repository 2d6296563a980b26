/**
 * The typed client of the titled API: openapi-fetch over the types
 * openapi-typescript generated from the daemon's OpenAPI document
 * (client/schema.ts; regenerate with `npm run client`).
 *
 * @example
 * ```ts
 * const titled = createTitledClient('http://localhost:8080', { apiKey: process.env.TITLED_KEY! });
 * const { data, error } = await titled.POST('/title', { body: { account_data: { vehicle: { vin: '1HGCM82633A004352' } } } });
 * if (data) console.log(data.entryId, data.job_status);
 * ```
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths } from './schema.js';
export type TitleEntry = components['schemas']['TitleEntry'];
export type ErrorBody = components['schemas']['ErrorBody'];
export type TitledClient = Client<paths>;

export interface TitledClientOptions {
  /** An API key (`tk_...`): sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Any other headers (e.g. `X-Request-Id`). */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies). */
  fetch?: typeof fetch;
}

export function createTitledClient(baseUrl: string, o: TitledClientOptions = {}): TitledClient {
  const headers: Record<string, string> = { ...o.headers };
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  return createClient<paths>({ baseUrl: baseUrl.replace(/\/$/, ''), headers, ...(o.fetch ? { fetch: o.fetch } : {}) });
}
