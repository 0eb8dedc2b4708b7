/**
 * The widget in headless Chromium: time to a usable button, main-thread long
 * tasks and JS heap, against a bare page holding only <google-pay-button>.
 * Both pages are a merchant's (their own origin, served here) and get the same
 * wallet, the sandbox's pay.js stand-in, defined before any page script runs,
 * so neither waits for a wallet to load. Each load is a fresh browser context
 * (cold cache), ours and bare interleaved. Then the same loads again with the
 * wallet fetched, as pay.js is in production: each page asks for its script
 * (the bare element pay.js, the widget the sandbox's), and both get the same
 * stand-in after the same delay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import type { CreatedSession, PublicSession } from '../../contracts';
import { startTestServer } from '../../testing/harness';
import { repoRoot } from './children';
import { interleaved, median } from './stats';
import { escapeHtml } from '../../common/html';
import { type Shop, startShop } from './shop';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';

export interface LoadFigures {
  /** Navigation start to the wallet's button visible and hit by a click at its centre. */
  usableMs: number;
  longTaskCount: number;
  /** Sum over long tasks of their time past 50 ms (Lighthouse's "total blocking time"). */
  blockingMs: number;
  /** Runtime.getHeapUsage's usedSize after a forced GC, once the button is usable. */
  heapBytes: number;
  /** Where the time went: when the page's script (checkout.js or element.js) had arrived, and (ours) the session's public view, if it was asked for before the button. */
  scriptArrivedMs: number;
  sessionArrivedMs: number | null;
}

export interface BrowserResult {
  loads: number;
  ours: LoadFigures;
  bare: LoadFigures;
  /** The same loads with the wallet's script fetched (WALLET_FETCH_MS) rather than defined before the page. */
  walletFetched: { ours: LoadFigures; bare: LoadFigures };
  /** From the click on the button to the widget showing "paid" (ours only: the bare page has no backend). */
  payment: { runs: number; longTaskCount: number; blockingMs: number };
  /** Every load's figures, in order, for the JSON report. */
  samples: { ours: LoadFigures[]; bare: LoadFigures[] };
}

const WARMUP_LOADS = 2;
/** The wallet script's fetch when it is fetched: a short one, pay.js close by in a CDN's cache; a first visit's is longer. */
export const WALLET_FETCH_MS = 20;
const CARD = 'visa-success-3ds';

/**
 * Runs before any page script: records long tasks, and the first moment the
 * wallet's button is visible and would take a click at its centre. Checked on
 * every DOM change (shadow roots included, by watching attachShadow) and every
 * frame, so neither page is sampled more coarsely than the other. Plain
 * JavaScript in a string: tsx rewrites the functions of this file with helpers
 * the page does not have, so a function here could not be sent as it is.
 */
export const PROBE = `(() => {
  const bench = { usableAt: null, longTasks: [] };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });

  const roots = [document];
  const isUsable = (button) => {
    if (button.disabled || !button.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = button.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return !!hit && button.contains(hit);
  };
  const check = () => {
    if (bench.usableAt !== null) return;
    for (const root of roots) {
      const button = root.querySelector('[data-testid=sandbox-gpay-button]');
      if (button && isUsable(button)) {
        bench.usableAt = performance.now();
        observer.disconnect();
        return;
      }
    }
  };
  const observer = new MutationObserver(check);
  const watch = (root) => observer.observe(root, { subtree: true, childList: true, attributes: true });
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    roots.push(root);
    if (bench.usableAt === null) watch(root);
    return root;
  };
  watch(document);
  const frame = () => {
    check();
    if (bench.usableAt === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

interface Bench {
  usableAt: number | null;
  longTasks: { start: number; duration: number }[];
}

const blocking = (tasks: Bench['longTasks']) => tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);

/**
 * The merchant's page with our one script tag, carrying the creation reply's view of the session (docs/embedding.md);
 * `carried` false: the README's plain tag, the client secret alone.
 */
export const oursPage = (checkoutSrc: string, session: CreatedSession, carried = true) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
  <div id="pay"></div>
  <script src="${escapeHtml(checkoutSrc)}" data-client-secret="${escapeHtml(session.client_secret)}"${carried ? ` data-session-view="${escapeHtml(JSON.stringify(session.public_view))}"` : ''} data-target="#pay" defer></script>
</body></html>`;

/**
 * The same page with Google's element alone, given the request our server
 * builds. The element is configured before it connects, as the widget does:
 * a property set after it connects restarts its debounced set-up, and the
 * connect's own set-up then never mounts the button.
 */
export const barePage = (request: PublicSession['payment_data_request']) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
  <div id="pay"></div>
  <script src="/element.js" defer></script>
  <script>
    document.addEventListener('DOMContentLoaded', () => {
      const button = document.createElement('google-pay-button');
      button.environment = 'TEST';
      button.buttonType = 'pay';
      button.paymentRequest = ${JSON.stringify(request).replace(/</g, '\\u003c')};
      document.getElementById('pay').appendChild(button);
    });
  </script>
