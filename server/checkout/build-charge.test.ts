import { describe, expect, it } from 'vitest';
import { ChargeRequest, type EcV2Token, PaymentDataRequest } from '../../contracts';
import { billingDetailsFrom } from './billing';
import { buildCharge } from './build-charge';
import { buildPaymentDataRequest } from '../../contracts/payment-data-request';
import { testApp } from '../../testing/apps';

const app = testApp({ googleMerchantId: undefined });

const token: EcV2Token = {
  signature: 'MEUCIQ',
  intermediateSigningKey: { signedKey: '{"keyValue":"k","keyExpiration":"1"}', signatures: ['MEQ'] },
  protocolVersion: 'ECv2',
  signedMessage: '{"encryptedMessage":"e","ephemeralPublicKey":"p","tag":"t"}',
};

describe('the Google Pay request built for a session', () => {
  const request = buildPaymentDataRequest(app, { id: 'cs_1', amount: 2400, currency: 'USD', countryCode: 'US' }, { gatewayName: 'walletcheckout' });
  const card = request.allowedPaymentMethods[0];

  it('is a valid PaymentDataRequest with the gateway and mrchnt_ merchant id', () => {
    expect(PaymentDataRequest.parse(request)).toEqual(request);
    expect(card?.tokenizationSpecification).toEqual({ type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_4242' } });
  });

  it('asks for both auth methods, the four networks and a full billing address', () => {
    expect(card?.parameters.allowedAuthMethods).toEqual(['PAN_ONLY', 'CRYPTOGRAM_3DS']);
    expect([...(card?.parameters.allowedCardNetworks ?? [])].sort()).toEqual(['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA']);
    expect(card?.parameters.billingAddressRequired).toBe(true);
    expect(card?.parameters.billingAddressParameters?.format).toBe('FULL');
  });

  it('states the final total in major units with the country code', () => {
    expect(request.transactionInfo).toMatchObject({ totalPriceStatus: 'FINAL', totalPrice: '24.00', currencyCode: 'USD', countryCode: 'US' });
    expect(request.merchantInfo).toEqual({ merchantName: 'Coffee Roasters' });
  });

  it('follows the app: configured auth methods and networks, and its Google merchant id (not the service\'s) in merchantInfo', () => {
    const production = buildPaymentDataRequest(
      { ...app, googleMerchantId: 'BCR2DN4TWXYZ1234', authMethods: ['CRYPTOGRAM_3DS'], cardNetworks: ['VISA'] },
      { id: 'cs_1', amount: 1, currency: 'EUR', countryCode: 'FR' },
      { gatewayName: 'g' },
    );
    expect(production.merchantInfo.merchantId).toBe('BCR2DN4TWXYZ1234');
    expect(production.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'PAYMENT_GATEWAY', parameters: { gateway: 'g', gatewayMerchantId: 'mrchnt_4242' } });
    expect(production.allowedPaymentMethods[0]?.parameters.allowedAuthMethods).toEqual(['CRYPTOGRAM_3DS']);
    expect(production.allowedPaymentMethods[0]?.parameters.allowedCardNetworks).toEqual(['VISA']);
  });

  it('uses DIRECT tokenization with the merchant public key in direct mode', () => {
    const direct = buildPaymentDataRequest({ ...app, decryptionMode: 'direct' }, { id: 'cs_1', amount: 1, currency: 'USD', countryCode: 'US' }, { gatewayName: 'g', directPublicKey: 'BPUB' });
    expect(direct.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey: 'BPUB' } });
  });
});

describe('the charge sent to the service', () => {
  const session = { id: 'cs_1', amount: 2400, currency: 'USD', description: 'Kit', reference: 'order-9', intent: 'charge' };

  it('has the shape of the charge API: walletpay source forwarded as the wallet returned it, integer amount, lowercase currency', () => {
    const charge = buildCharge(session, { type: 'walletpay', walletpay: token }, undefined);
    expect(ChargeRequest.parse(charge)).toEqual(charge);
    expect(charge.source_data).toEqual({ type: 'walletpay', walletpay: token });
    expect(charge.amount).toBe(2400);
    expect(charge.currency).toBe('usd');
    expect(charge.metadata).toEqual({ session_id: 'cs_1', reference: 'order-9' });
  });

  it('carries a network_token source unchanged', () => {
    const networkToken = { token: '4111111111111111', token_type: 'walletpay' as const, expiry_month: '04', expiry_year: '2031', three_ds: { eci: '05', cryptogram: 'AgAA' } };
    const charge = buildCharge(session, { type: 'network_token', network_token: networkToken }, undefined);
    expect(ChargeRequest.parse(charge).source_data).toEqual({ type: 'network_token', network_token: networkToken });
  });

  it('captures at once unless the session is a hold, and asks for 3-D Secure only when the app requires it', () => {
    const charge = buildCharge(session, { type: 'walletpay', walletpay: token }, undefined);
    expect(charge).not.toHaveProperty('capture');
    expect(charge).not.toHaveProperty('authentication');
    const hold = buildCharge({ ...session, intent: 'hold' }, { type: 'walletpay', walletpay: token }, undefined, { requireAuthentication: true });
    expect(ChargeRequest.parse(hold)).toMatchObject({ capture: false, authentication: 'required' });
  });

  it('pays a payment method with the authentication session that authenticated it', () => {
    const charge = buildCharge(session, { type: 'payment_method', payment_method: 'pm_1' }, undefined, { authenticationSession: 'as_1' });
    expect(ChargeRequest.parse(charge)).toMatchObject({ source_data: { type: 'payment_method', payment_method: 'pm_1' }, authentication_session: 'as_1', amount: 2400 });
  });
});

describe('billing fields from the wallet', () => {
  it('maps every field of a FULL billing address', () => {
    const details = billingDetailsFrom({
      name: 'Ada Lovelace',
      address1: '1 Main St',
      address2: 'Flat 2',
      address3: 'Building C',
      locality: 'Springfield',
      administrativeArea: 'IL',
      postalCode: '62701',
      sortingCode: 'SC1',
      countryCode: 'US',
      phoneNumber: '+1 555 0100',
    });
    expect(details).toEqual({
      name: 'Ada Lovelace',
      phone: '+1 555 0100',
      address: { line1: '1 Main St', line2: 'Flat 2', line3: 'Building C', city: 'Springfield', state: 'IL', postal_code: '62701', sorting_code: 'SC1', country: 'US' },
    });
  });

  it('leaves out what the wallet did not give', () => {
    expect(billingDetailsFrom({ countryCode: 'FR', postalCode: '75001', address2: '' })).toEqual({ address: { country: 'FR', postal_code: '75001' } });
  });
});
