import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// random IVs drawn from a pool filled 4 KB at a time: one call to the CSPRNG per 341 seals instead of one per seal
let pool = Buffer.alloc(0);
let at = 0;
function randomIv(): Buffer {
  if (at + 12 > pool.length) {
    pool = randomBytes(12 * 341);
    at = 0;
  }
  const iv = pool.subarray(at, at + 12);
  at += 12;
  return iv;
}

/** AES-256-GCM: base64url of iv (12, random) | tag (16) | ciphertext, with `aad` bound to it. */
export function seal(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomIv();
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64url');
}

/** Opens what `seal` made; throws when the key, the aad or the bytes do not match. */
export function open(key: Buffer, sealed: string, aad: string): Buffer {
  const b = Buffer.from(sealed, 'base64url');
  if (b.length < 28) throw new Error('sealed value too short');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(b.subarray(12, 28));
  return Buffer.concat([d.update(b.subarray(28)), d.final()]);
}
