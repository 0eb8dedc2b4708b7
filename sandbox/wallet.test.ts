import { afterAll, describe, expect, it } from 'vitest';
import { PaymentData, RootSigningKeys, WalletAddress } from '../contracts';
import type { PaymentDataRequest } from '../contracts';
import { generateRecipientKeyPair, openToken, publicKeyToUncompressedBase64 } from '../common/ecv2';
import { GATEWAY, mintToken, paymentDataRequest, postJson, startSandbox } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;

function directRequest(publicKey: string, merchantId: string | null = 'BCR2DN4T00000000'): PaymentDataRequest {
  const request = paymentDataRequest();
  const [method] = request.allowedPaymentMethods;
  if (!method) throw new Error('no method');
  return {
    ...request,
    allowedPaymentMethods: [{ ...method, tokenizationSpecification: { type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey } } }],
    merchantInfo: merchantId === null ? { merchantName: 'Direct Store' } : { merchantName: 'Direct Store', merchantId },
  };
}

describe('GET /wallet/cards', () => {
  it('lists the test cards in both auth variants, with the sandbox billing addresses, to any origin', async () => {
    const response = await fetch(`${sandbox.baseUrl}/wallet/cards`, { headers: { origin: 'https://shop.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const body = (await response.json()) as { cards: { id: string; auth_method: string; outcome: string }[]; billing_addresses: { id: string; address: unknown }[] };
    const ids = body.cards.map((card) => card.id);
    expect(ids).toEqual(expect.arrayContaining(['visa-success-3ds', 'visa-success-pan', 'mastercard-success-pan', 'visa-decline-3ds']));
    expect(body.cards.find((card) => card.id === 'visa-decline-3ds')).toMatchObject({ auth_method: 'CRYPTOGRAM_3DS', outcome: 'card_declined' });
    expect(body.billing_addresses.map((choice) => choice.id)).toEqual(['matching', 'mismatching', 'no-postal-code']);
    const shipping = (body as unknown as { shipping_addresses: { address: unknown }[] }).shipping_addresses.map((choice) => WalletAddress.parse(choice.address).countryCode);
    expect(new Set(shipping).size, 'shipping addresses in several countries').toBeGreaterThan(3);
    for (const choice of body.billing_addresses) expect(WalletAddress.parse(choice.address)).toMatchObject({ countryCode: 'US' });
    expect(JSON.stringify(body)).not.toContain('4111111111111111');
  });

  it('answers CORS preflight for the token endpoint', async () => {
    const response = await fetch(`${sandbox.baseUrl}/wallet/tokens`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });
});

describe('POST /wallet/tokens', () => {
  it('returns PaymentData as Google Pay would, with the full billing address', async () => {
    const paymentData = PaymentData.parse(await mintToken(sandbox, 'visa-success-3ds'));
    expect(paymentData.paymentMethodData).toMatchObject({
      type: 'CARD',
      description: 'Visa •••• 1111',
      info: { cardNetwork: 'VISA', cardDetails: '1111', billingAddress: { name: 'Sandbox Shopper', address1: '1 Sandbox Way', locality: 'San Francisco', countryCode: 'US' } },
      tokenizationData: { type: 'PAYMENT_GATEWAY' },
    });
    expect(paymentData.paymentMethodData.info.billingAddress?.phoneNumber).toBeUndefined();
    expect(JSON.parse(paymentData.paymentMethodData.tokenizationData.token)).toMatchObject({ protocolVersion: 'ECv2' });
  });

  it("has Google's shape: a FULL address has every field, blank where the address has none; e-mail only when asked; nothing not asked for", async () => {
    const full = await mintToken(sandbox, 'visa-success-pan', paymentDataRequest(), 'mismatching');
    expect(full.paymentMethodData.info.billingAddress).toEqual({
      name: 'Sandbox Shopper', address1: '500 Elsewhere Avenue', address2: '', address3: '', locality: 'Portland', administrativeArea: 'OR', postalCode: '97201', sortingCode: '', countryCode: 'US',
    });
    expect(full).not.toHaveProperty('email');
    expect(full).not.toHaveProperty('shippingAddress');
    const withEmail = await mintToken(sandbox, 'visa-success-pan', { ...paymentDataRequest(), emailRequired: true });
    expect(withEmail.email).toMatch(/^[^@\s]+@[^@\s]+\.example$/);
    const request = paymentDataRequest();
    delete request.allowedPaymentMethods[0]!.parameters.assuranceDetailsRequired;
    expect((await mintToken(sandbox, 'visa-success-pan', request)).paymentMethodData.info).not.toHaveProperty('assuranceDetails');
  });

  it('returns the MIN billing address, with the phone only when asked', async () => {
    const request = paymentDataRequest({ format: 'MIN' });
    const min = await mintToken(sandbox, 'visa-success-pan', request);
    expect(min.paymentMethodData.info.billingAddress).toEqual({ name: 'Sandbox Shopper', countryCode: 'US', postalCode: '94105' });
    const [method] = request.allowedPaymentMethods;
    if (!method) throw new Error('no method');
    method.parameters.billingAddressParameters = { format: 'MIN', phoneNumberRequired: true };
    const withPhone = await mintToken(sandbox, 'visa-success-pan', request);
    expect(withPhone.paymentMethodData.info.billingAddress?.phoneNumber).toEqual(expect.any(String));
    method.parameters.billingAddressRequired = false;
    const none = await mintToken(sandbox, 'visa-success-pan', request);
    expect(none.paymentMethodData.info.billingAddress).toBeUndefined();
    // Left out, it is Google's default, false: no address, and no refusal.
    delete method.parameters.billingAddressRequired;
    expect((await mintToken(sandbox, 'visa-success-pan', request)).paymentMethodData.info.billingAddress).toBeUndefined();
  });

  it('returns the billing address the shopper picked, and refuses one it does not offer', async () => {
    const mismatching = await mintToken(sandbox, 'visa-success-pan', paymentDataRequest(), 'mismatching');
    expect(mismatching.paymentMethodData.info.billingAddress).toMatchObject({ address1: '500 Elsewhere Avenue', postalCode: '97201' });
    const noPostalCode = await mintToken(sandbox, 'visa-success-pan', paymentDataRequest({ format: 'MIN' }), 'no-postal-code');
    // As Google's: where a country has no postal codes the field is blank, not absent.
    expect(noPostalCode.paymentMethodData.info.billingAddress).toEqual({ name: 'Sandbox Shopper', countryCode: 'US', postalCode: '' });
    const reply = await postJson(`${sandbox.baseUrl}/wallet/tokens`, { card_id: 'visa-success-pan', billing_address_id: 'nowhere', payment_data_request: paymentDataRequest() });
    expect(reply).toMatchObject({ status: 400, body: { error: { code: 'unknown_billing_address' } } });
  });

  describe('for an express checkout', () => {
    const express = (extra: Record<string, unknown> = {}) => ({
      ...paymentDataRequest(),
      transactionInfo: { ...paymentDataRequest().transactionInfo, totalPriceStatus: 'ESTIMATED', checkoutOption: 'DEFAULT' },
      callbackIntents: ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER'],
      shippingAddressRequired: true,
      shippingAddressParameters: { allowedCountryCodes: ['US', 'GB', 'CA', 'AU'] },
      shippingOptionRequired: true,
      emailRequired: true,
      ...extra,
    });
    const mint = (body: Record<string, unknown>) => postJson(`${sandbox.baseUrl}/wallet/tokens`, { card_id: 'visa-success-pan', shipping_option_id: 'std', ...body });

    it('returns the full shipping address picked, the option chosen, the offers applied and the e-mail, once paid', async () => {
      const reply = await mint({ shipping_address_id: 'gb-office', redemption_codes: ['TEN'], payment_data_request: express() });
      expect(reply.status).toBe(200);
      const paymentData = PaymentData.parse((reply.body as { payment_data: unknown }).payment_data);
      expect(paymentData).toMatchObject({
        shippingAddress: { name: 'Sandbox Shopper', address1: '10 Example Street', address2: '', locality: 'London', postalCode: 'SW1A 2AA', countryCode: 'GB' },
        shippingOptionData: { id: 'std' },
        offerData: { redemptionCodes: ['TEN'] },
        email: expect.stringMatching(/@/),
      });
      expect(paymentData.shippingAddress).not.toHaveProperty('phoneNumber');
    });

    it('gives the phone only when asked, and the first allowed address when none is named', async () => {
      const reply = await mint({ payment_data_request: express({ shippingAddressParameters: { allowedCountryCodes: ['CA'], phoneNumberRequired: true } }) });
      expect((reply.body as { payment_data: PaymentData }).payment_data.shippingAddress).toMatchObject({ locality: 'Toronto', phoneNumber: expect.any(String) });
    });

    it('refuses an address the request does not allow or the wallet does not hold, and a missing shipping option', async () => {
      expect(await mint({ shipping_address_id: 'jp-tokyo', payment_data_request: express() })).toMatchObject({ status: 400, body: { error: { code: 'unknown_shipping_address' } } });
      expect(await mint({ shipping_address_id: 'moon', payment_data_request: express() })).toMatchObject({ status: 400, body: { error: { code: 'unknown_shipping_address' } } });
      const noOption = await postJson(`${sandbox.baseUrl}/wallet/tokens`, { card_id: 'visa-success-pan', payment_data_request: express() });
      expect(noOption).toMatchObject({ status: 400, body: { error: { code: 'shipping_option_required' } } });
    });

    it('leaves all of it out of a request that asks for none of it', async () => {
      const plain = await mintToken(sandbox, 'visa-success-pan');
      for (const field of ['shippingAddress', 'shippingOptionData', 'offerData']) expect(plain).not.toHaveProperty(field);
    });
  });

  it('seals DIRECT tokens to the merchant key, for merchant:<merchantId>, trusted through root-keys.json', async () => {
    const merchantKey = generateRecipientKeyPair();
    const paymentData = await mintToken(sandbox, 'mastercard-success-3ds', directRequest(publicKeyToUncompressedBase64(merchantKey.publicKey)));
    expect(paymentData.paymentMethodData.tokenizationData.type).toBe('DIRECT');
    const rootKeys = RootSigningKeys.parse(await (await fetch(`${sandbox.baseUrl}/wallet/root-keys.json`)).json()).keys;
    expect(rootKeys).toEqual(sandbox.service.rootKeys);
    const opened = openToken(paymentData.paymentMethodData.tokenizationData.token, { recipientId: 'merchant:BCR2DN4T00000000', privateKeys: [merchantKey.privateKey], rootKeys });
    if (!opened.ok) throw new Error(opened.error.code);
    expect(opened.value.gatewayMerchantId).toBeUndefined();
    expect(opened.value.paymentMethodDetails).toMatchObject({ pan: '5555555555554444', authMethod: 'CRYPTOGRAM_3DS', cryptogram: expect.any(String), eciIndicator: '02' });
    expect(Number(opened.value.messageExpiration)).toBeGreaterThan(Date.now());
  });

  it('gives PAN_ONLY messages no cryptogram', async () => {
    const merchantKey = generateRecipientKeyPair();
    const paymentData = await mintToken(sandbox, 'visa-success-pan', directRequest(publicKeyToUncompressedBase64(merchantKey.publicKey)));
    const opened = openToken(paymentData.paymentMethodData.tokenizationData.token, { recipientId: 'merchant:BCR2DN4T00000000', privateKeys: [merchantKey.privateKey], rootKeys: sandbox.service.rootKeys });
    if (!opened.ok) throw new Error(opened.error.code);
    expect(opened.value.paymentMethodDetails.authMethod).toBe('PAN_ONLY');
    expect(opened.value.paymentMethodDetails.cryptogram).toBeUndefined();
  });

  const validKey = publicKeyToUncompressedBase64(generateRecipientKeyPair().publicKey);
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64');
  const refusals: [string, string, PaymentDataRequest, string][] = [
    ['an unknown card', 'nope', paymentDataRequest(), 'unknown_card'],
    ['another gateway', 'visa-success-3ds', paymentDataRequest({ gateway: 'stripe' }), 'unknown_gateway'],
    ['a network the request does not allow', 'amex-success-3ds', paymentDataRequest({ networks: ['VISA', 'MASTERCARD'] }), 'card_network_not_allowed'],
    ['an auth method the request does not allow', 'visa-success-pan', paymentDataRequest({ authMethods: ['CRYPTOGRAM_3DS'] }), 'auth_method_not_allowed'],
    ['DIRECT without merchantId', 'visa-success-3ds', directRequest(validKey, null), 'merchant_id_required'],
    ['DIRECT with a merchantId Google would not issue (the service\'s)', 'visa-success-3ds', directRequest(validKey, 'mrchnt_4242'), 'invalid_merchant_id'],
    ['DIRECT with a point off the curve', 'visa-success-3ds', directRequest(offCurve), 'invalid_public_key'],
    ['DIRECT with a key that is not a point', 'visa-success-3ds', directRequest('AAAA'), 'invalid_public_key'],
  ];
  it.each(refusals)('refuses %s', async (_name, cardId, request, code) => {
    const reply = await postJson(`${sandbox.baseUrl}/wallet/tokens`, { card_id: cardId, payment_data_request: request });
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe(code);
  });

  it('refuses a request that is not a PaymentDataRequest', async () => {
    const reply = await postJson(`${sandbox.baseUrl}/wallet/tokens`, { card_id: 'visa-success-3ds', payment_data_request: { apiVersion: 1 } });
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('invalid_request');
  });

  it('refuses malformed JSON with a CORS-readable 400', async () => {
    const reply = await postJson(`${sandbox.baseUrl}/wallet/tokens`, '{', { origin: 'https://shop.example' });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /service/keys', () => {
  it('publishes the gateway public key only', async () => {
    const body = (await (await fetch(`${sandbox.baseUrl}/service/keys`)).json()) as Record<string, string>;
    expect(body).toEqual({ gateway: GATEWAY, recipient_id: `gateway:${GATEWAY}`, protocol_version: 'ECv2', public_key: expect.any(String) });
    expect(Buffer.from(body['public_key'] ?? '', 'base64')).toHaveLength(65);
  });
});
