/** The sandbox wallet refuses a platform request as Google does: no authJwt, expired, for another site, or not signed by the registered key. */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createPlatformSigner } from '../server/checkout/platform';
import { checkPlatformRequest } from './platform-check';

const now = () => 1_700_000_000_000;
const registeredKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const registered = { googleMerchantId: 'BCR2DN4TPLATFORM', publicKey: registeredKeys.publicKey };
const sign = createPlatformSigner({ googleMerchantId: 'BCR2DN4TPLATFORM', signingKey: registeredKeys.privateKey }, now);
const page = 'https://shop.example';

async function platformInfo(pageOrigin = page) {
  const { merchantId, merchantOrigin, authJwt } = await sign(pageOrigin);
  return { merchantName: 'Shop', merchantId, merchantOrigin, authJwt };
}
const refusal = async (result: Promise<{ ok: boolean; error?: { message: string } }>) => {
  const r = await result;
  return r.ok ? 'accepted' : r.error?.message;
};

describe('the sandbox wallet checks a platform request', () => {
  it('accepts a good one, and leaves a merchant\'s own request alone', async () => {
    expect(await refusal(checkPlatformRequest(registered, await platformInfo(), page, now))).toBe('accepted');
    expect(await refusal(checkPlatformRequest(registered, { merchantName: 'Shop', merchantId: '4242' }, page, now))).toBe('accepted');
  });

  it('refuses a missing authJwt', async () => {
    const { authJwt: _dropped, ...info } = await platformInfo();
    expect(await refusal(checkPlatformRequest(registered, info, page, now))).toMatch(/authJwt is required/);
  });

  it('refuses an expired one', async () => {
    const info = await platformInfo();
    const later = () => now() + 31 * 60_000;
    expect(await refusal(checkPlatformRequest(registered, info, page, later))).toMatch(/expired/);
  });

  it('refuses one for another site, even with the other site\'s merchantOrigin copied in', async () => {
    const forOtherSite = await platformInfo('https://other.example');
    expect(await refusal(checkPlatformRequest(registered, forOtherSite, page, now))).toMatch(/other\.example, not for this site \(shop\.example\)/);
  });

  it('refuses one signed by another key, or with another merchant id', async () => {
    const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const forged = await new SignJWT({ merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: 'shop.example', iat: 1_700_000_000, exp: 1_700_000_600 }).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(stranger);
    expect(await refusal(checkPlatformRequest(registered, { ...(await platformInfo()), authJwt: forged }, page, now))).toMatch(/not signed by the registered platform key/);
    expect(await refusal(checkPlatformRequest(registered, { ...(await platformInfo()), merchantId: 'SOMEONEELSE' }, page, now))).toMatch(/another merchant id/);
  });

  it('refuses every platform request when no platform is registered', async () => {
    expect(await refusal(checkPlatformRequest(undefined, await platformInfo(), page, now))).toMatch(/No platform is registered/);
  });
});
