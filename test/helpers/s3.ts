/**
 * A real S3-compatible server for the tests: s3rver, in this process, on a
 * free loopback port, with its objects in a temporary folder (docs/storage.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The `storage` config member of a daemon on this bucket (`prefix` optional). */
  storage(o?: { prefix?: string; download?: 'redirect' | 'proxy' }): Record<string, unknown>;
  /** Every key in the bucket under `prefix`. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'titled-test'): Promise<TestS3> {
  const dir = mkdtempSync(join(tmpdir(), 'titled-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any signature made with its fixed credentials
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    storage: (o = {}) => ({
      kind: 's3',
      bucket,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      ...credentials,
      ...o,
    }),
    async keys(prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const r = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        out.push(...(r.Contents ?? []).map((c) => c.Key!));
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
