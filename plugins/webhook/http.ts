/**
 * One webhook POST with got: the URL guard on the address actually
 * connected to (`dnsLookup`), no redirects, no got retries (the delivery
 * loop retries), a time limit for the whole exchange, and at most 2 KB of
 * the receiver's answer kept (the rest is read and dropped).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import got, { type Got } from 'got';
import { UrlBlockedError, type UrlGuard } from '../../core/plugin-api.js';

export type PostOutcome =
  | { kind: 'response'; statusCode: number; body: string }
  /** Timed out, refused, reset, DNS failure: retried like a 5xx. */
  | { kind: 'timeout' | 'network'; error: string }
  /** The URL guard refused the URL or every address of its host: not retried. */
  | { kind: 'blocked'; error: string };

const KEEP_BYTES = 2048;

export class WebhookClient {
  private readonly got: Got;
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
    maxSockets: number,
    userAgent: string,
  ) {
    this.agents = {
      http: new HttpAgent({ keepAlive: true, maxSockets }),
      https: new HttpsAgent({ keepAlive: true, maxSockets }),
    };
    this.got = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      decompress: false,
      dnsLookup: guard.lookup,
      agent: this.agents,
      timeout: { request: timeoutMs },
      headers: { 'user-agent': userAgent },
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    try {
      this.guard.assertUrl(url);
    } catch (e) {
      return { kind: 'blocked', error: (e as Error).message };
    }
    return new Promise<PostOutcome>((resolve) => {
      let settled = false;
      const done = (o: PostOutcome) => {
        if (!settled) {
          settled = true;
          resolve(o);
        }
      };
      const stream = this.got.stream.post(url, { body, headers });
      let statusCode = 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      stream.on('response', (res: { statusCode: number }) => {
        statusCode = res.statusCode;
      });
      stream.on('data', (c: Buffer) => {
        if (kept < KEEP_BYTES) {
          chunks.push(c.subarray(0, KEEP_BYTES - kept));
          kept += Math.min(c.length, KEEP_BYTES - kept);
        }
      });
      stream.on('end', () => done({ kind: 'response', statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      stream.on('error', (e: Error & { code?: string }) => {
        if (
          e.code === 'ERR_URL_BLOCKED' ||
          e instanceof UrlBlockedError ||
          (e.cause as { code?: string } | undefined)?.code === 'ERR_URL_BLOCKED'
        ) {
          done({ kind: 'blocked', error: e.message });
        } else if (e.code === 'ETIMEDOUT' || e.name === 'TimeoutError') {
          done({ kind: 'timeout', error: `no answer within ${this.timeoutMs} ms` });
        } else {
          done({ kind: 'network', error: `${e.code ?? e.name}: ${e.message}` });
        }
      });
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
