import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { packageRoot } from '../../core/paths.js';

/** Every .ts file under `dir` (relative to the package root). */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(join(packageRoot, d))) {
      const rel = join(d, name);
      if (statSync(join(packageRoot, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Import {
  /** The package path of a relative import (`core/plugin-api.ts`), else the package's name (`zod`, `node:fs`). */
  target: string;
  relative: boolean;
  /** `import type`: erased, nothing is loaded at run time. */
  typeOnly: boolean;
}

/** Every import of a file, relative ones resolved to package paths. */
function importList(file: string): Import[] {
  const text = readFileSync(join(packageRoot, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const spec = m[1] ?? m[2]!;
    const rel = spec.startsWith('.');
    const target = rel
      ? relative(packageRoot, resolve(packageRoot, dirname(file), spec))
          .split(sep)
          .join('/')
          .replace(/\.js$/, '.ts')
      : spec;
    return { target, relative: rel, typeOnly: /^\s*import\s+type\s/.test(m[0]) };
  });
}

/** The relative imports of a file, resolved to package paths (`core/plugin-api.ts`, ...). */
const importsOf = (file: string) =>
  importList(file)
    .filter((i) => i.relative)
    .map((i) => i.target);

/** What plugins may import of core: the plugin API, and its model and pure parts (subsets of it). */
const API = new Set(['core/plugin-api.ts', 'core/plugin-api-model.ts', 'core/plugin-api-pure.ts']);

/** The files `start` loads at run time (its imports that are not `import type`, and theirs). */
function reach(start: string): Set<string> {
  const reached = new Set<string>();
  const walk = (f: string) => {
    if (reached.has(f)) return;
    reached.add(f);
    for (const i of importList(f)) if (i.relative && !i.typeOnly) walk(i.target);
  };
  walk(start);
  return reached;
}

/** The packages a file loads at run time (not node: built-ins, not `import type`). */
const packagesOf = (file: string) =>
  importList(file)
    .filter((i) => !i.relative && !i.typeOnly && !i.target.startsWith('node:'))
    .map((i) => i.target);

/** The plugin package a file of plugins/ belongs to (`plugins/enrichment/nmvtis/x.ts` -> `plugins/enrichment`). */
const packageOf = (file: string) => file.split('/').slice(0, 2).join('/');

describe('architecture: plugins reach core only through the plugin API', () => {
  it('no file under plugins/, states/ or examples/ imports core other than core/plugin-api.ts (or its parts)', () => {
    const bad: string[] = [];
    for (const f of [...tsFiles('plugins'), ...tsFiles('states'), ...tsFiles('examples')]) {
      for (const i of importsOf(f)) if (i.startsWith('core/') && !API.has(i)) bad.push(`${f} -> ${i}`);
    }
    expect(bad).to.deep.equal([]);
  });

  it('the pure part loads no package and no service, and the plugin API exports all of it', async () => {
    const reached = reach('core/plugin-api-pure.ts');
    const packages = [...reached].flatMap((f) => packagesOf(f));
    expect(packages).to.deep.equal([]);
    expect([...reached].filter((f) => /^core\/(service|db|http|store|pipeline)\/|schemas/.test(f))).to.deep.equal([]);
    const pure = (await import('../../core/plugin-api-pure.js')) as Record<string, unknown>;
    const api = (await import('../../core/plugin-api.js')) as Record<string, unknown>;
    expect(Object.keys(pure)).to.include.members(['computeCheckDigit', 'wmiTable', 'packageRoot', 'personName']);
    for (const [name, value] of Object.entries(pure)) expect(api[name], name).to.equal(value);
  });

  it('the model part loads zod and no service, and the plugin API exports all of it', async () => {
    const reached = reach('core/plugin-api-model.ts');
    const packages = new Set([...reached].flatMap((f) => packagesOf(f)));
    expect([...packages].sort()).to.deep.equal(['fast-deep-equal', 'klona', 'zod']);
    expect(
      [...reached].filter((f) => /^core\/(service|db|http|store|pipeline|jobs|auth|storage)\//.test(f)),
    ).to.deep.equal([]);
    expect(reached.has('core/plugin-api-pure.ts')).to.equal(true);
    const model = (await import('../../core/plugin-api-model.js')) as Record<string, unknown>;
    const api = (await import('../../core/plugin-api.js')) as Record<string, unknown>;
    expect(Object.keys(model)).to.include.members([
      'CompleteAddressSchema',
      'filingState',
      'TitledError',
      'JOB_STATUSES',
      'personName',
    ]);
    for (const [name, value] of Object.entries(model)) expect(api[name], name).to.equal(value);
  });

  it('state data modules load of core only the model part', () => {
    const model = reach('core/plugin-api-model.ts');
    for (const start of ['states/registry.ts', 'states/fee-schema.ts']) {
      const reached = reach(start);
      expect(
        [...reached].filter((f) => f.startsWith('core/') && !model.has(f)),
        start,
      ).to.deep.equal([]);
    }
  });

  it('the forms renderer and the fee data loader load of core only the pure part, and no schema library', () => {
    const pure = reach('core/plugin-api-pure.ts');
    for (const start of ['plugins/forms/render.ts', 'plugins/forms/select.ts', 'states/fee-data.ts']) {
      const reached = reach(start);
      expect(
        [...reached].filter((f) => f.startsWith('core/') && !pure.has(f)),
        start,
      ).to.deep.equal([]);
      expect(reached.has('states/fee-schema.ts'), start).to.equal(false);
      expect(new Set([...reached].flatMap((f) => packagesOf(f))), start).to.not.include('zod');
    }
  });

  it("the OCR plugin's reading code (its worker threads) loads of core only the pure part", () => {
    const reached = reach('plugins/ocr/worker/thread.ts');
    expect(reached.has('plugins/ocr/analyze.ts')).to.equal(true);
    expect(reached.has('core/plugin-api-pure.ts')).to.equal(true);
    const pure = reach('core/plugin-api-pure.ts');
    expect([...reached].filter((f) => f.startsWith('core/') && !pure.has(f))).to.deep.equal([]);
  });

  it("no plugin imports another plugin's files; states/ and examples/ import no plugin", () => {
    const bad: string[] = [];
    for (const f of tsFiles('plugins')) {
      if (f === 'plugins/index.ts') continue; // the built-in catalog: checked below
      for (const i of importsOf(f))
        if (i.startsWith('plugins/') && packageOf(i) !== packageOf(f)) bad.push(`${f} -> ${i}`);
    }
    // the catalog loads each plugin package through its entry point only, never a file inside it
    for (const i of importsOf('plugins/index.ts'))
      if (i.startsWith('plugins/') && !/^plugins\/[^/]+\/index\.ts$/.test(i)) bad.push(`plugins/index.ts -> ${i}`);
    for (const f of [...tsFiles('states'), ...tsFiles('examples')]) {
      for (const i of importsOf(f)) if (i.startsWith('plugins/')) bad.push(`${f} -> ${i}`);
    }
    expect(bad).to.deep.equal([]);
  });

  it('core imports no plugin, no state plugin and no test code', () => {
    const bad: string[] = [];
    for (const f of tsFiles('core')) {
      for (const i of importsOf(f)) if (/^(plugins|states|test|examples)\//.test(i)) bad.push(`${f} -> ${i}`);
    }
    expect(bad).to.deep.equal([]);
  });

  it('the shipped tree loads no test library (chai, mocha) at run time', () => {
    const bad: string[] = [];
    for (const f of [...tsFiles('core'), ...tsFiles('plugins'), ...tsFiles('states'), ...tsFiles('bin')]) {
      const text = readFileSync(join(packageRoot, f), 'utf8');
      if (/from\s+['"](chai|mocha)['"]|import\(\s*['"](chai|mocha)['"]/.test(text)) bad.push(f);
    }
    expect(bad).to.deep.equal([]);
  });

  it('finds the imports it checks (the check can fail)', () => {
    expect(importsOf('plugins/intake/index.ts')).to.include('core/plugin-api.ts');
    expect(importsOf('core/engine.ts')).to.include('core/pipeline/registry.ts');
  });
});
