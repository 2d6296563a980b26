/**
 * GET /openapi.json and the API reference page at /docs: swagger-ui from the
 * swagger-ui-dist package's own files, served by the daemon (no CDN: the
 * daemon runs offline). The page's script is a file too (no inline script).
 */
import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import { TitledError } from '../errors.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>titled API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<main id="swagger-ui" aria-label="API reference"></main>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  validatorUrl: null, withCredentials: true
});
`;

let assetDir: string | undefined;
function swaggerDir(): string {
  assetDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return assetDir;
}

/** Adds /openapi.json, /docs and /docs/{file}; `document` is built once, on first use. */
export function docsRoutes(router: Router, document: () => Record<string, unknown>): void {
  let cached: string | undefined;
  router.get('/openapi.json', (ctx) => {
    cached ??= JSON.stringify(document());
    ctx.type = 'application/json';
    ctx.body = cached;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/:file', (ctx) => {
    const file = ctx.params.file!;
    if (file === 'init.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT;
      return;
    }
    const type = ASSETS[file];
    if (!type) throw new TitledError('NOT_FOUND', `no file /docs/${file}`);
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(join(swaggerDir(), file));
  });
}
