/**
 * No layout shift on the merchant's page (docs/embedding.md, "Reserved height"): a shop page with
 * content below the widget goes through load, then a decline, "Try again" and a success, or the bank's
 * 3-D Secure challenge and a success, inline and in iframe mode, while a PerformanceObserver sums the
 * page's `layout-shift` entries as cumulative layout shift does (those within 500 ms of an input left
 * out, `hadRecentInput`). Chromium alone reports layout-shift entries (the Layout Instability API), so
 * this runs in the chromium project only, like every spec.
 *
 * The backend's answer to the payment is held back past that 500 ms, so the outcome's drawing is
 * not excused by the click on the sheet's Pay: a widget that grows with its outcome fails here.
 */
import type { Page } from '@playwright/test';
import { mergeTests } from '@playwright/test';
import { test as kitTest } from '../packages/qa-kit/src';
import type { Scope, WalletCheckoutKit } from '../packages/qa-kit/src';
import { RESERVED_HEIGHT_PX } from '../web/checkout/reserved-height';
import { expect, scriptTag, shopPage, test as siteTest } from './support/merchant-site';

const test = mergeTests(siteTest, kitTest);

/** What the metric counts as "no shift" in practice (Lighthouse's CLS is good below 0.1; we hold the widget to far less). */
const MAX_SHIFT = 0.01;
/** Longer than the 500 ms after an input within which the metric excuses a shift. */
const PAY_ANSWER_DELAY_MS = 700;

interface Shift {
  value: number;
  hadRecentInput: boolean;
  sources: string[];
}

/** Records every layout-shift entry of the page from its first paint, with what moved (for a failure's message). */
async function recordLayoutShifts(page: Page): Promise<() => Promise<Shift[]>> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
    type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
    const describe = (node: Node | null) => (node instanceof Element ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className ? `.${String(node.className)}` : ''}` : String(node?.nodeName));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShift[]) {
        shifts.push({
          value: entry.value,
          hadRecentInput: entry.hadRecentInput,
          sources: entry.sources.map((s) => `${describe(s.node)} ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)} h ${Math.round(s.previousRect.height)}→${Math.round(s.currentRect.height)}`),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

/**
 * A shop's page: a heading, the mount element, and the page's content below it. `sync`: the tag without `defer`
 * right after the mount element, so the widget (or iframe mode's place for its frame) is drawn before the content
 * below is parsed, and every shift is the widget's own; otherwise the tag as docs/embedding.md gives it, deferred,
 * with the mount element reserving the widget's height as the docs ask (the page paints before a deferred script runs).
 */
const shop = (tag: string, sync: boolean) =>
  shopPage(
    `<style>main { max-width: 22rem; margin: 0 auto; font: 16px/1.5 sans-serif; }${sync ? '' : ` #pay { min-height: ${RESERVED_HEIGHT_PX}px; }`}</style>`,
    `<main><h1>Coffee kit</h1><p>Ceramic dripper, 100 filters, 250 g of our house roast.</p><div id="pay"></div>${sync ? tag : ''}` +
      `<h2 id="below">Delivery</h2><p>Shipped in two days from our roastery, in recyclable paper.</p><p>Questions? Write to us.</p></main>${sync ? '' : tag}`,
  );

const metric = (shifts: Shift[]) => shifts.filter((shift) => !shift.hadRecentInput).reduce((sum, shift) => sum + shift.value, 0);

/** What the shopper goes through once the button is up, ending paid. */
const FLOWS = {
  'a decline, Try again and a success': async (walletCheckout: WalletCheckoutKit, scope: Scope) => {
    await walletCheckout.pay(scope, { card: 'visa-insufficient-funds-3ds' });
    await walletCheckout.expectOutcome(scope, 'declined');
    await walletCheckout.tryAgain(scope);
    await walletCheckout.expectOutcome(scope, 'ready');
    await walletCheckout.pay(scope, { card: 'visa-success-3ds' });
  },
  "the bank's 3-D Secure challenge, then a success": async (walletCheckout: WalletCheckoutKit, scope: Scope) => {
    await walletCheckout.pay(scope, { card: 'visa-3ds-required-pan' });
    await walletCheckout.challenge(scope, 'complete');
  },
} as const;

const CASES = [
  { mode: 'inline', sync: true, flow: 'a decline, Try again and a success' },
  { mode: 'iframe', sync: true, flow: 'a decline, Try again and a success' },
  { mode: 'inline', sync: false, flow: 'a decline, Try again and a success' },
  { mode: 'inline', sync: true, flow: "the bank's 3-D Secure challenge, then a success" },
  { mode: 'iframe', sync: true, flow: "the bank's 3-D Secure challenge, then a success" },
] as const;

for (const { mode, sync, flow } of CASES) {
  test(`the page below the widget does not move through load, ${flow} (${mode}, ${sync ? 'the tag right after its element' : 'deferred tag, the page reserving the height'})`, async ({ page, server, site, walletCheckout }) => {
    const shifts = await recordLayoutShifts(page);
    await page.route(/\/api\/sessions\/[^/]+\/pay$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, PAY_ANSWER_DELAY_MS));
      await route.continue();
    });
    const { session } = await site.checkout(server, { description: 'Pour-over coffee kit, with 100 filters' });
    const attributes: Record<string, string> = { 'data-client-secret': session.client_secret, 'data-target': '#pay', ...(mode === 'iframe' && { 'data-mode': 'iframe' }) };
    const tag = scriptTag(`${server.url}/checkout.js`, attributes);
    await page.goto(site.page(`/layout-${mode}`, shop(sync ? tag.replace(' defer', '') : tag, sync)));
    const scope: Scope = mode === 'iframe' ? walletCheckout.frame(page) : page;
    const below = page.locator('#below');
    await walletCheckout.expectOutcome(scope, 'ready');
    const top = (await below.boundingBox())?.y;

    await FLOWS[flow](walletCheckout, scope);
    await walletCheckout.expectOutcome(scope, 'paid');
    // The last frame's entries are in.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

    expect((await below.boundingBox())?.y, 'the content below the widget stayed where it was').toBe(top);
    const recorded = await shifts();
    expect(metric(recorded), `layout shifts: ${JSON.stringify(recorded, null, 1)}`).toBeLessThan(MAX_SHIFT);
  });
}
