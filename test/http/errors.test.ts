import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, waitForIdle, CORE_ONLY } from './support.js';

const LIMIT = 2048;

for (const dialect of DIALECTS) {
  describe(`HTTP: request errors and the error body (${dialect})`, () => {
    let t: TestEngine;
    let id: string;

    before(async () => {
      t = await startTestEngine({ dialect, config: { ...CORE_ONLY, bodyLimitBytes: LIMIT } });
      id = await createEntry(t, { account_data: accountData(makeVin()) });
      await waitForIdle(t);
    });
    after(async () => {
      await t?.stop();
    });

    /** POST/PATCH routes that read a JSON body. */
    const bodyRoutes = () =>
      [
        ['POST', '/title'],
        ['PATCH', `/title/${id}`],
        ['POST', `/title/${id}/data`],
      ] as const;

    it('malformed JSON is 400', async () => {
      for (const [method, path] of bodyRoutes()) {
        for (const raw of ['{', '{"account_data": }', "{'a': 1}", 'nul', '[1,]']) {
          expectError(await t.request(method, path, { rawBody: raw }), 400, { match: /JSON/ });
        }
      }
    });

    it('wrong types are 400 naming the field', async () => {
      const cases: [unknown, RegExp][] = [
        [{ account_data: { vehicle: { vin: makeVin(), year: 'x' } } }, /account_data\.vehicle\.year/],
        [{ account_data: { vehicle: { type: 'SPACESHIP' } } }, /account_data\.vehicle\.type/],
        [
          { account_data: { loan: { borrower: [{ addr: { zip: '123' } }] } } },
          /account_data\.loan\.borrower\.0\.addr\.zip/,
        ],
        [
          { account_data: { vehicle: { title: { issuing_state: 'ZZ' } } } },
          /account_data\.vehicle\.title\.issuing_state/,
        ],
        [{ account_data: { loan: { loan_amount: '12000' } } }, /account_data\.loan\.loan_amount/],
        [{ account_data: [] }, /account_data/],
        [{ sync_nmvtis: 'true' }, /sync_nmvtis/],
        [{ groupId: 5 }, /groupId/],
        [{ attachments: 'https://docs.example.test/a.pdf' }, /attachments/],
        [{ dppa_exemption: 3 }, /dppa_exemption/],
        ['a string', /body/],
        [42, /body/],
        [null, /body/],
      ];
      for (const [body, field] of cases)
        expectError(await t.request('POST', '/title', { rawBody: JSON.stringify(body) }), 400, { match: field });
    });

    it('a body over bodyLimitBytes is 413 (with Content-Length and chunked)', async () => {
      const big = JSON.stringify({ account_data: { txn_quick_reference: 'x'.repeat(LIMIT * 2) } });
      for (const [method, path] of bodyRoutes()) expectError(await t.request(method, path, { rawBody: big }), 413);
      // chunked: no Content-Length, the limit applies while reading
      const stream = new ReadableStream({
        start(c) {
          for (let i = 0; i < 8; i++) c.enqueue(new TextEncoder().encode(i === 0 ? '{"txn":"' : 'y'.repeat(1024)));
          c.close();
        },
      });
      const res = await fetch(`${t.url}/title`, {
        method: 'POST',
        body: stream,
        duplex: 'half',
        headers: { authorization: `Bearer ${t.org.key}`, 'content-type': 'application/json' },
      } as RequestInit);
      const body = await res.json();
      expectError({ status: res.status, body, headers: res.headers }, 413);
      // a body just under the limit is fine
      const fits = JSON.stringify({ account_data: { txn_quick_reference: 'x'.repeat(LIMIT - 100) } });
      expect((await t.request('POST', '/title', { rawBody: fits })).status).to.equal(200);
    });

    it('a non-JSON content type is 415', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ]) {
        for (const [method, path] of bodyRoutes()) {
          const res = await t.request(method, path, {
            rawBody: JSON.stringify({ sync_nmvtis: true }),
            headers: { 'content-type': type },
          });
          expectError(res, 415);
        }
      }
      // JSON with parameters and +json types are JSON
      const ok = await t.request('POST', '/title', {
        body: { account_data: { vehicle: { vin: makeVin() } } },
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(ok.status).to.equal(200);
    });

    it('an unknown route is 404 with the error body', async () => {
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/nope'],
        ['GET', `/title/${id}/nope`],
        ['POST', `/title/${id}/nope`],
        ['GET', '/titles'],
        ['GET', `/title/${id}/submit/a/b`],
      ] as const) {
        expectError(await t.request(method, path), 404);
      }
    });

    it('a wrong method is 405 with the error body and an Allow header', async () => {
      for (const [method, path] of [
        ['PUT', `/title/${id}`],
        ['POST', `/title/${id}`],
        ['DELETE', '/title'],
        ['PATCH', '/title'],
        ['GET', `/title/${id}/data`],
        ['GET', `/title/${id}/submit`],
        ['POST', `/title/${id}/submit/s1`],
        ['POST', '/healthz'],
        ['GET', '/auth/login'],
      ] as const) {
        const res = await t.request(method, path);
        expectError(res, 405);
        expect(res.headers.get('allow'), `${method} ${path}`).to.be.a('string').and.not.equal('');
      }
    });

    it('never answers 500 to any of these', async () => {
      const attempts: [string, string, string | undefined, Record<string, string>][] = [
        ['POST', '/title', '\u0000', {}],
        ['POST', '/title', '"\\ud800"', {}],
        ['POST', '/title', JSON.stringify({ account_data: { vehicle: { vin: '\u00e9'.repeat(17) } } }), {}],
        ['POST', '/title', JSON.stringify({ account_data: { __proto__: { polluted: true } } }), {}],
        ['POST', '/title', JSON.stringify({ account_data: { constructor: { prototype: { polluted: true } } } }), {}],
        ['GET', `/title/${'x'.repeat(5000)}`, undefined, {}],
        ['GET', '/title/%E0%A4%A', undefined, {}],
        ['GET', '/title?limit=1e400', undefined, {}],
        ['GET', '/title?nextToken[]=x', undefined, {}],
        ['GET', '/title?vin[a]=1', undefined, {}],
        ['PATCH', `/title/${id}`, JSON.stringify({ account_data: { vehicle: { vin: null } } }), {}],
        ['POST', `/title/${id}/data`, JSON.stringify({ sync_nmvtis: true, dppa_exemption: 'x'.repeat(1000) }), {}],
        // NUL characters (PostgreSQL text cannot hold them)
        ['GET', '/title/a%00b', undefined, {}],
        ['PATCH', '/title/a%00b', '{}', {}],
        ['DELETE', '/title/a%00b', undefined, {}],
        ['POST', '/title/a%00b/fees', undefined, {}],
        ['POST', '/title/a%00b/data', '{"sync_nmvtis":true}', {}],
        ['GET', '/title?groupId=a%00b', undefined, {}],
        ['GET', '/title?vin=a%00b', undefined, {}],
        ['GET', '/title?stateMap=true&groupId=a%00b', undefined, {}],
        ['POST', '/title', JSON.stringify({ groupId: 'g\u0000', account_data: { vehicle: { vin: makeVin() } } }), {}],
        [
          'POST',
          '/title',
          JSON.stringify({
            account_data: {
              vehicle: { vin: makeVin(), make: 'Ho\u0000nda' },
              loan: { borrower: [{ name: 'A\u0000B' }] },
            },
          }),
          {},
        ],
      ];
      const failures: string[] = [];
      for (const [method, path, rawBody, headers] of attempts) {
        const res = await t.request(method, path, { rawBody, headers });
        if (res.status >= 500)
          failures.push(`${method} ${path.slice(0, 60)} ${(rawBody ?? '').slice(0, 80)}: ${res.status}`);
        else if (res.status >= 400) expectError(res, res.status);
      }
      expect(failures).to.deep.equal([]);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('a NUL character in the URL or in groupId is 400 on both databases', async () => {
      for (const [method, path, body] of [
        ['GET', '/title/a%00b'],
        ['DELETE', '/title/a%00b'],
        ['POST', '/title/a%00b/data', { sync_nmvtis: true }],
        ['GET', '/title?groupId=a%00b'],
        ['GET', '/title?vin=a%00b'],
        ['GET', `/title/${id}?x=%00`],
      ] as const) {
        expectError(await t.request(method, path, { body }), 400, { match: /NUL/ });
      }
      expectError(
        await t.request('POST', '/title', {
          body: { groupId: 'g\u0000', account_data: { vehicle: { vin: makeVin() } } },
        }),
        400,
        { match: /groupId/ },
      );
    });

    it('/healthz and /readyz answer without credentials', async () => {
      const h = await t.request('GET', '/healthz', { key: null });
      expect(h.status).to.equal(200);
      expect(h.body).to.deep.equal({ status: 'ok' });
      const r = await t.request('GET', '/readyz', { key: null });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ status: 'ready', checks: { database: true, workers: true } });
    });
  });
}
