/**
 * The sandbox service's own address verification: the issuer
 * compares the billing address a charge request sends with the cardholder's
 * address it has on record, which the test card decides, and answers for the
 * first line and the postal code on the charge (docs/service-conventions.md#address-verification,
 * docs/test-cards.md#address-verification).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Charge } from '../contracts';
import { mintToken, networkTokenCharge, postCharge, postJson, serviceHeaders, startSandbox, walletpayCharge } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const CRYPTOGRAM = { eci: '05', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' };
/** The sandbox wallet's default address (`matching`) as the backend sends it. */
const MATCHING = { name: 'Sandbox Shopper', address: { line1: '1 Sandbox Way', line2: 'Suite 200', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } };
/** The sandbox wallet's `mismatching` address. */
const ELSEWHERE = { name: 'Sandbox Shopper', address: { line1: '500 Elsewhere Avenue', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' } };

async function charged(body: unknown): Promise<Charge> {
  const reply = await postCharge(sandbox, body);
  expect(reply.status).toBe(201);
  return Charge.parse(reply.body);
}

const checksOf = (charge: Charge) => [charge.address_line1_check, charge.address_postal_code_check];

describe("the issuer's address verification on a charge, by test card", () => {
  it.each([
    ['4000000000000051', 'visa-avs-match', 'match', 'match'],
    ['4000000000000010', 'visa-avs-mismatch', 'mismatch', 'mismatch'],
    ['4000000000000028', 'visa-avs-line1-mismatch', 'mismatch', 'match'],
    ['4000000000000036', 'visa-avs-postal-code-mismatch', 'match', 'mismatch'],
    ['4000000000000044', 'visa-avs-unavailable', 'unavailable', 'unavailable'],
    // Every other card: the issuer has the sandbox cardholder's address, the wallet's default.
    ['4111111111111111', 'visa-success', 'match', 'match'],
    ['4000000000000002', 'visa-decline', 'match', 'match'],
  ])('%s (%s): line 1 %s, postal code %s, through the wallet and as a network token, kept on the charge', async (number, slug, line1, postalCode) => {
    const viaWallet = await charged({ ...walletpayCharge(await mintToken(sandbox, `${slug}-3ds`)), billing_details: MATCHING });
    const viaNetworkToken = await charged({ ...networkTokenCharge(number, { three_ds: CRYPTOGRAM }), billing_details: MATCHING });
    for (const charge of [viaWallet, viaNetworkToken]) {
      expect(checksOf(charge)).toEqual([line1, postalCode]);
      const read = await fetch(`${sandbox.baseUrl}/service/api/v1/charges/${charge.id}`, { headers: serviceHeaders(sandbox) });
      expect(Charge.parse(await read.json())).toEqual(charge);
      expect((await sandbox.service.ledger()).find((entry) => entry.charge.id === charge.id)?.charge).toEqual(charge);
    }
  });
});

describe('what the issuer compares', () => {
  it("is the address the request sent, against the card's: another address mismatches on a card whose issuer has the sandbox cardholder's", async () => {
    expect(checksOf(await charged({ ...networkTokenCharge('4111111111111111'), billing_details: ELSEWHERE }))).toEqual(['mismatch', 'mismatch']);
  });

  it('sees past case, spacing, punctuation and a ZIP+4, as issuers do', async () => {
    const typed = { address: { line1: '  1 SANDBOX   WAY. ', postal_code: '94105-1234', country: 'US' } };
    expect(checksOf(await charged({ ...networkTokenCharge('4111111111111111'), billing_details: typed }))).toEqual(['match', 'match']);
  });

  it('answers null for a field the request did not send (no billing details; a MIN address has no first line)', async () => {
    expect(checksOf(await charged(networkTokenCharge('4111111111111111')))).toEqual([null, null]);
    const min = { name: 'Sandbox Shopper', address: { postal_code: '94105', country: 'US' } };
    expect(checksOf(await charged({ ...networkTokenCharge('4000000000000010'), billing_details: min }))).toEqual([null, 'mismatch']);
  });

  it('verifies a declined charge too: the issuer answers both', async () => {
    const declined = await charged({ ...networkTokenCharge('4000000000009995'), billing_details: ELSEWHERE });
    expect(declined).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds', address_line1_check: 'mismatch', address_postal_code_check: 'mismatch' });
  });

  it('verifies a payment_method charge against the billing details of the charge that made the payment method (after 3-D Secure)', async () => {
    // PAN_ONLY (no three_ds) on a card that wants 3-D Secure: refused, with a payment method to authenticate.
    const first = await charged({ ...networkTokenCharge('4000002500003155'), billing_details: ELSEWHERE });
    expect(first).toMatchObject({ status: 'failed', failure_code: 'authentication_required', address_line1_check: 'mismatch', address_postal_code_check: 'mismatch' });
    const authentication = await postJson(
      `${sandbox.baseUrl}/service/api/v1/authentication_sessions`,
      { payment_method: first.payment_method, amount: first.amount, currency: first.currency, return_origin: 'https://shop.example' },
      serviceHeaders(sandbox),
    );
    expect(authentication.body).toMatchObject({ status: 'authenticated' });
    const paid = await charged({
      source_data: { type: 'payment_method', payment_method: first.payment_method },
      amount: first.amount,
      currency: first.currency,
      authentication_session: (authentication.body as { id: string }).id,
    });
    expect(paid).toMatchObject({ status: 'succeeded', source_type: 'payment_method', billing_details: ELSEWHERE, address_line1_check: 'mismatch', address_postal_code_check: 'mismatch' });
  });
});
