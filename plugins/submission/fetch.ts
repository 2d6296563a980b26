/**
 * Fetches a follow-up document a client names by URL, through core's URL
 * guard (every address connected to; no redirects followed), with a size
 * and a time limit. Bad URLs and failed downloads are the client's 400.
 * (The ocr plugin's DocumentFetcher does the same for attachments with
 * streaming to disk; plugins cannot share files, see the report.)
 */
import got from 'got';
import { TitledError, type UrlGuard } from '../../core/plugin-api.js';

export interface FetchedDocument {
  bytes: Buffer;
  contentType: string;
  filename: string;
  sourceUrl: string;
}

export async function fetchDocument(
  guard: UrlGuard,
  url: string,
  maxBytes: number,
  timeoutMs = 30_000,
): Promise<FetchedDocument> {
  let u: URL;
  try {
    u = guard.assertUrl(url);
  } catch (e) {
    throw new TitledError('INVALID_INPUT', `document URL not allowed: ${(e as Error).message}`);
  }
  const req = got(u, {
    dnsLookup: guard.lookup,
    followRedirect: false,
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'buffer',
    timeout: { request: timeoutMs },
  });
  req.on('downloadProgress', (p: { transferred: number }) => {
    if (p.transferred > maxBytes) req.cancel();
  });
  try {
    const res = await req;
    if (res.statusCode !== 200)
      throw new TitledError('INVALID_INPUT', `document ${url}: the server answered ${res.statusCode}`);
    const name = decodeURIComponent(u.pathname.split('/').pop() || 'document');
    return {
      bytes: res.body,
      contentType: String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!,
      filename: name,
      sourceUrl: url,
    };
  } catch (e) {
    if (e instanceof TitledError) throw e;
    const why = (e as Error).name === 'CancelError' ? `over the ${maxBytes} byte limit` : (e as Error).message;
    throw new TitledError('INVALID_INPUT', `document ${url} could not be fetched: ${why}`);
  }
}
