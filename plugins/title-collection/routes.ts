/**
 * HTTP routes of the title-collection plugin (docs/title-collection.md):
 *   POST /title/:id/collection                 creates or returns the entry's collection (our extension)
 *   GET  /title/:id/collection                 the collection and its events
 *   POST /title/:id/collection/receive         the facility logged the paper title {vin?, title_number?}
 *   POST /title/:id/collection/lost            the original is lost: unavailable + duplicate-title forms
 *   POST /title/:id/collection/simulate        sandbox: play a carrier event {event}
 *   GET|PATCH /title-collection/settings       the caller's organization settings
 *   POST /title-collection/carrier-events      the carrier's signed tracking webhook (no API key: the signature)
 */
import type Router from '@koa/router';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { z } from 'zod';
import { TitledError, parseInput, type RouteHelpers } from '../../core/plugin-api.js';
import type { TitleCollectionPlugin } from './index.js';
import { TRACKING_STATUSES } from './carrier.js';
import { parseTrackingEvent } from './http-carrier.js';
import { CARRIER_SIGNATURE_HEADER, verifyCarrierSignature } from './signature.js';

const ReceiveBody = z
  .object({ vin: z.string().max(17).optional(), title_number: z.string().max(40).optional() })
  .strict();
const SimulateBody = z.object({ event: z.enum(TRACKING_STATUSES) }).strict();

export function collectionRoutes(plugin: TitleCollectionPlugin, router: Router, h: RouteHelpers): void {
  const id = (ctx: Context) => String(ctx.params.id);
  router.post('/title/:id/collection', async (ctx) => {
    const p = await h.authenticate(ctx);
    const view = await plugin.ensureFor(p, id(ctx));
    ctx.status = 200;
    ctx.body = view ? { title_collection: view } : { title_collection: null, reason: await plugin.whyNone(p, id(ctx)) };
  });
  router.get('/title/:id/collection', async (ctx) => {
    const p = await h.authenticate(ctx);
    ctx.body = await plugin.describe(p, id(ctx));
  });
  router.post('/title/:id/collection/receive', async (ctx) => {
    const p = await h.authenticate(ctx);
    const body = parseInput(ReceiveBody, (await h.readJson(ctx)) ?? {}, 'body');
    ctx.body = { title_collection: await plugin.receive(p, id(ctx), body) };
  });
  router.post('/title/:id/collection/lost', async (ctx) => {
    const p = await h.authenticate(ctx);
    ctx.body = await plugin.lost(p, id(ctx));
  });
  router.post('/title/:id/collection/simulate', async (ctx) => {
    const p = await h.authenticate(ctx);
    const body = parseInput(SimulateBody, await h.readJson(ctx), 'body');
    ctx.body = await plugin.simulate(p, id(ctx), body.event);
  });
  router.get('/title-collection/settings', async (ctx) => {
    ctx.body = await plugin.settings((await h.authenticate(ctx)).org.name);
  });
  router.patch('/title-collection/settings', async (ctx) => {
    const p = await h.authenticate(ctx);
    ctx.body = await plugin.setSettings(p.org.name, await h.readJson(ctx));
  });
  router.post('/title-collection/carrier-events', async (ctx) => carrierWebhook(plugin, ctx));
}

async function carrierWebhook(plugin: TitleCollectionPlugin, ctx: Context): Promise<void> {
  const secret = plugin.options.webhookSecret;
  if (!secret)
    throw new TitledError(
      'NOT_IMPLEMENTED',
      'the carrier webhook is off: set plugins["title-collection"].webhookSecret',
    );
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: 64 * 1024, encoding: 'utf8' });
  } catch {
    throw new TitledError('PAYLOAD_TOO_LARGE', 'carrier event bodies are limited to 64 KB');
  }
  if (!verifyCarrierSignature(secret, ctx.get(CARRIER_SIGNATURE_HEADER) || undefined, raw)) {
    plugin.log.warn({ code: 'CARRIER_WEBHOOK_REFUSED' }, 'carrier webhook refused: bad or missing signature');
    throw new TitledError('UNAUTHENTICATED', `missing, stale or invalid ${CARRIER_SIGNATURE_HEADER}`);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new TitledError('INVALID_JSON', 'carrier event body is not valid JSON');
  }
  const event = parseTrackingEvent((json.event ?? json) as Record<string, unknown>);
  if (!event) throw new TitledError('INVALID_INPUT', 'not a tracking event: {id, tracking_code, status, occurred_at}');
  ctx.body = await plugin.carrierEvent(event);
}
