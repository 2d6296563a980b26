/**
 * Templates found, not assumed: `listTemplates` says where each official
 * template is and whether it is the revision mapped (SHA-256); `fetchTemplates`
 * downloads from the URL a state plugin records, installs a file whose hash is
 * the one pinned and keeps any other aside, never where a template is looked
 * up. The downloads come from a local HTTP server started here. The template
 * store parses a template once per process and hands out copies.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { fetchTemplates, listTemplates, sha256 } from '../../plugins/forms/catalog.js';
import { fillTemplate, TemplateStore } from '../../plugins/forms/pdf/template.js';
import { planForms } from '../../plugins/forms/select.js';
import { fixtureEntry } from '../support/fixtures.js';
import { defineState } from '../../states/standard.js';
import { loadStatePlugins } from '../../states/registry.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import tx from '../../states/tx/forms.js';
import type { StatePlugin, TemplateSpec } from '../../states/types.js';

/** A small fillable PDF made here (the tests need no official form). */
async function fillablePdf(label: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(`Test form ${label}`, { x: 50, y: 740, size: 14 });
  const vin = doc.getForm().createTextField('VIN');
  vin.addToPage(page, { x: 50, y: 680, width: 300, height: 20 });
  return doc.save();
}

const spec = (file: string, url: string, hash?: string): TemplateSpec => ({
  file,
  name: `Test ${file}`,
  url,
  ...(hash ? { sha256: hash } : {}),
  fields: [{ field: 'VIN', value: 'vehicle.vin' }],
});

function plugin(templates: StatePlugin['templates']): StatePlugin {
  return { ...defineState({ code: 'ZZ', name: 'Testland', agency: 'Testland DMV' }), templates };
}

