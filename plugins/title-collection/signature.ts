/**
 * The carrier tracking webhook's signature (docs/title-collection.md):
 *   X-Carrier-Signature: t=<epoch seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 * Several `v1=` parts may be given (secret rotation); the timestamp must be
 * within 5 minutes of now, so a captured request cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const CARRIER_SIGNATURE_HEADER = 'x-carrier-signature';

export function signCarrierBody(secret: string, body: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export function verifyCarrierSignature(
  secret: string,
  header: string | undefined,
  body: string,
  now = Date.now(),
  toleranceS = 300,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceS) return false;
  const want = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(([k, v]) => {
    if (k !== 'v1' || !/^[0-9a-f]{64}$/i.test(v ?? '')) return false;
    return timingSafeEqual(Buffer.from(v, 'hex'), want);
  });
}
