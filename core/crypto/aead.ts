import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM: base64url of iv (12) | tag (16) | ciphertext, with `aad` bound to it. */
export function seal(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomBytes(12);
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
