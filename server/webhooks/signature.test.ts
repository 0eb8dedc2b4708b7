/**
 * The signature header and the verification the demo store uses (the same
 * recipe as docs/webhooks.md), and the retry schedule's bounds.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelay } from './delivery';
import { checkSignature } from '../../contracts/webhook-signature';
import { signatureHeader } from './signature';

const body = '{"id":"evt_1","object":"event"}';

describe('Wallet-Checkout-Signature', () => {
  it('is t=<seconds> and one v1 per secret, newest first, each the HMAC-SHA256 of "<t>.<body>"', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], body, 1_763_907_000);
    const hmac = (secret: string) => createHmac('sha256', secret).update(`1763907000.${body}`).digest('hex');
    expect(header).toBe(`t=1763907000,v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`);
  });

  it('verifies with any of its secrets, within five minutes, and says why it does not', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], body, 1_000_000);
    expect(checkSignature(header, body, 'whsec_old', { now: 1_000_000 + 300 })).toBe('verified');
    expect(checkSignature(header, body, 'whsec_new', { now: 1_000_000 - 300 })).toBe('verified');
    expect(checkSignature(header, body, 'whsec_new', { now: 1_000_000 + 301 })).toBe('stale_timestamp');
    expect(checkSignature(header, body, 'whsec_new', { now: 1_000_000 + 301, toleranceSeconds: 600 })).toBe('verified');
    expect(checkSignature(header, `${body} `, 'whsec_new', { now: 1_000_000 })).toBe('no_matching_signature');
    expect(checkSignature(header, body, 'whsec_other', { now: 1_000_000 })).toBe('no_matching_signature');
    expect(checkSignature('v1=00', body, 'whsec_new', { now: 1_000_000 })).toBe('malformed_header');
    expect(checkSignature('t=1000000', body, 'whsec_new', { now: 1_000_000 })).toBe('malformed_header');
    expect(checkSignature('t=1e6,v1=00', body, 'whsec_new', { now: 1_000_000 })).toBe('malformed_header');
  });
});

describe('the retry schedule', () => {
  const schedule = { baseMs: 30_000, maxMs: 3_600_000, windowMs: 259_200_000 };
  it('waits anywhere below base x 2^(n-1), capped at the max (full jitter)', () => {
    const almostOne = () => 0.999_999;
    expect([1, 2, 3, 8, 20].map((attempt) => retryDelay(schedule, attempt, almostOne))).toEqual([29_999, 59_999, 119_999, 3_599_996, 3_599_996]);
    expect(retryDelay(schedule, 5, () => 0)).toBe(0);
  });
});
