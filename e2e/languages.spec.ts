/**
 * A shopper pays in their own language, one per script family (Latin, Cyrillic, Greek, Arabic,
 * Hebrew, CJK, Thai): their browser prefers it (navigator.languages, the page says nothing), the
 * widget, the 3-D Secure dialog and the wallet's button speak it, right to left where it is
 * written so. The dialog is pixel-checked right to left and in CJK (the ready and declined states
 * are, in the gallery: shopper-experience.spec.ts). Each language here is one docs/embedding.md
 * promises, so a missing dictionary fails its test (and web/checkout/locales/promised.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { exponentOf } from '../contracts/currency';
import { formatAmount } from '../contracts/money';
import { promisedLanguages } from '../testing/promised-languages';
import type { Messages } from '../web/checkout/locales';
import { CheckoutPage } from './support/checkout-page';
import { expect, test } from './support/merchant-site';

const CHALLENGE_CARD = 'visa-3ds-required-pan';

/** Per language: its script, the browser's preference that picks it, and the Google Pay button's `buttonLocale` (none: Google's list lacks Hebrew). */
const LANGUAGES = [
  { tag: 'pl', script: 'Latin', browser: ['pl-PL', 'en-US'], button: 'pl', dir: 'ltr' },
  { tag: 'ru', script: 'Cyrillic', browser: ['ru-RU', 'en'], button: 'ru', dir: 'ltr' },
  { tag: 'el', script: 'Greek', browser: ['el-GR'], button: 'el', dir: 'ltr' },
  { tag: 'ar', script: 'Arabic', browser: ['ar-EG'], button: 'ar', dir: 'rtl', baseline: true },
  { tag: 'he', script: 'Hebrew', browser: ['he-IL'], button: null, dir: 'rtl', baseline: true },
  { tag: 'ja', script: 'CJK', browser: ['ja-JP'], button: 'ja', dir: 'ltr', baseline: true },
  // Taiwan's browser: Traditional Chinese, the button in Google's Chinese.
  { tag: 'zh-Hant', script: 'CJK', browser: ['zh-TW', 'en-US'], button: 'zh', dir: 'ltr', baseline: true },
  { tag: 'th', script: 'Thai', browser: ['th-TH'], button: 'th', dir: 'ltr' },
] as const;

const dictionaryFile = (tag: string) => fileURLToPath(new URL(`../web/checkout/locales/${tag}.ts`, import.meta.url));

for (const language of LANGUAGES) {
  test.describe(`${language.script}: ${language.tag}`, () => {
    test.use({ locale: language.browser[0], extraHTTPHeaders: { 'Accept-Language': language.browser.join(',') } });

    test(`a shopper whose browser prefers ${language.browser.join(', ')} pays in ${language.tag}, through the 3-D Secure dialog`, async ({ page, server, site }) => {
      expect(promisedLanguages().map(({ tag }) => tag)).toContain(language.tag);
      const t = ((await import(dictionaryFile(language.tag))) as Record<string, Messages>)[language.tag.replace(/-/g, '')];
      if (!t) throw new Error(`${language.tag}.ts exports no ${language.tag.replace(/-/g, '')}`);
      // navigator.languages in order, as the browser has them (Playwright's locale sets the first alone).
      await page.addInitScript((languages) => Object.defineProperty(Navigator.prototype, 'languages', { get: () => languages }), [...language.browser]);

      const { session, secretKey } = await site.checkout(server);
      await page.goto(
        site.page(`/${language.tag}`, `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div>
          <script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" defer></script></body></html>`),
      );
      const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
      await checkout.expectState('ready');
      const locale = language.browser[0];
      await expect(checkout.widget).toHaveAttribute('lang', locale);
      await expect(checkout.widget).toHaveAttribute('dir', language.dir);
      await expect(checkout.testId('amount')).toHaveText(formatAmount(session.amount, session.currency, exponentOf(session.currency), locale));
      // What the wallet's createButton was given (the sandbox's button keeps it).
      const button = page.locator('[data-wallet-button] [data-testid=sandbox-gpay-button]');
      if (language.button) await expect(button).toHaveAttribute('data-button-locale', language.button);
      else await expect(button).not.toHaveAttribute('data-button-locale', /.*/);

      await checkout.payWith(CHALLENGE_CARD);
      await checkout.expectState('authenticating');
      const challenge = checkout.challenge();
      await expect(page.getByRole('dialog', { name: t.challenge.title })).toBeVisible();
      await expect(challenge.cancel).toHaveText(t.challenge.cancel);
      await expect(checkout.testId('status')).toHaveText(t.authenticating);
      await expect(challenge.frame.getByText(/Sandbox 3-D Secure/)).toBeVisible();
      if ('baseline' in language) {
        await expect(challenge.dialog).toHaveScreenshot(`challenge-${language.tag}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
      }
      await challenge.frame.getByRole('button', { name: 'Complete authentication' }).click();

      await checkout.expectState('paid');
      await expect(checkout.testId('status')).toContainText(t.paid);
      expect((await checkout.merchantView()).status).toBe('succeeded');
      // The merchant's events are worded for the shopper too, where they carry a message; none failed here.
      expect(await checkout.events('checkout:error')).toEqual([]);
    });
  });
}
