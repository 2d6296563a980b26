/**
 * The `http` provider: calls an operator-configured gateway (docs/providers.md)
 * with got: a time limit per attempt, keep-alive sockets, retries with
 * exponential backoff on 5xx, 408, 429, timeouts and connection errors, and
 * per-provider concurrency and rate limits through p-queue. The gateway URL
 * passes the outbound URL guard (core/net/url-guard.ts; config `allowHosts`
 * exempts a host), at first use and on every connection.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { randomUUID } from 'node:crypto';
import got, { HTTPError, RequestError, TimeoutError, type Got } from 'got';
import PQueue from 'p-queue';
import { z } from 'zod';
import { UrlGuard, AccountDataSchema, type AccountData } from '../../../core/plugin-api.js';
import { HttpOptionsSchema, type HttpOptions } from './options.js';
import type {
  CallContext,
  EnrichmentOutcome,
  EnrichmentProvider,
  EnrichmentRequest,
  EnrichmentSource,
  InsuranceCoverage,
} from './provider.js';

const CoverageSchema = z.looseObject({
  status: z.enum(['ACTIVE', 'LAPSED', 'CANCELLED']),
  provider_name: z.string().optional(),
  provider_naic: z.string().optional(),
  policy_number: z.string().optional(),
  effective_date: z.string().optional(),
  expiration_date: z.string().optional(),
  lapse_date: z.string().optional(),
});

/** The gateway's answer (docs/providers.md). */
const GatewayResponseSchema = z.discriminatedUnion('outcome', [
  z.looseObject({
    outcome: z.literal('found'),
    txn_id: z.string().min(1).max(200),
    record: AccountDataSchema.optional(),
    report_pdf_base64: z.string().optional(),
    screenshot_png_base64: z.string().optional(),
    coverage: CoverageSchema.optional(),
    raw: z.record(z.string(), z.unknown()).optional(),
  }),
  z.looseObject({
    outcome: z.literal('not_found'),
    txn_id: z.string().max(200).optional(),
    message: z.string().optional(),
    raw: z.record(z.string(), z.unknown()).optional(),
  }),
  z.looseObject({
    outcome: z.literal('unavailable'),
    message: z.string().optional(),
    retry_after: z.string().optional(),
  }),
  z.looseObject({
    outcome: z.literal('error'),
    message: z.string().optional(),
    txn_id: z.string().max(200).optional(),
  }),
]);

const PDF_MAGIC = Buffer.from('%PDF-');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function attachment(b64: string | undefined, magic: Buffer): Uint8Array | undefined {
  if (!b64) return undefined;
  const bytes = Buffer.from(b64, 'base64');
  return bytes.subarray(0, magic.length).equals(magic) ? bytes : undefined;
}

export interface HttpProviderDeps {
  /** config `allowHosts`: hosts exempted from the outbound URL guard. */
  allowHosts: readonly string[];
}

/** A gateway client for one source. Construct with the raw `providers.<source>` options; they are validated here. */
export class HttpEnrichmentProvider implements EnrichmentProvider {
  readonly kind = 'http';
  readonly options: HttpOptions;
  private readonly url: URL;
  private readonly guard: UrlGuard;
  private readonly client: Got;
  private readonly queue: PQueue;
  private readonly agents: { http: HttpAgent; https: HttpsAgent };
  private checked?: Promise<unknown>;

