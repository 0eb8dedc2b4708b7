import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyAddress } from './address-verification';
import { walletBillingAddresses } from './billing-addresses';
import { cardNetworkOf, type ChargeContext, decide, issuerProfile, luhnValid, testCards, walletCards } from './test-cards';

const NOW = Date.UTC(2026, 5, 15);

/** A charge as most of these tests make it: a device token, which carries its own 3-D Secure. */
const cryptogram: ChargeContext = { authMethod: 'CRYPTOGRAM_3DS', authenticationRequested: false, authenticated: false };
const decideFor = (pan: string, expiry: { expMonth: number; expYear: number }, context: ChargeContext = cryptogram) => decide(issuerProfile(pan), expiry, NOW, context);

/** Appends the Luhn check digit to a payload of digits. */
function withCheckDigit(payload: string): string {
  return [...'0123456789'].map((digit) => payload + digit).find(luhnValid) ?? '';
}

describe('the test-card table', () => {
  it('has only Luhn-valid numbers whose prefix is their network', () => {
    for (const card of testCards) {
      expect(luhnValid(card.number)).toBe(true);
      expect(cardNetworkOf(card.number)).toBe(card.network);
    }
  });

  it("carries each card's later answers in its issuer's profile, and says them in its wallet label", () => {
    const withLaterAnswers = testCards.filter((card) => card.unanswered || card.captureRefusal || card.refundFailure);
    expect(withLaterAnswers.map((card) => card.slug)).toEqual(['visa-pending', 'visa-capture-declined', 'visa-refund-fails']);
    for (const card of withLaterAnswers) {
      const profile = issuerProfile(card.number);
      expect([profile.unanswered, profile.captureRefusal, profile.refundFailure]).toEqual([card.unanswered, card.captureRefusal, card.refundFailure]);
      expect(decideFor(card.number, { expMonth: 12, expYear: 2099 }).status).toBe('succeeded');
    }
    const label = (slug: string) => walletCards.find((card) => card.id === `${slug}-3ds`)?.label;
    expect(label('visa-pending')).toContain('pending, then succeeds');
    expect(label('visa-capture-declined')).toContain('its capture fails: card_declined');
    expect(label('visa-refund-fails')).toContain('its refunds fail: expired_or_canceled_card');
    expect(issuerProfile('4242424242424242')).not.toHaveProperty('captureRefusal');
  });

  it('has a card for each issuer decline a payment service reports, each with its own message', () => {
    for (const code of ['fraudulent', 'lost_card', 'stolen_card', 'incorrect_cvc', 'do_not_honor'] as const) {
      const card = testCards.find((c) => c.outcome === code);
      expect(card, code).toBeDefined();
      const decision = decideFor(card!.number, { expMonth: 12, expYear: 2099 });
      expect(decision).toMatchObject({ status: 'failed', code });
      expect(decision.status === 'failed' && decision.message).toMatch(/^The card/);
    }
  });

  it('offers every card to the wallet in both auth methods, with unique ids', () => {
    expect(walletCards).toHaveLength(testCards.length * 2);
    expect(new Set(walletCards.map((card) => card.id)).size).toBe(walletCards.length);
  });
});

