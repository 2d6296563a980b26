import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

/**
 * Modules an idle daemon does not need, loaded on first use instead (docs/operations.md, "Memory"): start-up
 * must not load them.
 */
const LATER = [
  /\/node_modules\/prom-client\/index\.js$/, // its classes and default metrics come from their own files
  /\/node_modules\/@opentelemetry\//, // prom-client's CPU counters' exemplars (core/metrics.ts counts CPU itself)
  /\/node_modules\/(tdigest|bintrees)\//, // prom-client's Summary
  /\/node_modules\/typeorm\/index\.js$/, // core/db/typeorm.ts: TypeORM's classes from their own files
  /\/node_modules\/jose\//, // JWTs and session cookies (core/auth/authenticator.ts)
  /\/node_modules\/@koa\/cors\//, // CORS is off by default
  /\/dist\/core\/console\/(pages|entry-page|html|import-page)\.js$/, // the console's pages
  /\/dist\/core\/wmi\.json$/, // read with the first VIN decoded
];

describe('start-up', function () {
  this.timeout(60_000);

  it('loads none of the modules an idle daemon does not use (they load on first use)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titled-startup-'));
    try {
      const esmList = join(dir, 'esm.txt');
      // a loader hook that only writes down every module loaded as ES module (or CommonJS entered from one)
      const hooks =
        "import { appendFileSync } from 'node:fs';" +
        'export async function load(url, context, next) {' +
        `  appendFileSync(${JSON.stringify(esmList)}, url + '\\n');` +
        '  return next(url, context);' +
        '}';
      const index = fileURLToPath(new URL('../../index.js', import.meta.url));
      const script = `
        import { createRequire, register } from 'node:module';
        register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
        const { createEngine } = await import(${JSON.stringify(index)});
        const engine = await createEngine({
          port: 0, host: '127.0.0.1', dataDir: ${JSON.stringify(join(dir, 'data'))}, stages: ['intake'],
          log: { level: 'warn' },
        });
        const org = await engine.orgs.create('startup');
        await engine.keys.create(org.id, { label: 'startup' });
        await engine.listen();
        const cjs = Object.keys(createRequire(import.meta.url)('module')._cache);
        await engine.stop();
        process.stdout.write(JSON.stringify(cjs));
      `;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      const loaded = [
        ...(JSON.parse(r.stdout) as string[]),
        ...readFileSync(esmList, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((u) => (u.startsWith('file:') ? fileURLToPath(u) : u)),
      ];
      // the lists are complete: what the daemon needs is there
      for (const needed of [
        /\/node_modules\/typeorm\/data-source\/DataSource\.js$/,
        /\/node_modules\/prom-client\/lib\/histogram\.js$/,
        /\/dist\/core\/console\/routes\.js$/,
        /\/dist\/plugins\/intake\/index\.js$/,
      ])
        expect(
          loaded.some((f) => needed.test(f)),
          String(needed),
        ).to.equal(true);
      expect(loaded.filter((f) => LATER.some((re) => re.test(f)))).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the plugin API loads no database or metrics code until an engine opens them (a forms render does not carry it)', () => {
    const api = fileURLToPath(new URL('../../core/plugin-api.js', import.meta.url));
    const render = fileURLToPath(new URL('../../plugins/forms/render.js', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const { Metrics } = await import(${JSON.stringify(api)});
      await import(${JSON.stringify(render)});
      const cache = () => Object.keys(createRequire(import.meta.url)('module')._cache);
      const atImport = cache().filter((f) => /node_modules\\/(typeorm\\/(data-source|decorator)|prom-client)\\//.test(f));
      new Metrics(undefined, { defaultMetrics: false });
      const afterMetrics = cache().some((f) => f.endsWith('/prom-client/lib/histogram.js'));
      process.stdout.write(JSON.stringify({ atImport, afterMetrics }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({ atImport: [], afterMetrics: true });
  });

  it('the OCR plugin reads core/wmi.json at its first VIN repair, not when it loads (titled import loads it)', () => {
    const vin = fileURLToPath(new URL('../../plugins/ocr/extract/vin.js', import.meta.url));
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const read = fs.readFileSync;
      const seen = [];
      fs.readFileSync = (...a) => (seen.push(String(a[0])), read(...a));
      syncBuiltinESMExports();
      const { repairVin } = await import(${JSON.stringify(vin)});
      const atLoad = seen.some((f) => f.endsWith('wmi.json'));
      // a check digit that fails: the one-swap candidates are checked against the manufacturer codes
      repairVin('1HGCM82633A004S52');
      process.stdout.write(JSON.stringify({ atLoad, atRepair: seen.some((f) => f.endsWith('wmi.json')) }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({ atLoad: false, atRepair: true });
  });
});