  constructor(
    readonly source: EnrichmentSource,
    options: unknown,
    deps: HttpProviderDeps,
  ) {
    this.options = HttpOptionsSchema.parse(options);
    const o = this.options;
    this.guard = new UrlGuard(deps.allowHosts);
    this.url = this.guard.assertUrl(o.url);
    this.agents = {
      http: new HttpAgent({ keepAlive: true, maxSockets: o.concurrency }),
      https: new HttpsAgent({ keepAlive: true, maxSockets: o.concurrency }),
    };
    const headers: Record<string, string> = {
      ...o.headers,
      'x-titled-source': source,
      'content-type': 'application/json',
    };
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    else if (o.username)
      headers.authorization = `Basic ${Buffer.from(`${o.username}:${o.password ?? ''}`).toString('base64')}`;
    this.client = got.extend({
      headers,
      agent: this.agents,
      dnsLookup: this.guard.lookup as never,
      followRedirect: false,
      timeout: { request: o.timeoutMs },
      responseType: 'text',
      retry: {
        limit: o.retries,
        methods: ['POST'],
        statusCodes: [408, 429, 500, 502, 503, 504, 521, 522, 524],
        calculateDelay: ({ attemptCount, computedValue }) => {
          if (computedValue === 0) return 0;
          const base = Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** (attemptCount - 1));
          return Math.round(base * (0.5 + Math.random() / 2));
        },
      },
    });
    this.queue = new PQueue({
      concurrency: o.concurrency,
      ...(o.ratePerSecond > 0 ? { intervalCap: Math.max(1, Math.round(o.ratePerSecond)), interval: 1000 } : {}),
    });
  }

  covers(state: string): boolean {
    return !this.options.states || (this.options.states as readonly string[]).includes(state);
  }

  async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
    return this.queue.add(() => this.call(req, ctx), { signal: ctx.signal });
  }

  close(): void {
    this.queue.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async call(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
    try {
      // configuration-time check (DNS answer of the host), once; a failure is retried on the next call
      await (this.checked ??= this.guard.check(this.url));
      this.guard.assertUrl(this.url);
    } catch (e) {
      this.checked = undefined;
      return { outcome: 'error', message: `provider URL refused: ${(e as Error).message}` };
    }
    const body = {
      source: req.source,
      vin: req.vin,
      state: req.state ?? null,
      owners: req.owners,
      ...(req.dppa_exemption !== undefined ? { dppa_exemption: req.dppa_exemption } : {}),
      ...(req.policy ? { policy: req.policy } : {}),
      organization: req.organization,
      entry_id: req.entry_id,
      request_id: randomUUID(),
      requested_at: ctx.now.toISOString(),
    };
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      const res = await this.client.post(this.url, {
        body: JSON.stringify(body),
        signal: ctx.signal,
        headers: { 'idempotency-key': `${req.entry_id}:${req.source}:${body.request_id}` },
      });
      status = res.statusCode;
      text = res.body as string;
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      if (e instanceof HTTPError) {
        status = e.response.statusCode;
        text = String(e.response.body ?? '');
        retryAfter = e.response.headers['retry-after'] as string | undefined;
      } else if (e instanceof TimeoutError) {
        return {
          outcome: 'error',
          message: `timed out after ${this.options.timeoutMs} ms (${this.options.retries + 1} attempts)`,
        };
      } else {
        const code = (e as RequestError).code ?? 'ERR';
        return { outcome: 'error', message: `request failed: ${code}: ${(e as Error).message}` };
      }
    }
    return this.interpret(req, status, text, retryAfter);
  }

  /** Maps the gateway's status and body to an outcome (docs/providers.md, "Answers"). */
  private interpret(req: EnrichmentRequest, status: number, text: string, retryAfter?: string): EnrichmentOutcome {
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const parsed = json === undefined ? undefined : GatewayResponseSchema.safeParse(json);
    if (status === 404)
      return {
        outcome: 'not_found',
        ...(parsed?.success && parsed.data.outcome === 'not_found' && parsed.data.txn_id
          ? { txn_id: parsed.data.txn_id }
          : {}),
      };
    if (status === 503)
      return {
        outcome: 'unavailable',
        message: `source unavailable (HTTP 503)`,
        ...(retryAfter ? { retry_after: retryAfter } : {}),
      };
    if (status < 200 || status >= 300) return { outcome: 'error', message: `gateway answered HTTP ${status}` };
    if (json === undefined) return { outcome: 'error', message: 'malformed response: body is not JSON' };
    if (!parsed!.success) {
      const issue = parsed!.error.issues[0];
      return {
        outcome: 'error',
        message: `malformed response: ${issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'invalid'}`,
      };
    }
    const r = parsed!.data;
    switch (r.outcome) {
      case 'not_found':
        return {
          outcome: 'not_found',
          ...(r.txn_id ? { txn_id: r.txn_id } : {}),
          ...(r.message ? { message: r.message } : {}),
          ...(r.raw ? { raw: r.raw } : {}),
        };
      case 'unavailable':
        return {
          outcome: 'unavailable',
          message: r.message ?? 'source unavailable',
          ...(r.retry_after ? { retry_after: r.retry_after } : {}),
        };
      case 'error':
        return {
          outcome: 'error',
          message: r.message ?? 'gateway reported an error',
          ...(r.txn_id ? { txn_id: r.txn_id } : {}),
        };
      case 'found': {
        const record = (r.record ?? {}) as AccountData;
        const vin = record.vehicle?.vin;
        if (vin && vin.toUpperCase() !== req.vin)
          return { outcome: 'error', message: 'malformed response: record.vehicle.vin is another VIN' };
        if (req.source === 'insurance' && !r.coverage)
          return { outcome: 'error', message: 'malformed response: coverage: required for insurance' };
        if (req.source !== 'insurance' && !r.record)
          return { outcome: 'error', message: 'malformed response: record: required' };
        const {
          outcome: _o,
          txn_id: _t,
          record: _r,
          report_pdf_base64,
          screenshot_png_base64,
          coverage,
          raw,
          ...rest
        } = r;
        return {
          outcome: 'found',
          txn_id: r.txn_id,
          record,
          ...(attachment(report_pdf_base64, PDF_MAGIC) ? { report_pdf: attachment(report_pdf_base64, PDF_MAGIC) } : {}),
          ...(attachment(screenshot_png_base64, PNG_MAGIC)
            ? { screenshot_png: attachment(screenshot_png_base64, PNG_MAGIC) }
            : {}),
          ...(coverage ? { coverage: coverage as InsuranceCoverage } : {}),
          raw: raw ?? { outcome: 'found', txn_id: r.txn_id, ...(coverage ? { coverage } : {}), ...rest },
        };
      }
    }
  }
}