describe('decide', () => {
  const far = { expMonth: 12, expYear: 2099 };
  it('follows the table', () => {
    for (const card of testCards) {
      const decision = decideFor(card.number, far);
      expect(decision.status === 'succeeded' ? 'success' : decision.code).toBe(card.outcome);
    }
  });

  it('refuses PAN_ONLY cards that need 3-D Secure (or every PAN_ONLY card, when the merchant asks) until authenticated', () => {
    const pan = (context: Partial<ChargeContext>) => ({ ...cryptogram, authMethod: 'PAN_ONLY' as const, ...context });
    for (const card of testCards.filter((c) => c.threeDs)) {
      expect(decideFor(card.number, far, pan({}))).toMatchObject({ status: 'failed', code: 'authentication_required' });
      expect(decideFor(card.number, far, pan({ authenticated: true })).status).toBe('succeeded');
      expect(decideFor(card.number, far).status).toBe('succeeded');
    }
    expect(decideFor('4111111111111111', far, pan({})).status).toBe('succeeded');
    expect(decideFor('4111111111111111', far, pan({ authenticationRequested: true }))).toMatchObject({ code: 'authentication_required' });
    expect(decideFor('4111111111111111', far, { ...cryptogram, authenticationRequested: true }).status).toBe('succeeded');
    expect(decideFor('4000000000000002', far, pan({ authenticationRequested: true, authenticated: true }))).toMatchObject({ code: 'card_declined' });
  });

  it("answers a merchant-initiated charge with the card's own code, and never asks for 3-D Secure without the shopper", () => {
    const merchant = (context: Partial<ChargeContext> = {}) => ({ ...cryptogram, authMethod: 'PAN_ONLY' as const, merchantInitiated: true, ...context });
    for (const card of testCards.filter((c) => c.merchantInitiated)) {
      expect(decideFor(card.number, far).status).toBe('succeeded');
      expect(decideFor(card.number, far, merchant())).toMatchObject({ status: 'failed', code: card.merchantInitiated });
    }
    expect(decideFor('4000002760003184', far, merchant()).status).toBe('succeeded');
    expect(decideFor('4111111111111111', far, merchant({ authenticationRequested: true })).status).toBe('succeeded');
    expect(decideFor('4000000000009995', far, merchant())).toMatchObject({ code: 'insufficient_funds' });
    expect(decideFor('4111111111111111', { expMonth: 1, expYear: 2020 }, merchant())).toMatchObject({ code: 'expired_card' });
  });

  it('treats a card as valid through the end of its expiry month', () => {
    expect(decideFor('4111111111111111', { expMonth: 6, expYear: 2026 }).status).toBe('succeeded');
    expect(decideFor('4111111111111111', { expMonth: 5, expYear: 2026 })).toMatchObject({ status: 'failed', code: 'expired_card' });
    expect(decideFor('4111111111111111', { expMonth: 12, expYear: 2025 })).toMatchObject({ status: 'failed', code: 'expired_card' });
  });

  it('succeeds for any Luhn-valid number outside the table, and fails any single-digit change with invalid_number', () => {
    const table = new Set(testCards.map((card) => card.number));
    fc.assert(
      fc.property(fc.stringMatching(/^4\d{14}$/), fc.nat(15), fc.integer({ min: 1, max: 9 }), (payload, position, delta) => {
        const pan = withCheckDigit(payload);
        fc.pre(!table.has(pan));
        expect(decideFor(pan, far).status).toBe('succeeded');
        const digits = [...pan];
        digits[position] = String((Number(digits[position]) + delta) % 10);
        expect(decideFor(digits.join(''), far)).toMatchObject({ status: 'failed', code: 'invalid_number' });
      }),
    );
  });
});

describe('cardNetworkOf', () => {
  it.each([
    ['4000056655665556', 'VISA'],
    ['2223003122003222', 'MASTERCARD'],
    ['5105105105105100', 'MASTERCARD'],
    ['371449635398431', 'AMEX'],
    ['6011000990139424', 'DISCOVER'],
    ['6445644564456445', 'DISCOVER'],
    ['6221260000000000', 'DISCOVER'],
    ['3056930009020004', undefined],
    ['9999999999999995', undefined],
  ])('%s is %s', (pan, network) => {
    expect(cardNetworkOf(pan)).toBe(network);
  });
});

describe("the issuer's address on record (address verification)", () => {
  const docs = readFileSync(new URL('../docs/test-cards.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Address verification'));
  const walletDefault = { address: { line1: walletBillingAddresses[0]!.address.address1, postal_code: walletBillingAddresses[0]!.address.postalCode, country: 'US' } };

  it('gives match, mismatch and unavailable by card, each documented with what it answers for the wallet\'s default address', () => {
    const cards = testCards.filter((card) => card.issuerAddress !== undefined);
    const results = cards.map((card) => verifyAddress(issuerProfile(card.number).address, walletDefault));
    expect(new Set(results.flatMap((result) => [result.address_line1_check, result.address_postal_code_check]))).toEqual(new Set(['match', 'mismatch', 'unavailable']));
    expect(section).toContain('## Address verification');
    cards.forEach((card, i) => {
      const row = section.split('\n').find((line) => line.includes(`\`${card.number}\``));
      expect(row, card.number).toBeDefined();
      expect(row).toContain(`\`${card.slug}-3ds\``);
      expect(row).toContain(`| \`${results[i]!.address_line1_check}\` | \`${results[i]!.address_postal_code_check}\` |`);
    });
  });

  it("is the sandbox cardholder's, the wallet's default address, for every other card", () => {
    expect(verifyAddress(issuerProfile('4242424242424242').address, walletDefault)).toEqual({ address_line1_check: 'match', address_postal_code_check: 'match' });
  });
});
