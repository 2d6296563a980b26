import { expect } from 'chai';
import { EngineConfigError } from '../../core/errors.js';
import { parseWebhookOptions, retryDelayMs } from '../../plugins/webhook/options.js';
import { newSigningSecret, signatureHeaders, verify } from '../../plugins/webhook/signature.js';
import { parseSubscriptions, subscribes } from '../../plugins/webhook/events.js';

describe('webhook options, schedule, signatures, subscriptions', () => {
  it('production defaults: 10 s timeout, 3 retries from a 60 s base, lease = timeout + 30 s', () => {
    const o = parseWebhookOptions(undefined, {});
    expect(o).to.deep.include({
      timeoutMs: 10_000,
      retryBaseMs: 60_000,
      maxRetries: 3,
      leaseMs: 40_000,
      presignTtlSeconds: 3600,
    });
    expect(parseWebhookOptions({ timeoutMs: 500 }, {}).leaseMs).to.equal(30_500);
  });

  it('TITLED_WEBHOOK_RETRY_BASE_MS wins over the config; bad values and unknown options are refused', () => {
    expect(parseWebhookOptions({ retryBaseMs: 5 }, { TITLED_WEBHOOK_RETRY_BASE_MS: '250' }).retryBaseMs).to.equal(250);
    expect(() => parseWebhookOptions({}, { TITLED_WEBHOOK_RETRY_BASE_MS: 'soon' })).to.throw(
      EngineConfigError,
      /TITLED_WEBHOOK_RETRY_BASE_MS/,
    );
    expect(() => parseWebhookOptions({ timeout: 5 }, {})).to.throw(EngineConfigError, /plugins\.webhook/);
    expect(() => parseWebhookOptions({ maxRetries: -1 }, {})).to.throw(EngineConfigError);
  });

  it('retry n waits base x 2^(n-1) plus 0-25 % jitter', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(60_000, n, () => 0))).to.deep.equal([60_000, 120_000, 240_000]);
    expect([1, 2, 3].map((n) => retryDelayMs(60_000, n, () => 0.999999))).to.deep.equal([75_000, 150_000, 300_000]);
  });

  it('signs and verifies Standard Webhooks signatures; refuses another secret, a changed body and an old timestamp', () => {
    const secret = newSigningSecret();
    expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(32);
    const now = Date.now();
    const h = signatureHeaders(secret, 'msg_1', '{"a":1}', now);
    const parts = { id: h['webhook-id']!, timestamp: h['webhook-timestamp']!, signature: h['webhook-signature']! };
    expect(parts.signature).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(secret, parts, '{"a":1}', { now })).to.equal(true);
    expect(
      verify(secret, { ...parts, signature: `v1,AAAA ${parts.signature}` }, '{"a":1}', { now }),
      'any of several signatures',
    ).to.equal(true);
    expect(verify(newSigningSecret(), parts, '{"a":1}', { now })).to.equal(false);
    expect(verify(secret, parts, '{"a":2}', { now })).to.equal(false);
    expect(verify(secret, parts, '{"a":1}', { now: now + 301_000 })).to.equal(false);
  });

  it('subscriptions: exact names and title.account_status.*; unknown names refused', () => {
    expect(
      parseSubscriptions([' title.job_status.complete', 'title.job_status.complete', 'title.account_status.*']),
    ).to.deep.equal(['title.job_status.complete', 'title.account_status.*']);
    expect(() => parseSubscriptions(['title.job_status.pending'])).to.throw(/unknown event/);
    expect(() => parseSubscriptions(['title.physical_title_status.*'])).to.throw(/unknown event/);
    expect(() => parseSubscriptions([])).to.throw(/at least one/);
    expect(subscribes(['title.account_status.*'], 'title.account_status.lien_filed')).to.equal(true);
    expect(subscribes(['title.account_status.*'], 'title.physical_title_status.received')).to.equal(false);
    expect(subscribes(['title.account_status.poa_sent'], 'title.account_status.poa_signed')).to.equal(false);
  });
});
