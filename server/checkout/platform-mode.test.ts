/** A platform-mode app's public view over HTTP: an authJwt for the page it is read from, or a clear refusal where no platform is configured. */
import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../testing/harness';
import { markOriginsVerified } from '../../testing/origin-verification';

const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const platform = await startTestServer({ PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4TPLATFORM', PLATFORM_SIGNING_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
const plain = await startTestServer();
afterAll(() => Promise.all([platform.close(), plain.close()]));

const publicView = (url: string, session: { id: string; client_secret: string }, origin: string) =>
  fetch(`${url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, origin } });

describe('the public view of a platform-mode app', () => {
  it('carries our merchant id and an authJwt for the origin the page reads it from', async () => {
    const { appId, secretKey } = await platform.merchant({ merchant_id: 'shop1', allowed_origins: ['https://shop.example', 'https://other-shop.example'], google_pay_mode: 'platform' });
    // Each origin proved its owner controls it (origin-verification.test.ts: how).
    await markOriginsVerified(platform.store, appId, ['https://shop.example', 'https://other-shop.example']);
    const session = await platform.createSession(secretKey);
    for (const [origin, site] of [['https://shop.example', 'shop.example'], ['https://other-shop.example', 'other-shop.example']] as const) {
      const reply = await publicView(platform.url, session, origin);
      expect(reply.status).toBe(200);
      const { merchantInfo } = ((await reply.json()) as { payment_data_request: { merchantInfo: { merchantId: string; merchantOrigin: string; authJwt: string } } }).payment_data_request;
      expect(merchantInfo).toMatchObject({ merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: site });
      expect((await jwtVerify(merchantInfo.authJwt, keys.publicKey)).payload).toMatchObject({ merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: site });
    }
    // An origin the app does not allow gets no JWT at all.
    expect((await publicView(platform.url, session, 'https://evil.example')).status).toBe(403);
  });

  it('signs for the page that embeds the checkout frame (iframe mode), not for the frame\'s own origin', async () => {
    const { appId, secretKey } = await platform.merchant({ merchant_id: 'shop4', allowed_origins: ['https://shop.example'], google_pay_mode: 'platform' });
    await markOriginsVerified(platform.store, appId, ['https://shop.example']);
    const session = await platform.createSession(secretKey);
    const reply = await fetch(`${platform.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, 'checkout-embedder-origin': 'https://shop.example' } });
    expect(reply.status).toBe(200);
    const { merchantInfo } = ((await reply.json()) as { payment_data_request: { merchantInfo: { merchantOrigin: string; authJwt: string } } }).payment_data_request;
    expect(merchantInfo.merchantOrigin).toBe('shop.example');
    expect((await jwtVerify(merchantInfo.authJwt, keys.publicKey)).payload).toMatchObject({ merchantOrigin: 'shop.example' });
  });

  it("has no view in the creation reply: the page's origin, which its token is signed for, is not known yet", async () => {
    const { secretKey } = await platform.merchant({ merchant_id: 'shop4', allowed_origins: ['https://shop.example'], google_pay_mode: 'platform' });
    expect((await platform.createSession(secretKey)).public_view).toBeNull();
  });

  it('is refused with platform_not_configured on a server without the platform settings', async () => {
    const { secretKey } = await plain.merchant({ merchant_id: 'shop2', allowed_origins: ['https://shop.example'], google_pay_mode: 'platform' });
    const reply = await publicView(plain.url, await plain.createSession(secretKey), 'https://shop.example');
    expect(reply.status).toBe(503);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('platform_not_configured');
  });

  it('cannot be created with direct decryption', async () => {
    await expect(plain.merchant({ merchant_id: 'shop3', allowed_origins: ['https://shop.example'], google_pay_mode: 'platform', decryption_mode: 'direct' })).rejects.toThrow(/google_pay_mode platform works with decryption_mode gateway only/);
  });
});
