/**
 * The sandbox wallet as a shopper (or a tester) meets it: its sheet usable on a small phone, Pay and
 * Cancel on screen however many test cards it lists, the cards grouped by what they are for and each
 * described once; its button in the language the page asked for, as Google's is.
 */
import type { Page } from '@playwright/test';
import { WalletCardGroup } from '../contracts';
import { buttonWords } from '../sandbox/pay-js/button-words';
import { CheckoutPage } from './support/checkout-page';
import { expect, type MerchantSite, test } from './support/merchant-site';
import type { SuiteServer } from './support/fixtures';

async function openWidget(page: Page, server: SuiteServer, site: MerchantSite, attributes = '') {
  const { session, secretKey } = await site.checkout(server);
  await page.goto(
    site.page(
      `/shop-${session.id}`,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Shop</title></head><body><div id="pay"></div>
        <script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" ${attributes} defer></script></body></html>`,
    ),
  );
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  return checkout;
}

test.describe('on a 360×640 phone', () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test('Pay and Cancel stay on screen while the card list scrolls, down to its last card', async ({ page, server, site }) => {
    const checkout = await openWidget(page, server, site);
    const sheet = await checkout.openWallet();
    const pay = sheet.locator('[data-testid=sandbox-pay]');
    const cancel = sheet.locator('[data-testid=sandbox-cancel]');
    const cards = sheet.locator('input[name=sandbox-card]');
    await expect(cards.first()).toBeChecked();
    await expect(pay).toBeInViewport({ ratio: 1 });
    await expect(cancel).toBeInViewport({ ratio: 1 });
    // The list is longer than the screen: its last card is off screen until scrolled to, and Pay is not.
    const last = cards.last();
    await expect(last).not.toBeInViewport();
    await last.scrollIntoViewIfNeeded();
    await last.check();
    await expect(last).toBeInViewport();
    await expect(pay).toBeInViewport({ ratio: 1 });
    await expect(cancel).toBeInViewport({ ratio: 1 });
    await expect(pay).toBeEnabled();
  });
});

test('the test cards are grouped by what they are for, each described once', async ({ page, server, site, sandboxWallet }) => {
  const checkout = await openWidget(page, server, site);
  const sheet = await checkout.openWallet();
  await expect(sheet.locator('input[name=sandbox-card]').first()).toBeChecked();
  for (const group of WalletCardGroup.options) {
    const offered = sandboxWallet.cards.filter((card) => card.group === group);
    const fieldset = sheet.getByTestId(`sandbox-card-group-${group}`);
    await expect(fieldset.locator('legend')).not.toBeEmpty();
    // Each card once, in its group, its label the whole of its description.
    await expect(fieldset.locator('label')).toHaveText(offered.map((card) => card.label));
  }
  await expect(sheet.locator('input[name=sandbox-card]')).toHaveCount(sandboxWallet.cards.length);
});

for (const { locale, dir } of [
  { locale: 'ar', dir: 'rtl' },
  { locale: 'ja', dir: 'ltr' },
] as const) {
  test(`the wallet's button speaks ${locale} when the widget does`, async ({ page, server, site }) => {
    const checkout = await openWidget(page, server, site, `data-locale="${locale}"`);
    const button = checkout.widget.locator('[data-testid=sandbox-gpay-button]');
    const words = buttonWords('pay', locale);
    await expect(button).toHaveAttribute('data-button-locale', locale);
    await expect(button).toHaveText(words.text);
    await expect(button).toHaveAttribute('lang', locale);
    await expect(button).toHaveAttribute('dir', dir);
    await expect(page.getByRole('button', { name: `${words.label} (sandbox)` })).toBeVisible();
  });
}
