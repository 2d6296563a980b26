import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStore } from '../../core/storage/object-store.js';

describe('storage: LocalObjectStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('40 concurrent puts of one key all succeed and leave one whole object, no temp files (issue 13, item 2)', async () => {
    const store = new LocalObjectStore(dir, 'x'.repeat(32), 'http://localhost');
    const bodies = Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const results = await Promise.allSettled(bodies.map((b) => store.put('org/entry/form.pdf', b)));
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    ).to.deep.equal([]);
    const got = (await store.get('org/entry/form.pdf'))!;
    expect(bodies.some((b) => b.equals(got))).to.equal(true);
    expect(readdirSync(join(dir, 'org/entry'))).to.deep.equal(['form.pdf']);
  });

  it('writes again into a folder removed behind its back, and after deletePrefix', async () => {
    const store = new LocalObjectStore(dir, 'x'.repeat(32), 'http://localhost');
    await Promise.all(['a.json', 'b.pdf', 'c.png'].map((f) => store.put(`org/e1/pull/${f}`, f)));
    rmSync(join(dir, 'org/e1'), { recursive: true });
    await store.put('org/e1/pull/a.json', 'again');
    expect(String(await store.get('org/e1/pull/a.json'))).to.equal('again');
    await store.deletePrefix('org/e1');
    await store.put('org/e1/pull/b.pdf', 'after delete');
    expect(readdirSync(join(dir, 'org/e1/pull'))).to.deep.equal(['b.pdf']);
  });
});

describe('storage: large objects are read in bounded chunks (issue 13, item 9)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('openRead streams a 3 MB object in chunks of at most 64 KB, whole and in order', async () => {
    const store = new LocalObjectStore(dir, 'x'.repeat(32), 'http://localhost');
    const data = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
    await store.put('org/entry/big.pdf', data);
    const r = (await store.openRead('org/entry/big.pdf'))!;
    expect(r.size).to.equal(data.length);
    const chunks: Buffer[] = [];
    for await (const c of r.stream) chunks.push(c as Buffer);
    expect(chunks.length).to.be.greaterThan(1);
    expect(Math.max(...chunks.map((c) => c.length))).to.be.at.most(64 * 1024);
    expect(Buffer.concat(chunks).equals(data)).to.equal(true);
    expect(await store.openRead('org/entry/absent.pdf')).to.equal(null);
    await store.put('org/entry/empty.txt', '');
    const empty = (await store.openRead('org/entry/empty.txt'))!;
    expect(empty.size).to.equal(0);
    empty.stream.destroy();
  });
});

describe('storage: saveToFile hands an object to another program as a file (the portal worker)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the bytes of a plain object, opens a sealed one on the way, and answers false for an absent one', async () => {
    const store = new LocalObjectStore(join(dir, 'objects'), 'x'.repeat(32), 'http://localhost');
    // a sealer that marks its objects: what is on disk differs from what saveToFile writes
    store.setSealer({
      seals: (key) => key.endsWith('.json'),
      seal: async (_key, data) => Buffer.concat([Buffer.from('SEALED:'), data]),
      open: async (_key, data) => data.subarray('SEALED:'.length),
    });
    const pdf = Buffer.alloc(200 * 1024);
    for (let i = 0; i < pdf.length; i++) pdf[i] = (i * 31) & 0xff;
    await store.put('org/entry/forms/a.pdf', pdf);
    await store.put('org/entry/facts.json', '{"ssn":"123-45-6789"}');
    expect(readFileSync(join(dir, 'objects/org/entry/facts.json'), 'utf8')).to.match(/^SEALED:/);

    expect(await store.saveToFile('org/entry/forms/a.pdf', join(dir, 'a.pdf'))).to.equal(true);
    expect(readFileSync(join(dir, 'a.pdf')).equals(pdf)).to.equal(true);
    expect(await store.saveToFile('org/entry/facts.json', join(dir, 'facts.json'))).to.equal(true);
    expect(readFileSync(join(dir, 'facts.json'), 'utf8')).to.equal('{"ssn":"123-45-6789"}');
    expect(await store.saveToFile('org/entry/absent.pdf', join(dir, 'absent.pdf'))).to.equal(false);
    expect(readdirSync(dir).sort()).to.deep.equal(['a.pdf', 'facts.json', 'objects']);
  });
});