</body></html>`;

export async function benchBrowser(options: { loads: number; payments: number; elementBundle: string }): Promise<BrowserResult> {
  const sandboxWallet = readFileSync(join(repoRoot, 'dist/web/sandbox-wallet.js'), 'utf8');
  const backend = await startTestServer();
  let browser: Browser | undefined;
  let shop: Shop | undefined;
  try {
    shop = await startShop(options.elementBundle, backend.url);
    const { pages } = shop;
    const shopOrigin = shop.origin;
    const { secretKey } = await backend.merchant({ allowed_origins: [shopOrigin] });
    const firstSession = await backend.createSession(secretKey);
    pages.set('/bare', barePage((await backend.publicSession(firstSession)).payment_data_request));

    browser = await chromium.launch(chromiumLaunchOptions);
    const openContext = async (walletFetched: boolean): Promise<BrowserContext> => {
      const context = await (browser as Browser).newContext();
      if (!walletFetched) await context.addInitScript({ content: sandboxWallet });
      // Fetched: the element asks Google for pay.js, the widget our backend for the sandbox's wallet (the session is SANDBOX).
      else
        for (const url of ['https://pay.google.com/gp/p/js/pay.js', `${backend.url}/sandbox/wallet.js`])
          await context.route(url, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, WALLET_FETCH_MS));
            await route.fulfill({ body: sandboxWallet, contentType: 'text/javascript; charset=utf-8' });
          });
      await context.addInitScript({ content: PROBE });
      return context;
    };

    const load = async (kind: 'ours' | 'bare', walletFetched = false): Promise<{ figures: LoadFigures; context: BrowserContext }> => {
      let path = '/bare';
      if (kind === 'ours') {
        // Created in the page's language, as docs/embedding.md asks: its view carries the amount formatted for it.
        const session = await backend.createSession(secretKey, { locale: 'en' });
        path = `/ours/${session.id}`;
        pages.set(path, oursPage(`${backend.url}/checkout.js`, session));
      }
      const context = await openContext(walletFetched);
      const page = await context.newPage();
      await page.goto(`${shopOrigin}${path}`);
      await page.waitForFunction(() => (window as unknown as { __bench: Bench }).__bench.usableAt !== null, undefined, { timeout: 20_000 });
      const bench = await page.evaluate(() => (window as unknown as { __bench: Bench }).__bench);
      const usableAt = bench.usableAt as number;
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const loadTasks = bench.longTasks.filter((t) => t.start < usableAt);
      const arrivals = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => ({ name: entry.name, start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd })),
      );
      // Only what was asked for before the button counts: the widget checks a carried view after it.
      const arrivedAt = (pattern: RegExp) => arrivals.find((entry) => pattern.test(entry.name) && entry.start < usableAt)?.end ?? null;
      return {
        figures: {
          usableMs: usableAt,
          longTaskCount: loadTasks.length,
          blockingMs: blocking(loadTasks),
          heapBytes: usedSize,
          scriptArrivedMs: arrivedAt(/\/(checkout|element)\.js$/) ?? Number.NaN,
          sessionArrivedMs: arrivedAt(/\/public$/),
        },
        context,
      };
    };
    const measure = (kind: 'ours' | 'bare', walletFetched = false) => async () => {
      const { figures, context } = await load(kind, walletFetched);
      await context.close();
      return figures;
    };

    await interleaved(WARMUP_LOADS, measure('ours'), measure('bare'));
    const samples = await interleaved(options.loads, measure('ours'), measure('bare'));
    await interleaved(WARMUP_LOADS, measure('ours', true), measure('bare', true));
    const fetchedSamples = await interleaved(options.loads, measure('ours', true), measure('bare', true));

    const payments: { longTaskCount: number; blockingMs: number }[] = [];
    for (let i = 0; i < options.payments; i++) {
      const { context } = await load('ours');
      try {
        const page = context.pages()[0];
        if (!page) throw new Error('the load left no page');
        const clickedAt = await page.evaluate(() => performance.now());
        await page.locator('[data-testid=sandbox-gpay-button]').click();
        await page.locator(`input[name=sandbox-card][value="${CARD}"]`).check();
        await page.locator('[data-testid=sandbox-pay]').click();
        await page.locator('[data-checkout-state=paid]').waitFor({ timeout: 20_000 });
        const tasks = (await page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.longTasks)).filter((t) => t.start >= clickedAt);
        payments.push({ longTaskCount: tasks.length, blockingMs: blocking(tasks) });
      } finally {
        await context.close();
      }
    }

    const summary = (runs: LoadFigures[]): LoadFigures => ({
      usableMs: median(runs.map((r) => r.usableMs)),
      longTaskCount: median(runs.map((r) => r.longTaskCount)),
      blockingMs: median(runs.map((r) => r.blockingMs)),
      heapBytes: median(runs.map((r) => r.heapBytes)),
      scriptArrivedMs: median(runs.map((r) => r.scriptArrivedMs)),
      sessionArrivedMs: runs[0]?.sessionArrivedMs === null ? null : median(runs.map((r) => r.sessionArrivedMs ?? Number.NaN)),
    });
    return {
      loads: options.loads,
      ours: summary(samples.a),
      bare: summary(samples.b),
      walletFetched: { ours: summary(fetchedSamples.a), bare: summary(fetchedSamples.b) },
      payment: { runs: payments.length, longTaskCount: median(payments.map((p) => p.longTaskCount)), blockingMs: median(payments.map((p) => p.blockingMs)) },
      samples: { ours: samples.a, bare: samples.b },
    };
  } finally {
    await browser?.close();
    await shop?.close();
    await backend.close();
  }
}
