import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { TitledError } from '../errors.js';
import { assertJsonShape, type JsonLimits } from './json-limits.js';

/** The request body as text: over `limit` bytes is 413, an aborted or malformed transfer 400. */
export async function readText(ctx: Context, limit: number): Promise<string> {
  const length = ctx.get('content-length');
  if (length && Number(length) > limit)
    throw new TitledError('PAYLOAD_TOO_LARGE', `request body is over the ${limit}-byte limit`);
  try {
    return await getRawBody(ctx.req, { limit, length: length || undefined, encoding: 'utf8' });
  } catch (e) {
    const err = e as { type?: string; status?: number };
    if (err.type === 'entity.too.large')
      throw new TitledError('PAYLOAD_TOO_LARGE', `request body is over the ${limit}-byte limit`);
    throw new TitledError('INVALID_INPUT', `could not read the request body (${err.type ?? 'aborted'})`);
  }
}

/**
 * Reads a JSON request body: a non-JSON content type is 415, a body over the
 * limit is 413, malformed JSON is 400, JSON nested too deep, with too many
 * members in one object or array, or with a too long string is 400 (checked
 * before parsing). An empty body is `undefined`.
 */
export async function readJson(ctx: Context, limit: number, shape: JsonLimits): Promise<unknown> {
  const type = ctx.get('content-type');
  // read already (the Idempotency-Key middleware fingerprints the body first)
  const early = (ctx.state as { rawBody?: string }).rawBody;
  const text = early ?? (await readText(ctx, limit));
  if (!text.trim()) return undefined;
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type))
    throw new TitledError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, got '${type}'`);
  assertJsonShape(text, shape);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new TitledError('INVALID_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}
