/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): headers
 * `webhook-id`, `webhook-timestamp` (epoch seconds) and `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of the profile's `whsec_<base64>` secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + 32 random bytes in base64. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 signature>` of one message. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three signature headers of one attempt. */
export function signatureHeaders(secret: string, id: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}

/**
 * What a receiver does: true when one of the space-separated `v1,` signatures
 * matches and the timestamp is within `toleranceS` of now (replays refused).
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  o: { now?: number; toleranceS?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs((o.now ?? Date.now()) / 1000 - ts) > (o.toleranceS ?? 300)) return false;
  const want = Buffer.from(sign(secret, headers.id, ts, body).slice(3), 'base64');
  return headers.signature.split(' ').some((s) => {
    if (!s.startsWith('v1,')) return false;
    const got = Buffer.from(s.slice(3), 'base64');
    return got.length === want.length && timingSafeEqual(got, want);
  });
}
