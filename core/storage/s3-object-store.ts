import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { TitledError } from '../errors.js';
import { assertKey, contentTypeOf, SignedObjectStore } from './object-store.js';

/** The `storage` members an S3 store reads (config.ts, `storage` with `kind: 's3'`). */
export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver, ...); absent: AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Static credentials; absent: the SDK's default chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Prepended to every object key (`titled/` keeps the daemon's objects in one folder of a shared bucket). */
  prefix: string;
  /** `redirect`: `/files/...` answers 302 to an SDK-presigned GET URL; `proxy`: the daemon streams the object. */
  download: 'redirect' | 'proxy';
}

/** S3 caps presigned URLs at 7 days. */
const MAX_S3_PRESIGN_SECONDS = 7 * 24 * 3600;

function isMissing(e: unknown): boolean {
  if (!(e instanceof S3ServiceException)) return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * Objects in an S3 bucket (the AWS SDK v3 client), for several daemons that
 * share one database: any of them reads what another wrote. Clients still get
 * the daemon's own `/files/...` URLs in entries (signed with the shared
 * `secret`, so every daemon verifies them and downloads are counted); the
 * route then redirects to a presigned GET of the bucket, or streams it.
 */
export class S3ObjectStore extends SignedObjectStore {
  readonly client: S3Client;
  private readonly prefix: string;

  constructor(
    private readonly opts: S3StoreOptions,
    secret: string,
    publicUrl: string,
  ) {
    super(secret, publicUrl);
    // the SDK prints a plain-text Node-version notice to stderr once; every line the daemon writes is JSON
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, sessionToken: opts.sessionToken }
          : undefined,
    });
    this.prefix = opts.prefix && !opts.prefix.endsWith('/') ? `${opts.prefix}/` : opts.prefix;
  }

  /** The bucket key of an object key. */
  private s3Key(key: string): string {
    assertKey(key);
    return this.prefix + key;
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    let body = typeof data === 'string' ? Buffer.from(data) : data;
    // PII at rest (docs/security.md): the objects the sealer names are stored sealed, as on local disk
    if (this.sealer?.seals(key)) body = await this.sealer.seal(key, body);
    // one PUT replaces the object whole: concurrent writers of one key never leave a mix
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.s3Key(key),
        Body: body,
        ContentType: contentTypeOf(key),
        ContentLength: body.length,
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.s3Key(key) }));
      const data = Buffer.from(await r.Body!.transformToByteArray());
      return this.sealer ? await this.sealer.open(key, data) : data;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  /** The response body as it arrives from the bucket (the SDK's Node stream): never the whole object in memory. */
  override async openRead(key: string): Promise<{ stream: Readable; size: number } | null> {
    // a sealed object is opened whole (they are small JSON files)
    if (this.sealer?.seals(key)) return super.openRead(key);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.s3Key(key) }));
      return { stream: r.Body as Readable, size: Number(r.ContentLength ?? 0) };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  /** Lists the keys under `prefix/` page by page and deletes each page (up to 1,000 keys per request). */
  async deletePrefix(prefix: string): Promise<void> {
    const under = `${this.s3Key(prefix)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: under, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) {
        const r = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.opts.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        if (r.Errors?.length)
          throw new Error(`deleting objects under ${prefix} failed: ${r.Errors[0]!.Code} ${r.Errors[0]!.Message}`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  override async redirectUrl(key: string, ttlSeconds: number): Promise<string | null> {
    // a sealed object is opened by the daemon: the bucket only holds its ciphertext
    if (this.opts.download !== 'redirect' || this.sealer?.seals(key)) return null;
    const Key = this.s3Key(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key }));
    } catch (e) {
      if (isMissing(e)) throw new TitledError('NOT_FOUND', 'no such object');
      throw e;
    }
    const expiresIn = Math.max(1, Math.min(MAX_S3_PRESIGN_SECONDS, Math.floor(ttlSeconds)));
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.opts.bucket, Key }), { expiresIn });
  }

  private lastPing?: { at: number; ok: boolean };

  /** HeadBucket: the bucket exists and these credentials reach it. */
  override async ping(maxAgeMs = 5000): Promise<boolean> {
    if (this.lastPing && Date.now() - this.lastPing.at < maxAgeMs) return this.lastPing.ok;
    let ok = true;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
    } catch {
      ok = false;
    }
    this.lastPing = { at: Date.now(), ok };
    return ok;
  }

  override async close(): Promise<void> {
    this.client.destroy();
  }
}
