/**
 * What a shopper meets: every state, in light and dark, pixel-checked against
 * committed baselines and checked by axe; the widget in the page's language
 * (right to left for Arabic); and a payment made with the keyboard alone, its
 * steps announced. The states come from the demo's gallery (demo/server/gallery.ts):
 * the real bundle against a fake API frozen in each state.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import express from 'express';
import { loadConfig } from '../server/config';
import { builtLanguages, GALLERY_STATES, galleryRoutes } from '../demo/server/gallery';
import { ar } from '../web/checkout/locales/ar';
import { fr } from '../web/checkout/locales/fr';
import { CheckoutPage } from './support/checkout-page';
import { listen } from '../testing/listen';
import { expect, test } from './support/merchant-site';

/** Every state the gallery shows: all of the widget's but the 3-D Secure dialog (holds-and-3ds.spec.ts). */
const STATES = GALLERY_STATES;
const THEMES = ['light', 'dark'] as const;

test.use({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light', reducedMotion: 'reduce' });

/** The gallery, on an origin of its own, with the bundles and the sandbox wallet from the test's backend. */
async function openGallery(page: Page, checkoutOrigin: string, query = '') {
  const config = loadConfig({ DATA_DIR: 'unused' });
  if (!config.ok) throw new Error(config.problems.join('; '));
  const gallery = await listen(express().use(galleryRoutes({ checkoutOrigin: () => checkoutOrigin, sandboxOrigin: () => checkoutOrigin, gatewayName: config.config.gatewayName })));
  await page.goto(`${gallery.origin}/demo/gallery${query}`);
  return gallery;
}

const widgetOf = (page: Page, id: string) => page.locator(`#${id} [data-checkout-state]`);

test('every state, light and dark, looks as its baseline and has no axe violation', async ({ page, server }) => {
  const gallery = await openGallery(page, server.url);
  try {
    // "Processing" is a payment under way: the page pays on those widgets itself (the fake API never answers).
    for (const theme of THEMES) for (const state of STATES) await expect(widgetOf(page, `${state}-${theme}`)).toHaveAttribute('data-checkout-state', state);

    const axe = await new AxeBuilder({ page }).include('[data-wallet-checkout]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    for (const theme of THEMES) {
      for (const state of STATES) {
        await expect(page.locator(`#${state}-${theme} [data-wallet-checkout]`)).toHaveScreenshot(`${state}-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
      }
    }
    for (const locale of ['fr', 'ar']) {
      await expect(page.locator(`#declined-${locale} [data-wallet-checkout]`)).toHaveScreenshot(`declined-${locale}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
    }
  } finally {
    await gallery.close();
  }
});

test('the gallery speaks each language, with its currency and its direction', async ({ page, server }) => {
  const gallery = await openGallery(page, server.url);
  try {
    const frDeclined = widgetOf(page, 'declined-fr');
    await expect(frDeclined.locator('[data-testid=status]')).toHaveText(fr.declines.insufficient_funds ?? '');
    await expect(frDeclined.locator('[data-testid=retry]')).toHaveText(fr.retry);
    await expect(frDeclined.locator('[data-testid=amount]')).toHaveText(/^24,00\s€$/);
    await expect(widgetOf(page, 'declined-de').locator('[data-testid=amount]')).toHaveText(/^24,00\s€$/);
    await expect(widgetOf(page, 'declined-es').locator('[data-testid=retry]')).toHaveText('Reintentar');
    const arDeclined = widgetOf(page, 'declined-ar');
    await expect(arDeclined).toHaveAttribute('dir', 'rtl');
    await expect(arDeclined.locator('[data-testid=status]')).toHaveText(ar.declines.insufficient_funds ?? '');
    // Kuwaiti dinars have three decimals, JPY none.
    await expect(arDeclined.locator('[data-testid=amount]')).toHaveText(new Intl.NumberFormat('ar', { style: 'currency', currency: 'KWD', minimumFractionDigits: 3 }).format(24.5));
    await expect(widgetOf(page, 'ready-custom').locator('[data-testid=amount]')).toHaveText('¥2,400');
    // Captioned by the language's name, not its tag.
    const caption = (id: string) => page.locator('figure', { has: page.locator(`#${id}`) }).locator('figcaption');
    await expect(caption('declined-ar')).toHaveText('Arabic, KWD');
    await expect(caption('declined-pt-PT')).toHaveText('European Portuguese, EUR');
    await expect(caption('declined-zh-Hant')).toHaveText('Traditional Chinese, EUR');
  } finally {
    await gallery.close();
  }
});

for (const locale of ['ar', 'he', 'ja', 'zh']) {
  test(`the gallery shows every state in ${locale} (?locale=), ${['ar', 'he'].includes(locale) ? 'right to left' : 'in CJK'}; ready and declined look as their baselines`, async ({ page, server }) => {
    test.skip(!builtLanguages().includes(locale), `web/checkout/locales/${locale}.ts is not on this branch yet`);
    const gallery = await openGallery(page, server.url, `?locale=${locale}`);
    try {
      for (const state of STATES.filter((s) => s !== 'processing')) {
        const widget = widgetOf(page, `${state}-light`);
        await expect(widget).toHaveAttribute('data-checkout-state', state);
        await expect(widget).toHaveAttribute('lang', locale);
        await expect(widget).toHaveAttribute('dir', ['ar', 'he'].includes(locale) ? 'rtl' : 'ltr');
      }
      await expect(page.locator('select[name=locale]')).toHaveValue(locale);
      for (const state of ['ready', 'declined']) {
        await expect(page.locator(`#${state}-light [data-wallet-checkout]`)).toHaveScreenshot(`${state}-light-${locale}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
      }
    } finally {
      await gallery.close();
    }
  });
}

test('on a page in Arabic the widget and the button follow <html lang>, right to left, and a decline is worded in Arabic', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  await page.goto(
    site.page('/ar', `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>متجر</title></head><body><div id="pay"></div>
      <script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" defer></script></body></html>`),
  );
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(checkout.widget).toHaveAttribute('dir', 'rtl');
  await expect(checkout.widget).toHaveAttribute('lang', 'ar');
  await expect(page.locator('[data-wallet-button]')).toHaveAttribute('lang', 'ar');
  await checkout.payWith('visa-insufficient-funds-3ds');
  await checkout.expectState('declined');
  await expect(checkout.testId('status')).toHaveText(ar.declines.insufficient_funds ?? '');
  await expect(checkout.testId('retry')).toHaveText(ar.retry);
  // The merchant's event keeps the service's code and reason, whatever the shopper read.
  expect((await checkout.events('checkout:decline'))[0]).toMatchObject({ code: 'insufficient_funds', message: expect.stringMatching(/insufficient funds/) });
});

test('a session that expired shows the shopper a calm final state, in their language, and tells the merchant', async ({ page, server, site }) => {
  const pastDue = (sessionId: string) => server.store.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('id', '=', sessionId).execute();
  const shopAt = (path: string, clientSecret: string, lang: string) =>
    site.page(path, `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div>
      <script src="${server.url}/checkout.js" data-client-secret="${clientSecret}" data-target="#pay" defer></script></body></html>`);

  // Expired before the page opens: no button, no "Try again", the words of the page's language.
  const late = await site.checkout(server);
  await pastDue(late.session.id);
  await page.goto(shopAt('/late', late.session.client_secret, 'fr'));
  const lateCheckout = new CheckoutPage(page, server, { sessionId: late.session.id, secretKey: late.secretKey });
  await lateCheckout.expectState('expired');
  await expect(lateCheckout.testId('status')).toHaveText(fr.errors.session_expired);
  await expect(lateCheckout.testId('retry')).toHaveCount(0);
  await expect(page.locator('[data-testid=sandbox-gpay-button]')).toHaveCount(0);
  expect(await lateCheckout.events('checkout:error')).toEqual([{ sessionId: late.session.id, code: 'session_expired', reason: 'session_expired', message: fr.errors.session_expired }]);
  expect((await lateCheckout.merchantView()).status).toBe('expired');

  // Expired while the shopper chose a card: the payment is refused, nothing is charged, the same final state.
  const slow = await site.checkout(server);
  await page.goto(shopAt('/slow', slow.session.client_secret, 'en'));
  const slowCheckout = new CheckoutPage(page, server, { sessionId: slow.session.id, secretKey: slow.secretKey });
  await slowCheckout.openWallet();
  await pastDue(slow.session.id);
  expect((await slowCheckout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(410);
  await slowCheckout.expectState('expired');
  await expect(page.locator('[data-testid=sandbox-wallet]')).toBeHidden();
  await expect(slowCheckout.testId('status')).toHaveText(/expired, and nothing was charged/);
  await expect(page.locator('[data-testid=sandbox-gpay-button]')).toHaveCount(0);
  expect((await slowCheckout.merchantView()).status).toBe('expired');
});

/** The focused element, through open shadow roots. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.getAttribute('data-testid') ?? el?.tagName ?? null;
  });

test('a shopper pays with the keyboard alone, and each step is announced', async ({ page, shop, sandboxWallet }) => {
  const { checkout } = await shop.open();
  /** The sheet opens on its first card, focused: arrows move the choice along the list. */
  const chooseCard = async (id: string) => {
    await expect(page.locator('[data-testid=sandbox-wallet]')).toBeVisible();
    // The list arrives from the wallet's server after the sheet shows: arrows pressed before the first card has the focus would be lost.
    await expect.poll(() => page.locator(`input[name=sandbox-card][value="${sandboxWallet.cards[0]?.id}"]`).evaluate((input) => input.matches(':focus'))).toBe(true);
    const index = sandboxWallet.cards.findIndex((card) => card.id === id);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    await expect(page.locator(`input[name=sandbox-card][value="${id}"]`)).toBeChecked();
  };
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('sandbox-gpay-button');
  await page.keyboard.press('Enter');
  await chooseCard('visa-decline-3ds');
  // Past the billing address group (one tab stop, its first address chosen) and Cancel, to Pay.
  await page.keyboard.press('Tab');
  await expect(page.locator('input[name=sandbox-billing-address]:checked')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('sandbox-pay');
  await page.keyboard.press('Enter');

  await checkout.expectState('declined');
  // The decline is announced in the sheet (an alert), which keeps the focus; the page's polite live region says it too.
  await expect(checkout.sheet().message).toHaveText(/declined/i);
  await expect(checkout.testId('status')).toHaveAttribute('aria-live', 'polite');
  await expect(checkout.testId('status')).toHaveText(/declined/i);
  await expect.poll(() => focused(page)).toBe('INPUT');
  // Closing the sheet leaves the focus on "Try again".
  await page.keyboard.press('Escape');
  await expect.poll(() => focused(page)).toBe('retry');
  await page.keyboard.press('Enter');
  await checkout.expectState('ready');
  await expect.poll(() => focused(page)).toBe('sandbox-gpay-button');
  await page.keyboard.press('Enter');
  await chooseCard('visa-success-3ds');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await checkout.expectState('paid');
  await expect(checkout.testId('status')).toContainText('Payment complete');
});
