/**
 * Fixtures of the engine flows: the Playwright suite's (a backend per worker, the
 * merchant's site on a second origin, the sandbox ledger) plus the engine a
 * project names (playwright.config.ts): one browser per worker, a driver per test,
 * and the merchant's page embedding the widget.
 */
import type { Browser } from 'puppeteer-core';
import { CHECKOUT_EVENT_NAMES, merchantView } from '../support/checkout-page';
import { scriptTag, shopPage, test as base } from '../support/merchant-site';
import type { Session } from '../../contracts';
import { type Engine, type EngineDriver } from './driver';
import { firefoxDriver, firefoxInstalled, launchFirefox } from './firefox-driver';
import { playwrightDriver } from './playwright-driver';
import { Shopper } from './shopper';
import { type WebKitSession, launchWebKit, webkitDriver, webkitInstalled } from './webkit-driver';

export { expect } from '../support/merchant-site';

export interface OpenedShop {
  shopper: Shopper;
  sessionId: string;
  secretKey: string;
  /** The merchant's server reading the session: what the flows trust, never the page. */
  merchantView(): Promise<Session>;
}

export interface ShopOptions {
  session?: Record<string, unknown>;
  /** Iframe mode (docs/embedding.md): the page holds only our frame, and the widget is in it. */
  iframe?: boolean;
  /** The page's `<html lang>`; '' says nothing, leaving the widget to the browser's language. */
  lang?: string;
}

/** The page records the widget's events from its first script on, as a host page listening on the document would (Shopper.events reads them). */
export const EVENT_RECORDER = `<script>window.__checkoutEvents = []; for (const name of ${JSON.stringify(CHECKOUT_EVENT_NAMES)}) document.addEventListener(name, (event) => window.__checkoutEvents.push({ type: event.type, detail: event.detail }));</script>`;

interface EngineWorkerFixtures {
  /** Option: the engine the project runs the flows in. */
  engine: Engine;
  /** The worker's browser; undefined for Chromium (Playwright's own) and for an engine not installed here. */
  engineBrowser: { firefox: Browser } | { webkit: WebKitSession } | undefined;
}

/** How long a worker may take to start its engine's browser. */
const BROWSER_START_TIMEOUT_MS = 90_000;

const installed: Record<Engine, () => boolean> = { chromium: () => true, 'firefox-esr': firefoxInstalled, webkitgtk: webkitInstalled };
const installScript: Record<Engine, string> = { chromium: 'ensure-chromium.sh', 'firefox-esr': 'ensure-firefox.sh', webkitgtk: 'ensure-webkit.sh' };

export const test = base.extend<{ driver: EngineDriver; openShop(options?: ShopOptions): Promise<OpenedShop> }, EngineWorkerFixtures>({
  engine: ['chromium', { scope: 'worker', option: true }],

  engineBrowser: [
    async ({ engine }, use) => {
      if (engine === 'chromium' || !installed[engine]()) return use(undefined);
      if (engine === 'firefox-esr') {
        const firefox = await launchFirefox(BROWSER_START_TIMEOUT_MS);
        try {
          await use({ firefox });
        } finally {
          await firefox.close();
        }
        return;
      }
      const webkit = await launchWebKit(BROWSER_START_TIMEOUT_MS);
      try {
        await use({ webkit });
      } finally {
        await webkit.close();
      }
    },
    // Starting a browser is the worker's setup, not a test's: Firefox ESR once took over the tests' 30 s to start on a loaded CI machine.
    { scope: 'worker', timeout: BROWSER_START_TIMEOUT_MS },
  ],

  driver: async ({ engine, engineBrowser, context }, use, testInfo) => {
    if (!installed[engine]()) {
      // CI must run every engine: there a missing browser is a failure, not a skip.
      const missing = `${engine} is not installed (bash scripts/${installScript[engine]} installs it)`;
      if (process.env.CI) throw new Error(missing);
      testInfo.skip(true, missing);
    }
    // Chromium: a page of the test's own context, without the suite's init script (the merchant page records events itself).
    const driver =
      engineBrowser === undefined ? playwrightDriver(await context.newPage()) : 'firefox' in engineBrowser ? await firefoxDriver(engineBrowser.firefox) : await webkitDriver(engineBrowser.webkit);
    try {
      await use(driver);
    } finally {
      await driver.close();
    }
  },

  openShop: async ({ driver, server, site }, use) => {
    let pages = 0;
    await use(async ({ session: sessionBody, iframe = false, lang = 'en' } = {}) => {
      const { session, secretKey } = await site.checkout(server, sessionBody);
      const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', ...(iframe && { 'data-mode': 'iframe' }) });
      await driver.goto(site.page(`/shop-${++pages}`, shopPage(EVENT_RECORDER, `<h1>My shop</h1><div id="pay"></div>${tag}`, lang)));
      const merchant = { sessionId: session.id, secretKey };
      const onPage = new Shopper(driver);
      const shopper = iframe ? onPage.inCheckoutFrame() : onPage;
      await shopper.expectState('ready');
      return { shopper, ...merchant, merchantView: () => merchantView(server, merchant) };
    });
  },
});
