/**
 * Downloads a document a client named by URL: got with the outbound URL
 * guard (core/net/url-guard.ts) on every address actually connected to and
 * on every redirect target, a redirect limit, time limits, and a size limit
 * enforced while the bytes arrive (decompressed bytes count, so a gzip bomb
 * stops too). One retry on a network error, a timeout or a 5xx.
 * The bytes go to a temporary file as they arrive (bounded buffers, with
 * backpressure), and are read back in one piece at the end: holding every
 * chunk of a large download until it ended, then copying them into one
 * buffer, doubled the peak and left the heap fragmented long after.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import got, { type Got } from 'got';
import { UrlBlockedError, type UrlGuard } from '../../core/plugin-api.js';

type FetchFailure = 'BLOCKED' | 'TOO_LARGE' | 'HTTP_STATUS' | 'TIMEOUT' | 'NETWORK' | 'TOO_MANY_REDIRECTS';

export class FetchRejected extends Error {
  constructor(
    readonly code: FetchFailure,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'FetchRejected';
  }
}

interface FetchLimits {
  maxBytes: number;
  /** Time limit of one attempt (got's request timeout). */
  timeoutMs: number;
  maxRedirects: number;
  /** Time budget of the whole fetch, every attempt and the pause between them included (default `timeoutMs`). */
  totalMs?: number;
}
interface Fetched {
  bytes: Buffer;
  finalUrl: string;
  contentType: string | null;
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

export class DocumentFetcher {
  private readonly got: Got;

  constructor(
    private readonly guard: UrlGuard,
    private readonly limits: FetchLimits,
    userAgent = 'titled document intake',
  ) {
    this.got = got.extend({
      dnsLookup: guard.lookup,
      followRedirect: limits.maxRedirects > 0,
      maxRedirects: limits.maxRedirects,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: true,
      timeout: {
        lookup: 10_000,
        connect: 10_000,
        secureConnect: 10_000,
        send: 10_000,
        response: limits.timeoutMs,
        request: limits.timeoutMs,
      },
      headers: { 'user-agent': userAgent, accept: 'application/pdf, image/jpeg, image/png;q=0.9, */*;q=0.1' },
      hooks: {
        // node skips the lookup for an IP literal: every redirect target passes the guard's URL check
        beforeRedirect: [(options) => void this.guard.assertUrl(options.url as URL)],
      },
    });
  }

  async fetch(url: string, signal?: AbortSignal): Promise<Fetched> {
    try {
      this.guard.assertUrl(url);
    } catch (e) {
      throw new FetchRejected('BLOCKED', `the URL is not allowed: ${(e as Error).message}`);
    }
    // one budget for the whole fetch: a retry never doubles the time a slow or dripping server holds a worker.
    // A controller with a timer cleared at the end, not AbortSignal.timeout/any: those keep their listeners (and the
    // download they reach) alive until the timer fires, so overlapping large fetches held hundreds of MB (issue 13).
    const totalMs = this.limits.totalMs ?? this.limits.timeoutMs;
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new DOMException(`no complete document within ${totalMs} ms`, 'TimeoutError'));
    }, totalMs);
    timer.unref();
    const forward = () => ctl.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    const both = ctl.signal;
    const overBudget = (e: unknown) => {
      if (timedOut && !signal?.aborted)
        return new FetchRejected('TIMEOUT', `no complete document within the ${totalMs} ms budget of this fetch`);
      return e;
    };
    try {
      return await this.once(url, both);
    } catch (e) {
      if (!(e instanceof FetchRejected) || !e.retryable || both.aborted) throw overBudget(e);
      await new Promise((r) => setTimeout(r, 500));
      if (both.aborted) throw overBudget(e);
      return await this.once(url, both).catch((e2: unknown) => Promise.reject(overBudget(e2)));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private once(url: string, signal?: AbortSignal): Promise<Fetched> {
    const { maxBytes } = this.limits;
    return new Promise<Fetched>((resolve, reject) => {
      const stream = this.got.stream(url, { signal });
      const path = join(tmpdir(), `titled-fetch-${randomUUID()}.part`);
      const file = createWriteStream(path, { highWaterMark: 64 * 1024 });
      let size = 0;
      let done = false;
      let status = 0;
      let finalUrl = url;
      let contentType: string | null = null;
      const fail = (e: FetchRejected) => {
        if (done) return;
        done = true;
        stream.destroy();
        file.destroy();
        // the temporary file is gone when the fetch has failed
        void rm(path, { force: true }).finally(() => reject(e));
      };
      file.on('error', (e: Error) =>
        fail(new FetchRejected('NETWORK', `cannot write the download to a temporary file: ${e.message}`, true)),
      );
      file.on('finish', () => {
        if (done) return;
        done = true;
        readFile(path).then(
          (bytes) => rm(path, { force: true }).then(() => resolve({ bytes, finalUrl, contentType })),
          (e: Error) => rm(path, { force: true }).then(() => reject(e)),
        );
      });
      stream.pipe(file);
      stream.on(
        'response',
        (res: { statusCode: number; url: string; headers: Record<string, string | string[] | undefined> }) => {
          status = res.statusCode;
          finalUrl = res.url;
          contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null;
          if (status >= 300)
            return fail(
              new FetchRejected(
                'HTTP_STATUS',
                `the server answered ${status}${status >= 300 && status < 400 ? ' (a redirect that was not followed)' : ''}`,
                status >= 500,
              ),
            );
          const declared = Number(res.headers['content-length']);
          if (declared > maxBytes)
            fail(new FetchRejected('TOO_LARGE', `the document is ${mb(declared)}, over the ${mb(maxBytes)} limit`));
        },
      );
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes)
          return fail(new FetchRejected('TOO_LARGE', `the document is over the ${mb(maxBytes)} limit`));
      });
      stream.on('error', (e: Error & { code?: string }) => {
        const cause = e.cause as { code?: string } | undefined;
        if (e instanceof UrlBlockedError || e.code === 'ERR_URL_BLOCKED' || cause?.code === 'ERR_URL_BLOCKED')
          return fail(new FetchRejected('BLOCKED', `the URL is not allowed: ${e.message}`));
        if (e.name === 'MaxRedirectsError' || e.code === 'ERR_TOO_MANY_REDIRECTS')
          return fail(new FetchRejected('TOO_MANY_REDIRECTS', `more than ${this.limits.maxRedirects} redirects`));
        if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT')
          return fail(new FetchRejected('TIMEOUT', `no complete answer within ${this.limits.timeoutMs} ms`, true));
        if (e.name === 'AbortError' || signal?.aborted)
          return fail(new FetchRejected('TIMEOUT', 'the download was stopped (stage time limit or shutdown)'));
        fail(new FetchRejected('NETWORK', `${e.code ?? e.name}: ${e.message}`, true));
      });
    });
  }
}
