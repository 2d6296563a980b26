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

/** The relative imports of a file, resolved to package paths (`core/plugin-api.ts`, ...). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(packageRoot, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.')) continue;
    out.push(
      relative(packageRoot, resolve(packageRoot, dirname(file), spec))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts'),
    );
  }
  return out;
}

/** The plugin package a file of plugins/ belongs to (`plugins/enrichment/nmvtis/x.ts` -> `plugins/enrichment`). */
const packageOf = (file: string) => file.split('/').slice(0, 2).join('/');

describe('architecture: plugins reach core only through the plugin API', () => {
  it('no file under plugins/, states/ or examples/ imports core other than core/plugin-api.ts', () => {
    const bad: string[] = [];
    for (const f of [...tsFiles('plugins'), ...tsFiles('states'), ...tsFiles('examples')]) {
      for (const i of importsOf(f)) if (i.startsWith('core/') && i !== 'core/plugin-api.ts') bad.push(`${f} -> ${i}`);
    }
    expect(bad).to.deep.equal([]);
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
