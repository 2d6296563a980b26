import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3ObjectStore } from '../../core/storage/s3-object-store.js';
import { startS3, type TestS3 } from '../helpers/s3.js';

describe('storage: S3ObjectStore against s3rver', function () {
  this.timeout(60_000);
  let s3: TestS3;
  let store: S3ObjectStore;
  const make = (o: Record<string, unknown> = {}) =>
    new S3ObjectStore(
      {
        ...(s3.storage() as any),
        prefix: 'pre/fix',
        download: 'redirect',
        ...o,
      },
      'x'.repeat(32),
      'http://localhost:1',
    );

  before(async () => {
    s3 = await startS3();
    store = make();
  });
  after(async () => {
    await store?.close();
    await s3?.close();
  });

  it('puts, gets and streams objects under the prefix; an absent key reads as null', async () => {
    const data = Buffer.alloc(300 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 13) & 0xff;
    await store.put('org/e1/documents/d/original.pdf', data);
    await store.put('org/e1/forms/a.json', '{"a":1}');
    expect(await s3.keys('pre/fix/org/e1/')).to.deep.equal([
      'pre/fix/org/e1/documents/d/original.pdf',
      'pre/fix/org/e1/forms/a.json',
    ]);
    expect((await store.get('org/e1/documents/d/original.pdf'))!.equals(data)).to.equal(true);
    expect((await store.get('org/e1/forms/a.json'))!.toString()).to.equal('{"a":1}');
    const r = (await store.openRead('org/e1/documents/d/original.pdf'))!;
    expect(r.size).to.equal(data.length);
    const chunks: Buffer[] = [];
    for await (const c of r.stream) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks).equals(data)).to.equal(true);
    expect(await store.get('org/e1/absent.pdf')).to.equal(null);
    expect(await store.openRead('org/e1/absent.pdf')).to.equal(null);
  });

  it('saveToFile writes an object to a file in chunks; an absent key answers false', async () => {
    const data = Buffer.alloc(300 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 17) & 0xff;
    await store.put('org/e3/forms/a.pdf', data);
    const dir = mkdtempSync(join(tmpdir(), 'titled-s3-save-'));
    try {
      expect(await store.saveToFile('org/e3/forms/a.pdf', join(dir, 'a.pdf'))).to.equal(true);
      expect(readFileSync(join(dir, 'a.pdf')).equals(data)).to.equal(true);
      expect(await store.saveToFile('org/e3/forms/absent.pdf', join(dir, 'b.pdf'))).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('40 concurrent puts of one key leave one whole object', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => Buffer.alloc(16 * 1024, i));
    await Promise.all(bodies.map((b) => store.put('org/e2/form.pdf', b)));
    const got = (await store.get('org/e2/form.pdf'))!;
    expect(bodies.some((b) => b.equals(got))).to.equal(true);
  });

  it('deletePrefix removes every object of an entry and nothing of another, across list pages', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.put(`org/e3/p/${i}.txt`, String(i))));
    await store.put('org/e30/keep.txt', 'keep');
    await store.deletePrefix('org/e3');
    expect(await s3.keys('pre/fix/org/e3')).to.deep.equal(['pre/fix/org/e30/keep.txt']);
  });

  it('redirectUrl: an SDK-presigned GET; absent objects are NOT_FOUND; proxy mode gives none', async () => {
    await store.put('org/e4/x.pdf', '%PDF-1.4 x');
    const url = (await store.redirectUrl('org/e4/x.pdf', 120))!;
    expect(url).to.match(
      new RegExp(`^${s3.endpoint}/${s3.bucket}/pre/fix/org/e4/x\\.pdf\\?.*X-Amz-Expires=120.*X-Amz-Signature=`),
    );
    const res = await fetch(url);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(await res.text()).to.equal('%PDF-1.4 x');
    // s3rver checks that a presigned URL has not expired (it does not check SigV4 signatures, nor refuse
    // anonymous reads: docs/storage.md, Testing)
    const short = (await store.redirectUrl('org/e4/x.pdf', 1))!;
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(short)).status).to.equal(403);
    let err: any;
    await store.redirectUrl('org/e4/none.pdf', 60).catch((e) => (err = e));
    expect(err?.code).to.equal('NOT_FOUND');
    const proxy = make({ download: 'proxy' });
    expect(await proxy.redirectUrl('org/e4/x.pdf', 60)).to.equal(null);
    await proxy.close();
  });

  it('ping answers whether the bucket is reachable (HeadBucket), reusing a recent answer', async () => {
    expect(await store.ping(0)).to.equal(true);
    const other = await startS3('other-bucket');
    const elsewhere = make({ ...other.storage(), prefix: '' });
    try {
      expect(await elsewhere.ping(0)).to.equal(true);
      const missing = make({ ...other.storage(), bucket: 'no-such-bucket' });
      expect(await missing.ping(0)).to.equal(false);
      await missing.close();
      await other.close();
      // the answer of a moment ago is reused; a fresh one sees the server gone
      expect(await elsewhere.ping(60_000)).to.equal(true);
      expect(await elsewhere.ping(0)).to.equal(false);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses malformed keys before any request', async () => {
    let err: any;
    await store.put('org/../x', 'a').catch((e) => (err = e));
    expect(err?.code).to.equal('INVALID_INPUT');
  });
});
