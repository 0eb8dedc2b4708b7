import { describe, expect, it } from 'vitest';
import { normalizeApiBase, parseClientSecret, resolveScriptUrl, sessionLoadMessage, CheckoutApiError } from './api';

describe('parseClientSecret', () => {
  it('takes the session id before _secret_', () => {
    expect(parseClientSecret('cs_abc123_secret_xyz')).toBe('cs_abc123');
    expect(parseClientSecret('cs_a_secret_b_secret_c')).toBe('cs_a');
  });
  it('rejects malformed secrets', () => {
    for (const s of ['', 'cs_abc123', '_secret_xyz', 'cs_abc_secret_', 42, undefined, null]) {
      expect(parseClientSecret(s)).toBeNull();
    }
  });
});

describe('urls', () => {
  it('normalizes apiBase and resolves the sandbox script', () => {
    expect(normalizeApiBase('https://pay.example/')).toBe('https://pay.example');
    expect(resolveScriptUrl('/sandbox-wallet.js', 'https://pay.example')).toBe('https://pay.example/sandbox-wallet.js');
    expect(resolveScriptUrl('static/w.js', 'https://pay.example/checkout')).toBe('https://pay.example/checkout/static/w.js');
    expect(resolveScriptUrl('https://cdn.example/w.js', 'https://pay.example')).toBe('https://cdn.example/w.js');
  });
});

describe('sessionLoadMessage', () => {
  it('explains 401 and 404 without leaking server internals', () => {
    expect(sessionLoadMessage(new CheckoutApiError(401, 'unauthorized', 'x'))).toMatch(/verified/);
    expect(sessionLoadMessage(new CheckoutApiError(404, 'not_found', 'x'))).toMatch(/wasn't found/);
  });
});
