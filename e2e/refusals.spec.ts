/**
 * What the widget shows and tells when the backend or the service says no
 * for a reason the shopper cannot fix: a page on an origin the application
 * does not allow (docs/embedding.md), and a 3-D Secure challenge URL that is
 * not a page (a `javascript:` URL must never reach a frame).
 */
import { CheckoutPage, recordCheckoutEvents } from './support/checkout-page';
import { expect, test } from './support/merchant-site';
import { escapeHtml } from '../common/html';

const shopPage = (checkoutSrc: string, clientSecret: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My shop</title></head><body><div id="pay"></div>` +
  `<script src="${escapeHtml(checkoutSrc)}" data-client-secret="${escapeHtml(clientSecret)}" data-target="#pay" defer></script></body></html>`;

test('a page on an origin the app does not allow sees origin_not_allowed, not a network error, and the merchant is told how to fix it', async ({ page, server, site }) => {
  // The application allows another site only: this page's origin is not among its origins.
  const { secretKey } = await server.merchant({ merchant_id: 'm_elsewhere', allowed_origins: ['https://elsewhere.example'] });
  const session = await server.createSession(secretKey);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await recordCheckoutEvents(page);
  await page.goto(site.page('/not-allowed', shopPage(`${server.url}/checkout.js`, session.client_secret)));

  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('error');
  await expect(checkout.testId('status')).toHaveText("This checkout isn't set up for this website. Please contact the store.");
  expect(await checkout.events('checkout:error')).toEqual([
    { sessionId: session.id, code: 'origin_not_allowed', reason: 'origin_not_allowed', message: "This checkout isn't set up for this website. Please contact the store." },
  ]);
  const help = consoleErrors.filter((text) => text.startsWith('Wallet Checkout:'));
  expect(help).toHaveLength(1);
  expect(help[0]).toContain(`this page's origin (${site.origin})`);
  expect(help[0]).toContain(`npm run app:update -- --app APP_ID --origin ${site.origin}`);
});

test('a challenge URL that is not an https page is not framed: the widget reports an error and nothing runs', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  // What a compromised or buggy service could send, past the backend: the widget checks the URL itself.
  await page.route(`${server.url}/api/sessions/${session.id}/pay`, async (route) => {
    const reply = await route.fetch();
    const body = (await reply.json()) as { outcome: Record<string, unknown> };
    body.outcome = { ...body.outcome, status: 'requires_authentication', challenge_url: 'javascript:window.__framed=true' };
    await route.fulfill({ response: reply, json: body });
  });
  await recordCheckoutEvents(page);
  await page.goto(site.page('/shop', shopPage(`${server.url}/checkout.js`, session.client_secret)));

  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('error');
  await expect(checkout.challenge().dialog).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __framed?: boolean }).__framed)).toBeUndefined();
  expect((await checkout.events('checkout:error')).map((event) => [event.code, event.reason])).toEqual([['server_error', 'challenge_url_refused']]);
});
