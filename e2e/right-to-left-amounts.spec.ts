/**
 * Amounts read right in a right-to-left widget and sheet: Intl writes Arabic's US dollars "24.00 US$"
 * (number first, read right to left), which a right-to-left line used to draw "$US 24.00"
 * (common/browser/amount-direction.ts). Checked where the shopper sees it: the characters' places on
 * screen (Range.getClientRects), not the string, which was right all along.
 */
import type { Locator } from '@playwright/test';
import { CheckoutPage } from './support/checkout-page';
import { expect, test } from './support/merchant-site';

/** The amount's characters as drawn, left to right, without the invisible marks and spaces. */
async function drawnLeftToRight(amount: Locator): Promise<string> {
  return amount.evaluate((element) => {
    const drawn: { character: string; left: number }[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (box && box.width > 0 && /\S/.test(text[i] ?? '')) drawn.push({ character: text[i] ?? '', left: box.left });
      }
    }
    return drawn
      .sort((a, b) => a.left - b.left)
      .map(({ character }) => character)
      .join('')
      .replace(/[\u200e\u200f\u2066-\u2069]/g, '');
  });
}

/**
 * Per language and currency: the amount as a reader of that language expects to see it drawn, left to
 * right on screen. Arabic and Hebrew put the symbol after the number (in reading order, right to left),
 * so on screen it stands to the number's left, itself left to right when it is Latin ("US$") and right
 * to left when it is Arabic ("د.ك.", whose letters a left-to-right reading of the screen sees reversed).
 */
const CASES = [
  { locale: 'ar', currency: 'USD', amount: 2400, drawn: 'US$24.00' },
  { locale: 'ar', currency: 'KWD', amount: 24500, drawn: '.ك.د24.500' },
  { locale: 'he', currency: 'USD', amount: 2400, drawn: '$24.00' },
  { locale: 'he', currency: 'ILS', amount: 2400, drawn: '₪24.00' },
] as const;

for (const { locale, currency, amount, drawn } of CASES) {
  test(`a ${currency} amount in ${locale} reads right in the widget`, async ({ page, server, site }) => {
    const { session, secretKey } = await site.checkout(server, { currency, amount, locale });
    await page.goto(
      site.page(
        `/${locale}-${currency}`,
        `<!doctype html><html lang="${locale}" dir="rtl"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div>
          <script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" data-locale="${locale}" defer></script></body></html>`,
      ),
    );
    const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
    await checkout.expectState('ready');
    await expect(checkout.widget).toHaveAttribute('dir', 'rtl');
    expect(await drawnLeftToRight(checkout.testId('amount'))).toBe(drawn);
  });
}

test.describe("the wallet's sheet in an Arabic browser", () => {
  test.use({ locale: 'ar' });

  test('shows the total as Arabic reads it, in its English sheet', async ({ page, server, site }) => {
    const { session, secretKey } = await site.checkout(server, { currency: 'USD', amount: 2400 });
    await page.goto(
      site.page(
        '/sheet',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div>
          <script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" data-locale="en" defer></script></body></html>`,
      ),
    );
    const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
    await checkout.expectState('ready');
    const sheet = await checkout.openWallet();
    expect(await drawnLeftToRight(sheet.locator('.total strong'))).toBe('US$24.00');
  });
});
