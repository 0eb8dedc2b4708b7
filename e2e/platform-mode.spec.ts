/**
 * Platform mode (docs/platform.md): a merchant's own site, a session of an app
 * whose Google Pay requests go out under our Google merchant id with an
 * authJwt for the page's site. The sandbox wallet checks it as Google does:
 * a good one opens the sheet and pays; a missing, expired, foreign-origin or
 * badly signed one is refused before any card is shown.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { SignJWT } from 'jose';
import type { PublicSession } from '../contracts';
import { escapeHtml } from '../common/html';
import type { TestServer } from '../testing/harness';
import { CheckoutPage } from './support/checkout-page';
import { expect, type MerchantSite, test } from './support/merchant-site';

const PLATFORM_ID = 'BCR2DN4TPLATFORM';
const platformKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
test.use({ serverEnv: { PLATFORM_GOOGLE_MERCHANT_ID: PLATFORM_ID, PLATFORM_SIGNING_KEY: platformKey.export({ type: 'pkcs8', format: 'pem' }).toString() } });

type Tamper = (merchantInfo: PublicSession['payment_data_request']['merchantInfo'], site: string) => Promise<void>;

const signed = (claims: Record<string, unknown>, key = platformKey) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(key);
const now = () => Math.floor(Date.now() / 1000);

/** A merchant's site of its own, one platform-mode app, one session, and the README's script tag; `tamper` rewrites the public view's merchantInfo. */
async function openPlatformCheckout({ page, server, site }: { page: Page; server: TestServer; site: MerchantSite }, tamper?: Tamper) {
  const { secretKey } = await server.merchant({ merchant_id: `m_${randomUUID().slice(0, 8)}`, allowed_origins: [site.origin], google_pay_mode: 'platform' });
  const session = await server.createSession(secretKey);
  if (tamper) {
    // The view's URL carries its key (api.ts fetchPublicSession): matched by origin and path.
    await page.route((url) => `${url.origin}${url.pathname}` === `${server.url}/api/sessions/${session.id}/public`, async (route) => {
      const response = await route.fetch();
      const view = (await response.json()) as PublicSession;
      await tamper(view.payment_data_request.merchantInfo, new URL(site.origin).host);
      await route.fulfill({ response, json: view });
    });
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Platform shop</title></head><body><div id="pay"></div>
<script src="${escapeHtml(`${server.url}/checkout.js`)}" data-client-secret="${escapeHtml(session.client_secret)}" data-target="#pay" defer></script></body></html>`;
  await page.goto(site.page(`/shop-${session.id}`, html));
  return new CheckoutPage(page, server, { sessionId: session.id, secretKey });
}

test('a platform request carries our merchant id and an authJwt for the merchant\'s site, and pays', async ({ page, server, site, ledger }) => {
  const checkout = await openPlatformCheckout({ page, server, site });
  const { request } = await checkout.payWith('visa-success-3ds');
  expect(request.merchantInfo).toMatchObject({ merchantId: PLATFORM_ID, merchantOrigin: new URL(site.origin).host, authJwt: expect.stringMatching(/^ey/) });
  await checkout.expectState('paid');
  // The token is still the merchant's: the gateway sealed it for their gateway merchant id, and the service charged them.
  expect((await ledger.newEntries()).map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect((await checkout.merchantView()).outcome?.assurance_details).toEqual({ account_verified: true, card_holder_authenticated: true });
});

const badJwts: [string, Tamper, RegExp][] = [
  ['missing', async (info) => void delete info.authJwt, /authJwt is required/],
  ['expired', async (info, host) => void (info.authJwt = await signed({ merchantId: PLATFORM_ID, merchantOrigin: host, iat: now() - 3600, exp: now() - 1800 })), /expired/],
  ['for another site', async (info) => void Object.assign(info, { merchantOrigin: 'elsewhere.example', authJwt: await signed({ merchantId: PLATFORM_ID, merchantOrigin: 'elsewhere.example', iat: now(), exp: now() + 600 }) }), /not for this site/],
  [
    'signed by another key',
    async (info, host) => void (info.authJwt = await signed({ merchantId: PLATFORM_ID, merchantOrigin: host, iat: now(), exp: now() + 600 }, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey)),
    /not signed by the registered platform key/,
  ],
];

for (const [what, tamper, reason] of badJwts) {
  test(`an authJwt ${what} is refused by the wallet before any card is shown`, async ({ page, server, site, ledger }) => {
    const checkout = await openPlatformCheckout({ page, server, site }, tamper);
    await checkout.expectState('ready');
    const refusal = page.waitForResponse((response) => response.url().endsWith('/sandbox/wallet/sheets'));
    await page.locator('[data-testid=sandbox-gpay-button]').click();
    expect((await refusal).status()).toBe(403);
    expect(((await (await refusal).json()) as { error: { message: string } }).error.message).toMatch(reason);
    await checkout.expectState('error');
    await expect(page.locator('[data-testid=sandbox-wallet]')).toHaveCount(0);
    expect(await checkout.events('checkout:error')).toEqual([expect.objectContaining({ code: 'wallet_error', reason: 'DEVELOPER_ERROR' })]);
    expect(await ledger.newEntries()).toEqual([]);
  });
}
