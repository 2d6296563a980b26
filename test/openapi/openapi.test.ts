import { expect } from 'chai';
import { z } from 'zod';
import { compileErrors, validate } from '@readme/openapi-parser';
import type Koa from 'koa';
import type Router from '@koa/router';
import type { EnginePlugin } from '../../core/index.js';
import { openApiPath } from '../../core/http/openapi.js';
import { startTestEngine } from '../helpers/engine.js';

const SKIP = new Set(['HEAD', 'OPTIONS']);

/** Every route of the app: walks the routers the app mounts (plugin routes included) and their layers. */
export function appRoutes(app: Koa): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const mw of app.middleware as (Koa.Middleware & { router?: Router })[]) {
    const router = mw.router;
    if (!router) continue;
    for (const layer of router.stack) {
      for (const method of layer.methods)
        if (!SKIP.has(method)) out.push({ method: method.toLowerCase(), path: openApiPath(String(layer.path)) });
    }
  }
  return out;
}

/** Routes of the app the document does not describe. */
function undocumented(app: Koa, doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return appRoutes(app)
    .filter((r) => !doc.paths[r.path]?.[r.method])
    .map((r) => `${r.method.toUpperCase()} ${r.path}`);
}

/** A plugin with one documented and (optionally) one undocumented route. */
function routePlugin(withUndocumented: boolean) {
  return class RoutePlugin implements EnginePlugin {
    readonly name = 'route-plugin';
    routes(router: Router) {
      router.get('/plugin/thing/:thingId', (ctx) => {
        ctx.body = { ok: true };
      });
      if (withUndocumented)
        router.post('/plugin/secret', (ctx) => {
          ctx.body = {};
        });
    }
    openapi() {
      return {
        schemas: { PluginThing: z.object({ ok: z.boolean() }) },
        paths: {
          '/plugin/thing/{thingId}': {
            get: {
              summary: 'a plugin route',
              parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
              responses: {
                '200': {
                  description: 'OK',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/PluginThing' } } },
                },
              },
            },
          },
        },
      };
    }
  };
}

describe('OpenAPI document', function () {
  this.timeout(120_000);

  it('is a valid OpenAPI 3.1 document describing every route of the default app', async () => {
    const t = await startTestEngine();
    try {
      const res = await t.request('GET', '/openapi.json', { key: null });
      expect(res.status).to.equal(200);
      const doc = res.body;
      expect(doc.openapi).to.equal('3.1.0');
      const result = await validate(structuredClone(doc));
      expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
      expect(undocumented(t.engine.app, doc)).to.deep.equal([]);
      // the spec's members are there: security schemes, error bodies, webhooks, account data from the zod schemas
      expect(Object.keys(doc.components.securitySchemes).sort()).to.deep.equal([
        'basicAuth',
        'bearerAuth',
        'cookieAuth',
      ]);
      expect(doc.components.securitySchemes.cookieAuth.name).to.equal('titled_session');
      expect(doc.components.schemas.ErrorBody.required).to.deep.equal(['error', 'statusCode']);
      expect(doc.components.responses.Error403.description).to.include('DISALLOWED_FIELDS');
      expect(doc.paths['/title/{id}'].patch.responses['403'].$ref).to.equal('#/components/responses/Error403');
      expect(doc.webhooks['title.account_status.*'].post.requestBody.content['application/json'].schema.$ref).to.equal(
        '#/components/schemas/WebhookPayload',
      );
      expect(doc.components.schemas.AccountData.properties.vehicle).to.be.an('object');
      expect(doc.components.schemas.Address.properties.zip).to.be.an('object');
      for (const p of [
        '/title/{id}/sign',
        '/title/{id}/submit',
        '/legacy/poa',
        '/legacy/generate_forms',
        '/auth/login',
        '/files/{key}',
      ]) {
        expect(doc.paths, p).to.have.property(p);
      }
    } finally {
      await t.stop();
    }
  });

  it("takes a plugin's paths from its openapi() member, and the route check fails for an undocumented plugin route", async () => {
    for (const withUndocumented of [false, true]) {
      const t = await startTestEngine({
        config: { stages: ['intake', 'route-plugin'] },
        options: { stages: { 'route-plugin': routePlugin(withUndocumented) } },
      });
      try {
        const doc = (await t.request('GET', '/openapi.json', { key: null })).body;
        expect(doc.paths['/plugin/thing/{thingId}'].get.summary).to.equal('a plugin route');
        expect(doc.components.schemas.PluginThing.properties.ok.type).to.equal('boolean');
        const result = await validate(structuredClone(doc));
        expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
        expect(undocumented(t.engine.app, doc)).to.deep.equal(withUndocumented ? ['POST /plugin/secret'] : []);
      } finally {
        await t.stop();
      }
    }
  });

  it('serves the API reference page and its assets from swagger-ui-dist, offline', async () => {
    const t = await startTestEngine();
    try {
      const page = await t.request('GET', '/docs', { key: null });
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(String(page.body)).not.to.match(/https?:\/\//);
      for (const src of String(page.body)
        .match(/(?:src|href)="([^"]+)"/g)!
        .map((m) => m.split('"')[1]!)) {
        const asset = await fetch(t.url + src);
        expect(asset.status, src).to.equal(200);
        expect((await asset.arrayBuffer()).byteLength, src).to.be.greaterThan(50);
      }
      expect((await t.request('GET', '/docs/package.json', { key: null })).status).to.equal(404);
      expect((await t.request('GET', '/docs/..%2Fpackage.json', { key: null })).status).to.equal(404);
    } finally {
      await t.stop();
    }
  });
});
