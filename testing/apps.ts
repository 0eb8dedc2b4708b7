/**
 * An application record for tests that build requests and charges without a store: a merchant in
 * the sandbox, in gateway mode, both auth methods and the four networks, each test overriding what
 * it is about.
 */
import type { App } from '../server/apps';

export const testApp = (overrides: Partial<App> = {}): App => ({
  id: 'app_1',
  name: 'Coffee Roasters',
  merchantId: '4242',
  googleMerchantId: 'BCR2DN4TMERCHANT',
  allowedOrigins: ['https://shop.example'],
  authMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
  cardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'],
  environment: 'SANDBOX',
  decryptionMode: 'gateway',
  threeDs: 'if_required',
  googlePayMode: 'merchant',
  created: 0,
  ...overrides,
});
