/**
 * The Google Pay request the server builds, in each mode (merchant or
 * platform, gateway or direct) and environment: what the wallet is asked for
 * and what its sheet will say.
 */
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { PaymentDataRequest, type WalletEnvironment } from '../../contracts';
import { buildPaymentDataRequest } from '../../contracts/payment-data-request';
import { AUTH_JWT_LIFETIME_SECONDS, createPlatformSigner, merchantOriginOf } from './platform';
import { testApp } from '../../testing/apps';

const app = testApp({ cardNetworks: ['VISA', 'MASTERCARD'] });
const session = { id: 'cs_abc', amount: 2400, currency: 'USD', countryCode: 'US' };
const platformKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const signer = createPlatformSigner({ googleMerchantId: 'BCR2DN4TPLATFORM', signingKey: platformKeys.privateKey }, () => 1_700_000_000_000);

describe.each<WalletEnvironment>(['SANDBOX', 'TEST', 'PRODUCTION'])('in %s', (environment) => {
  const merchantApp = { ...app, environment };

  it('says what happens: the sheet pays at once, under our session id, with the charge decided in the sheet', () => {
    const request = buildPaymentDataRequest(merchantApp, session, { gatewayName: 'walletcheckout' });
    expect(PaymentDataRequest.parse(request)).toEqual(request);
    expect(request.transactionInfo).toEqual({
      totalPriceStatus: 'FINAL',
      totalPrice: '24.00',
      currencyCode: 'USD',
      countryCode: 'US',
      transactionId: 'cs_abc',
      checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE',
    });
    expect(request.callbackIntents).toEqual(['PAYMENT_AUTHORIZATION']);
    expect(request.allowedPaymentMethods[0]?.parameters.assuranceDetailsRequired).toBe(true);
  });

  it('merchant mode, gateway: the gateway seals for the service\'s merchant id; Google hears the id it issued, when the app has one', () => {
    const request = buildPaymentDataRequest(merchantApp, session, { gatewayName: 'walletcheckout' });
    expect(request.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_4242' } });
    expect(request.merchantInfo).toEqual({ merchantName: 'Coffee Roasters', merchantId: 'BCR2DN4TMERCHANT' });
    // Optional outside PRODUCTION (NewApp requires it there): without one, merchantInfo names no id at all.
    if (environment !== 'PRODUCTION') {
      expect(buildPaymentDataRequest({ ...merchantApp, googleMerchantId: undefined }, session, { gatewayName: 'g' }).merchantInfo).toEqual({ merchantName: 'Coffee Roasters' });
    }
  });

  it('merchant mode, direct: DIRECT tokenization to the merchant key, addressed by the Google merchant id', () => {
    const request = buildPaymentDataRequest({ ...merchantApp, decryptionMode: 'direct' }, session, { gatewayName: 'g', directPublicKey: 'BPUB' });
    expect(request.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey: 'BPUB' } });
    expect(request.merchantInfo).toEqual({ merchantName: 'Coffee Roasters', merchantId: 'BCR2DN4TMERCHANT' });
  });

  it('platform mode: our Google merchant id, the page\'s site and the authJwt vouching for it; the gateway still seals for the merchant', async () => {
    const platform = await signer('https://shop.example');
    const request = buildPaymentDataRequest({ ...merchantApp, googlePayMode: 'platform' }, session, { gatewayName: 'walletcheckout', platform });
    expect(request.merchantInfo).toEqual({ merchantName: 'Coffee Roasters', merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: 'shop.example', authJwt: platform.authJwt });
    expect(request.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_4242' } });
  });
});

describe('the platform authJwt', () => {
  it('is an ES256 JWT binding our merchant id to the page\'s site, verifiable with the registered public key, for 30 minutes', async () => {
    const { authJwt } = await signer('https://shop.example');
    expect(decodeProtectedHeader(authJwt)).toEqual({ alg: 'ES256', typ: 'JWT' });
    const { payload } = await jwtVerify(authJwt, platformKeys.publicKey, { currentDate: new Date(1_700_000_000_000) });
    expect(payload).toEqual({ merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: 'shop.example', iat: 1_700_000_000, exp: 1_700_000_000 + AUTH_JWT_LIFETIME_SECONDS });
    expect(AUTH_JWT_LIFETIME_SECONDS).toBe(1800);
  });

  it('names a site by its host: a development port stays, a default port does not', async () => {
    expect(merchantOriginOf('https://shop.example:443')).toBe('shop.example');
    expect(merchantOriginOf('http://127.0.0.1:4173')).toBe('127.0.0.1:4173');
    expect(decodeJwt((await signer('http://127.0.0.1:4173')).authJwt).merchantOrigin).toBe('127.0.0.1:4173');
  });

  it('a platform app is never built without one: the route must refuse it first', () => {
    expect(() => buildPaymentDataRequest({ ...app, googlePayMode: 'platform' }, session, { gatewayName: 'g' })).toThrow(/platform mode/);
  });
});
