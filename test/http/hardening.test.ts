/**
 * Issue 13: what outside probes found at the HTTP edge. Paths in another case,
 * deep or wide JSON, numbers that break stages later, the undocumented
 * Session scheme, and responses the daemon controls but Node or Koa wrote.
 */
import { expect } from 'chai';
import net from 'node:net';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, waitForIdle, CORE_ONLY } from './support.js';

/** `{"a":{"a":...1...}}` nested `depth` objects deep, as JSON text. */
export const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Sends `text` on a fresh socket and returns everything the server wrote back. */
export function rawHttp(url: string, text: string): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port), hostname, () => s.end(text));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}

/** Status and parsed JSON body of a raw HTTP/1.1 response. */
export function parseRaw(out: string): { status: number; contentType: string; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
  const [head, ...rest] = out.split('\r\n\r\n');
  const contentType = /\r\ncontent-type: ([^\r]*)/i.exec(head!)?.[1] ?? '';
  let body: unknown = rest.join('\r\n\r\n');
  try {
    body = JSON.parse(String(body));
  } catch {
    /* left as text */
  }
  return { status, contentType, body };
}

describe('HTTP hardening (issue 13)', () => {
  let t: TestEngine;
  let id: string;

  before(async () => {
    t = await startTestEngine({ config: CORE_ONLY });
    id = await createEntry(t, { account_data: accountData(makeVin()) });
    await waitForIdle(t);
  });
  after(async () => {
    await t?.stop();
  });

  describe('1. paths are matched as the spec writes them, authentication before every handler', () => {
    const variants = () =>
      [
        ['GET', '/TITLE'],
        ['GET', '/Title/x'],
        ['POST', '/TITLE'],
        ['GET', `/Title/${id}`],
        ['PATCH', `/TITLE/${id}`],
        ['DELETE', `/tItLe/${id}`],
        ['POST', `/title/${id}/FORMS`],
        ['GET', `/TITLE/${id}/submit/x`],
        ['POST', '/AUTH/login'],
      ] as const;

    it('a path in another case is an unknown route (404 error body), with or without a key', async () => {
      for (const [method, path] of variants()) {
        for (const key of [null, undefined]) {
          expectError(
            await t.request(method, path, { key, body: method === 'GET' || method === 'DELETE' ? undefined : {} }),
            404,
            { match: /no route/ },
          );
        }
      }
    });

    it('every /title route refuses a request without credentials before its handler', async () => {
      for (const [method, path] of [
        ['GET', '/title'],
        ['GET', '/title/'],
        ['POST', '/title'],
        ['GET', `/title/${id}`],
        ['PATCH', `/title/${id}`],
        ['DELETE', `/title/${id}`],
        ['POST', `/title/${id}/data`],
        ['POST', `/title/${id}/fees`],
        ['POST', `/title/${id}/forms`],
        ['POST', `/title/${id}/sign`],
        ['POST', `/title/${id}/submit`],
        ['GET', `/title/${id}/submit/x`],
      ] as const) {
        expectError(
          await t.request(method, path, { key: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} }),
          403,
        );
      }
    });
  });

  describe('3. JSON depth, member count and string length are limited at the edge', () => {
    const send = (method: string, path: string, inner: string) =>
      t.request(method, path, { rawBody: `{"account_data":{"vehicle":{"x":${inner}}}}` });

    it('deep nesting in POST /title is 400 (depth 5,000 overflowed the job queue; 3,000 was accepted, then failed the job)', async () => {
      for (const depth of [5000, 3000, 200])
        expectError(await send('POST', '/title', nested(depth)), 400, { match: /nest/ });
    });

    it('deep nesting in PATCH and POST /data is 400 (depth 2,000 overflowed merge/clone)', async () => {
      expectError(await send('PATCH', `/title/${id}`, nested(2000)), 400, { match: /nest/ });
      expectError(await send('POST', `/title/${id}/data`, nested(2000)), 400, { match: /nest/ });
      expectError(
        await t.request('PATCH', `/title/${id}`, { rawBody: '['.repeat(100_000) + ']'.repeat(100_000) }),
        400,
        { match: /nest/ },
      );
    });

    it('nesting within the limit is accepted', async () => {
      const res = await send('PATCH', `/title/${id}`, nested(20));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });

    it('too many members in one object or array, or a too long string, is 400', async () => {
      const wide = `{${Array.from({ length: 10_001 }, (_, i) => `"k${i}":1`).join(',')}}`;
      expectError(await send('PATCH', `/title/${id}`, wide), 400, { match: /members/ });
      expectError(await send('PATCH', `/title/${id}`, `[${Array(10_001).fill('0').join(',')}]`), 400, {
        match: /members/,
      });
      expectError(await send('PATCH', `/title/${id}`, JSON.stringify('x'.repeat(100_001))), 400, { match: /string/ });
      expectError(
        await t.request('PATCH', `/title/${id}`, { rawBody: `{${JSON.stringify('k'.repeat(100_001))}:1}` }),
        400,
        { match: /string/ },
      );
    });

    it('the limits are configurable', async () => {
      const small = await startTestEngine({
        config: { ...CORE_ONLY, limits: { jsonMaxDepth: 6, jsonMaxMembers: 5, jsonMaxStringLength: 10 } },
      });
      try {
        expectError(await small.request('POST', '/title', { rawBody: nested(7) }), 400, { match: /nest/ });
        expectError(await small.request('POST', '/title', { rawBody: '[1,2,3,4,5,6]' }), 400, { match: /members/ });
        expectError(await small.request('POST', '/title', { rawBody: '"12345678901"' }), 400, { match: /string/ });
      } finally {
        await small.stop();
      }
    });
  });

  describe('4. numbers are bounded where they enter', () => {
    it('a money amount that is not a sane amount is 400 naming the field', async () => {
      for (const [path, value] of [
        ['sale.sale_price', 1e308],
        ['sale.sale_price', -1],
        ['loan.loan_amount', 1e308],
        ['loan.payoff_amount', 1e16],
        ['loan.per_diem', -5],
        ['sale.additional_dues.deliveryEstimate', 1e300],
      ] as const) {
        const data: Record<string, any> = accountData(makeVin());
        const parts = path.split('.');
        let o = data;
        for (const p of parts.slice(0, -1)) o = o[p] ??= {};
        o[parts.at(-1)!] = value;
        expectError(await t.request('POST', '/title', { body: { account_data: data } }), 400, {
          match: new RegExp(`account_data\\.${path.replace(/\./g, '\\.')}`),
        });
      }
    });
  });

  describe('8. every response the daemon controls has the error body', () => {
    it('TRACE and other unknown methods get the JSON error body', async () => {
      for (const method of ['TRACE', 'PROPFIND']) {
        const r = parseRaw(await rawHttp(t.url, `${method} /title HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
        expect(r.contentType).to.match(/^application\/json/);
        expectError({ status: r.status, body: r.body, headers: new Headers() }, 501);
      }
    });

    it('malformed framing is a JSON 400, an over-long URL a JSON 431', async () => {
      for (const text of [
        'GARBAGE\r\n\r\n',
        'GET /title HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
        'GET /title HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      ]) {
        const r = parseRaw(await rawHttp(t.url, text));
        expect(r.contentType).to.match(/^application\/json/);
        expectError({ status: r.status, body: r.body, headers: new Headers() }, 400);
      }
      const r = parseRaw(await rawHttp(t.url, `GET /title/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      expectError({ status: r.status, body: r.body, headers: new Headers() }, 431);
    });

    it('every log line is JSON', async () => {
      await rawHttp(t.url, 'GARBAGE\r\n\r\n');
      for (const line of t.logs.join('').split('\n').filter(Boolean))
        expect(() => JSON.parse(line), line).to.not.throw();
    });
  });

  describe('10. no undocumented Authorization scheme', () => {
    it('Authorization: Session <token> is refused (the session travels in the cookie only)', async () => {
      const login = await t.request('POST', '/auth/login');
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!;
      expect(
        (await t.request('GET', `/title/${id}`, { key: null, headers: { cookie: `titled_session=${cookie}` } })).status,
      ).to.equal(200);
      expectError(
        await t.request('GET', `/title/${id}`, { key: null, headers: { authorization: `Session ${cookie}` } }),
        403,
        { match: /scheme/ },
      );
    });
  });
});
