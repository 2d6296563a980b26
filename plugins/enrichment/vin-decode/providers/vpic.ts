/**
 * NHTSA vPIC `DecodeVinValues`: `GET <url>/api/vehicles/DecodeVinValues/<VIN>?format=json`
 * answers `{Count, Message, SearchCriteria, Results: [{Make, Model, ModelYear,
 * BodyClass, FuelTypePrimary, GVWR, VehicleType, ErrorCode, ErrorText, ...}]}`,
 * every value a string, "" when vPIC has no data. Used by the vin-decode stage
 * when `providers.vpic.provider` is `http`; through the outbound URL guard,
 * with got retries and a p-queue concurrency and rate limit like the other
 * http providers.
 */
import { Agent as HttpsAgent } from 'node:https';
import { Agent as HttpAgent } from 'node:http';
import got, { HTTPError, TimeoutError, type Got } from 'got';
import PQueue from 'p-queue';
import { z } from 'zod';
import { EngineConfigError, UrlGuard } from '../../../../core/plugin-api.js';

export const VpicOptionsSchema = z
  .object({
    /** `none` (default): the offline decoder only; `http`: ask vPIC too. */
    provider: z.enum(['none', 'http']).default('none'),
    url: z.string().url().default('https://vpic.nhtsa.dot.gov'),
    timeoutMs: z.number().int().min(1).default(8_000),
    retries: z.number().int().min(0).max(10).default(2),
    retryBaseMs: z.number().int().min(0).default(500),
    concurrency: z.number().int().min(1).max(64).default(4),
    /** vPIC asks callers to be gentle; requests started per second at most (0 = no limit). */
    ratePerSecond: z.number().min(0).default(5),
  })
  .strict();
type VpicOptions = z.infer<typeof VpicOptionsSchema>;

export function parseVpicOptions(raw: unknown): VpicOptions {
  const r = VpicOptionsSchema.safeParse(raw ?? {});
  if (!r.success)
    throw new EngineConfigError(
      `invalid provider options: ${r.error.issues.map((i) => `providers.vpic.${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return r.data;
}

const ResponseSchema = z.looseObject({
  Count: z.number(),
  Results: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
});

/** What titled takes from a vPIC decode (AccountData.vehicle members). */
interface VpicVehicle {
  year?: number;
  make?: string;
  model?: string;
  body?: string;
  fuel_type?: string;
  weight_rating?: string;
  number_of_cylinders?: string;
  type?: 'AUTO' | 'MOTORCYCLE' | 'TRAILER' | 'LOW_SPEED' | 'ORV';
}
type VpicResult =
  | { outcome: 'found'; vehicle: VpicVehicle; error_code: string; error_text: string }
  | { outcome: 'not_found'; error_code: string; error_text: string }
  | { outcome: 'error'; message: string };

const TYPES: [RegExp, VpicVehicle['type']][] = [
  [/^MOTORCYCLE/, 'MOTORCYCLE'],
  [/^TRAILER/, 'TRAILER'],
  [/^LOW SPEED/, 'LOW_SPEED'],
  [/^OFF ROAD/, 'ORV'],
  [/^(PASSENGER CAR|MULTIPURPOSE PASSENGER VEHICLE|TRUCK)/, 'AUTO'],
];

/** Maps one vPIC result row to vehicle members (empty strings are absent). */
function vehicleFromVpic(row: Record<string, string | number | null>): VpicVehicle {
  const s = (k: string) => (row[k] === null || row[k] === undefined ? '' : String(row[k]).trim());
  const v: VpicVehicle = {};
  if (/^\d{4}$/.test(s('ModelYear'))) v.year = Number(s('ModelYear'));
  if (s('Make')) v.make = s('Make').toUpperCase();
  if (s('Model')) v.model = s('Model');
  if (s('BodyClass')) v.body = s('BodyClass');
  if (s('FuelTypePrimary')) v.fuel_type = s('FuelTypePrimary');
  if (s('GVWR')) v.weight_rating = s('GVWR');
  if (s('EngineCylinders')) v.number_of_cylinders = s('EngineCylinders');
  const type = TYPES.find(([re]) => re.test(s('VehicleType').toUpperCase()))?.[1];
  if (type) v.type = type;
  return v;
}

export class VpicProvider {
  private readonly client: Got;
  private readonly guard: UrlGuard;
  private readonly base: URL;
  private readonly queue: PQueue;
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  constructor(
    readonly options: VpicOptions,
    allowHosts: readonly string[],
  ) {
    this.guard = new UrlGuard(allowHosts);
    this.base = this.guard.assertUrl(options.url);
    this.client = got.extend({
      agent: this.agents,
      dnsLookup: this.guard.lookup as never,
      followRedirect: false,
      responseType: 'text',
      timeout: { request: options.timeoutMs },
      retry: {
        limit: options.retries,
        calculateDelay: ({ attemptCount, computedValue }) =>
          computedValue === 0
            ? 0
            : Math.round(options.retryBaseMs * 2 ** (attemptCount - 1) * (0.5 + Math.random() / 2)),
      },
    });
    this.queue = new PQueue({
      concurrency: options.concurrency,
      ...(options.ratePerSecond > 0
        ? { intervalCap: Math.max(1, Math.round(options.ratePerSecond)), interval: 1000 }
        : {}),
    });
  }

  /** The real endpoint shape: `/api/vehicles/DecodeVinValues/<VIN>?format=json` (plus `&modelyear=` when known). */
  urlFor(vin: string, modelYear?: number): URL {
    const u = new URL(
      `${this.base.pathname.replace(/\/$/, '')}/api/vehicles/DecodeVinValues/${encodeURIComponent(vin)}`,
      this.base,
    );
    u.searchParams.set('format', 'json');
    if (modelYear) u.searchParams.set('modelyear', String(modelYear));
    return u;
  }

  decode(vin: string, o: { signal?: AbortSignal; modelYear?: number } = {}): Promise<VpicResult> {
    return this.queue.add(() => this.call(vin, o), { signal: o.signal });
  }

  private async call(vin: string, o: { signal?: AbortSignal; modelYear?: number }): Promise<VpicResult> {
    const url = this.urlFor(vin, o.modelYear);
    let text: string;
    try {
      this.guard.assertUrl(url);
      text = (await this.client.get(url, { signal: o.signal })).body as string;
    } catch (e) {
      if (o.signal?.aborted) throw e;
      if (e instanceof HTTPError) return { outcome: 'error', message: `vPIC answered HTTP ${e.response.statusCode}` };
      if (e instanceof TimeoutError)
        return { outcome: 'error', message: `vPIC timed out after ${this.options.timeoutMs} ms` };
      return { outcome: 'error', message: `vPIC request failed: ${(e as Error).message}` };
    }
    let parsed: z.infer<typeof ResponseSchema>;
    try {
      parsed = ResponseSchema.parse(JSON.parse(text));
    } catch {
      return { outcome: 'error', message: 'vPIC answer is malformed (expected {Count, Results: [...]})' };
    }
    const row = parsed.Results[0];
    if (!row) return { outcome: 'not_found', error_code: '', error_text: 'no results' };
    const vehicle = vehicleFromVpic(row);
    const error_code = String(row.ErrorCode ?? '');
    const error_text = String(row.ErrorText ?? '');
    if (!vehicle.make && !vehicle.model) return { outcome: 'not_found', error_code, error_text };
    return { outcome: 'found', vehicle, error_code, error_text };
  }

  close(): void {
    this.queue.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
