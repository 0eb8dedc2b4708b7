/**
 * Rules kept once in the contracts and used wherever their kind of value is
 * accepted: country codes from ISO 3166-1's maintained list, and challenge
 * URLs that are pages, not scripts.
 */
import { describe, expect, it } from 'vitest';
import { AllowedOrigins, AuthenticationSession, BillingDetails, CreateSessionBody, isFrameableUrl, PaymentOutcome, WalletAddress } from '.';

describe('country codes (ISO 3166-1 alpha-2, i18n-iso-countries)', () => {
  const session = (country_code: string) => CreateSessionBody.safeParse({ amount: 100, currency: 'USD', country_code });

  it('takes an assigned code, in either case, and stores it uppercase', () => {
    expect(session('us').data?.country_code).toBe('US');
    expect(session('GB').data?.country_code).toBe('GB');
  });

  it.each(['ZZ', 'QQ', 'XA', 'USA', '840', 'U', ''])('refuses %j in a session, a wallet address and billing details', (code) => {
    expect(session(code).success).toBe(false);
    expect(WalletAddress.safeParse({ countryCode: code }).success).toBe(false);
    expect(BillingDetails.safeParse({ address: { country: code } }).success).toBe(false);
  });
});

describe('challenge URLs', () => {
  const authenticationSession = (challenge_url: string) =>
    AuthenticationSession.safeParse({ id: 'as_1', object: 'authentication_session', status: 'challenge_required', payment_method: 'pm_1', amount: 1, currency: 'usd', challenge_url, expires_at: 1, created: 1 });
  const outcome = (challenge_url: string) =>
    PaymentOutcome.safeParse({ status: 'requires_authentication', charge_id: null, card: null, failure_code: null, failure_message: null, challenge_url });

  it.each(['https://acs.bank.example/challenge/as_1', 'http://127.0.0.1:3000/sandbox/service/challenge/as_1', 'http://localhost:3000/c', 'http://[::1]:3000/c'])('takes %s', (url) => {
    expect(isFrameableUrl(url)).toBe(true);
    expect(authenticationSession(url).success).toBe(true);
    expect(outcome(url).success).toBe(true);
  });

  it.each(['javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'http://acs.bank.example/challenge', 'http://127.0.0.1.evil.example/c', 'file:///etc/passwd', 'blob:https://x/1'])(
    'refuses %s where the service replies, and in a stored outcome',
    (url) => {
      expect(isFrameableUrl(url)).toBe(false);
      expect(authenticationSession(url).success).toBe(false);
      expect(outcome(url).success).toBe(false);
    },
  );
});

describe('allowed origins (the dashboard, npm run app:create --origin, npm run app:update --origin)', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://shop.example/', 'https://shop.example'],
    ['https://Shop.Example:443', 'https://shop.example'],
    ['https://shop.example:8443', 'https://shop.example:8443'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    [' https://shop.example ', 'https://shop.example'],
  ])('takes %j as %s', (given, stored) => {
    expect(AllowedOrigins.parse([given])).toEqual([stored]);
  });

  it.each([
    'javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>', 'null', 'ftp://shop.example', 'ws://shop.example',
    'https://shop.example/checkout', 'https://shop.example/?', 'https://shop.example?a=1', 'https://shop.example#top', 'https://shop.example/#',
    'https://user:pw@shop.example', 'https://user@shop.example', 'https://*.shop.example', 'https://*', '*', 'https://shop.example.', 'https:shop.example',
    'shop.example', '/checkout', 'not a uri', '', `https://${'a'.repeat(300)}.example`,
  ])('refuses %j, naming the rule', (given) => {
    const parsed = AllowedOrigins.safeParse([given]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/origin/);
  });
});