describe('forms: official templates found, listed and fetched', function () {
  this.timeout(60_000);
  let dir = '';
  let server: Server;
  let base = '';
  let good: Uint8Array;
  let other: Uint8Array;
  const requests: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'titled-catalog-'));
    good = await fillablePdf('rev 1');
    other = await fillablePdf('rev 2');
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const body =
        req.url === '/good.pdf'
          ? good
          : req.url === '/other.pdf'
            ? other
            : req.url === '/page.html'
              ? Buffer.from('<html></html>')
              : null;
      if (!body) return void res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': req.url!.endsWith('.pdf') ? 'application/pdf' : 'text/html' })
        .end(Buffer.from(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetch installs the revision pinned, keeps another aside (never found as a template), reports failures', async () => {
    const target = join(dir, 'fetch');
    const state = plugin({
      form_title_application: spec('zz/app.pdf', `${base}/good.pdf`, sha256(good)),
      forms_poa: spec('zz/poa.pdf', `${base}/other.pdf`, sha256(good)),
      form_odometer_disclosure: spec('zz/odo.pdf', `${base}/missing.pdf`, sha256(good)),
      form_lien_add: spec('zz/lien.pdf', `${base}/page.html`),
    });
    const results = await fetchTemplates([state], target);
    const by = new Map(results.map((r) => [r.file, r]));
    expect(by.get('zz/app.pdf')).to.include({ status: 'installed', sha256: sha256(good) });
    expect(readFileSync(join(target, 'zz/app.pdf'))).to.deep.equal(Buffer.from(good));
    const rejected = by.get('zz/poa.pdf')!;
    expect(rejected.status).to.equal('rejected');
    expect(rejected.error).to.include(sha256(other)).and.include(sha256(good));
    expect(rejected.path).to.equal(join(target, `zz/poa.pdf.sha256-${sha256(other)}.rejected`));
    expect(existsSync(rejected.path!)).to.equal(true);
    expect(new TemplateStore([target]).locate('zz/poa.pdf'), 'a rejected revision is not a template').to.equal(null);
    expect(by.get('zz/odo.pdf')).to.include({ status: 'failed', error: 'HTTP 404' });
    expect(by.get('zz/lien.pdf')).to.include({ status: 'failed', error: 'not a PDF' });
    expect(requests).to.include.members(['/good.pdf', '/other.pdf', '/missing.pdf', '/page.html']);

    // a second fetch leaves the installed revision alone and downloads nothing for it
    requests.length = 0;
    const again = await fetchTemplates(
      [plugin({ form_title_application: spec('zz/app.pdf', `${base}/good.pdf`, sha256(good)) })],
      target,
    );
    expect(again[0]).to.include({ status: 'present' });
    expect(requests).to.deep.equal([]);
  });

  it('lists each template: found where, its SHA-256, and whether it is the revision mapped', () => {
    const folder = join(dir, 'list');
    mkdirSync(join(folder, 'zz'), { recursive: true });
    writeFileSync(join(folder, 'zz/app.pdf'), good);
    writeFileSync(join(folder, 'zz/poa.pdf'), other);
    writeFileSync(join(folder, 'zz/odo.pdf'), other);
    const state = plugin({
      form_title_application: spec('zz/app.pdf', `${base}/good.pdf`, sha256(good)),
      forms_poa: spec('zz/poa.pdf', `${base}/good.pdf`, sha256(good)),
      form_odometer_disclosure: spec('zz/odo.pdf', `${base}/other.pdf`),
      form_lien_add: spec('zz/lien.pdf', `${base}/good.pdf`, sha256(good)),
    });
    const rows = new Map(listTemplates([state], [join(dir, 'nowhere'), folder]).map((r) => [r.file, r]));
    expect(rows.get('zz/app.pdf')).to.include({ status: 'ok', path: join(folder, 'zz/app.pdf'), sha256: sha256(good) });
    expect(rows.get('zz/poa.pdf')).to.include({
      status: 'different_revision',
      sha256: sha256(other),
      expected: sha256(good),
    });
    expect(rows.get('zz/odo.pdf')).to.include({ status: 'unpinned' });
    expect(rows.get('zz/lien.pdf')).to.include({ status: 'missing', path: null, sha256: null });
  });

  it("every state template (attached forms too) records the state's https URL and the SHA-256 of the revision mapped", () => {
    const states = [...loadStatePlugins().values()];
    const rows = listTemplates(states, parseFormsOptions({}).templateDirs);
    expect(rows.length).to.be.greaterThan(30);
    expect(
      rows
        .filter((r) => !/^https:\/\/[a-z0-9.-]+\//.test(r.url ?? '') || !/^[0-9a-f]{64}$/.test(r.expected ?? ''))
        .map((r) => r.file),
    ).to.deep.equal([]);
    expect(rows.map((r) => r.file)).to.include('nc/MVR-181.pdf');
    // where the shared forms are present (as in CI), each is the revision its mapping was written against
    expect(
      rows.filter((r) => r.status === 'different_revision' || r.status === 'unpinned').map((r) => r.file),
    ).to.deep.equal([]);
  });

  it("`titled templates --json` lists every state's official templates against the folders given", async () => {
    const cli = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((res, rej) => {
      const child = spawn(process.execPath, [cli, 'templates', '--dir', empty, '--json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.once('error', rej);
      child.once('close', (code) => res({ code, stdout, stderr }));
    });
    expect(out.code, out.stderr).to.equal(0);
    const listed = JSON.parse(out.stdout) as {
      dirs: string[];
      templates: { state: string; file: string; status: string; expected?: string }[];
    };
    expect(listed.dirs).to.deep.equal([empty]);
    const files = listed.templates.map((t) => t.file);
    for (const f of [
      'tx/130-U.pdf',
      'fl/HSMV-82040.pdf',
      'ny/MV-82.pdf',
      'ga/MV-1.pdf',
      'nc/MVR-1.pdf',
      'az/96-0236.pdf',
      'sc/400.pdf',
      'in/SF-205.pdf',
      'ak/V1.pdf',
    ])
      expect(files).to.include(f);
    expect(listed.templates.every((t) => t.status === 'missing')).to.equal(true);
    expect(
      listed.templates.every((t) => /^[0-9a-f]{64}$/.test(t.expected ?? '')),
      'every template pins its revision',
    ).to.equal(true);
  });

  it('parses a template once per process: the second fill does not read the file again, and fills do not share state', async () => {
    const folder = join(dir, 'cache');
    mkdirSync(join(folder, 'zz'), { recursive: true });
    const file = join(folder, 'zz/app.pdf');
    writeFileSync(file, good);
    const store = new TemplateStore([folder]);
    const s = spec('zz/app.pdf', `${base}/good.pdf`);
    const values = planForms(fixtureEntry('TX', 'full'), new Map([['TX', tx]])).values!;
    const first = await store.open('zz/app.pdf');
    const filled = await fillTemplate(first!.doc, s, {
      ...values,
      vehicle: { ...values.vehicle, vin: 'FIRSTVIN000000001' },
    });
    expect(filled.doc.getForm().getTextField('VIN').getText()).to.equal('FIRSTVIN000000001');
    expect(store.parses).to.equal(1);
    const second = await store.open('zz/app.pdf');
    expect(store.parses, 'the second fill reused the parsed template').to.equal(1);
    expect(second!.doc.getForm().getTextField('VIN').getText() ?? '', 'a copy, not the filled document').to.equal('');
    expect(second!.doc).to.not.equal(first!.doc);
    // a changed file is read again
    writeFileSync(file, other);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await store.open('zz/app.pdf');
    expect(store.parses).to.equal(2);
  });
});
