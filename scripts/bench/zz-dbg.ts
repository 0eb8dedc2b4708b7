import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { startTestServer } from '../../testing/harness';
import { startShop } from './shop';
import { oursPage, PROBE } from './browser';
import { SLOW_4G } from './slow4g';
const backend = await startTestServer();
const shop = await startShop('package.json', backend.url);
const { secretKey } = await backend.merchant({ allowed_origins: [shop.origin] });
const browser = await chromium.launch(chromiumLaunchOptions);
for (let i = 0; i < 3; i++) {
  const s = await backend.createSession(secretKey, { locale: 'en' });
  shop.pages.set('/p', oursPage(`${backend.url}/checkout.js`, s, process.argv[2] === 'carried'));
  const context = await browser.newContext();
  await context.addInitScript({ content: readFileSync('dist/web/sandbox-wallet.js', 'utf8') });
  await context.addInitScript({ content: PROBE });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.goto(`${shop.origin}/p`);
  await page.waitForFunction(() => (window as any).__bench.usableAt !== null);
  const r = await page.evaluate(() => ({
    usable: (window as any).__bench.usableAt,
    nav: (({ responseStart, responseEnd, domInteractive, domContentLoadedEventStart }: any) => ({ responseStart, responseEnd, domInteractive, domContentLoadedEventStart }))(performance.getEntriesByType('navigation')[0]),
    res: performance.getEntriesByType('resource').map((e: any) => `${e.name.replace(/^.*\//, '').slice(0, 30)} start ${e.startTime.toFixed(0)} connect ${e.connectStart.toFixed(0)}-${e.connectEnd.toFixed(0)} req ${e.requestStart.toFixed(0)} resp ${e.responseStart.toFixed(0)}-${e.responseEnd.toFixed(0)}`),
  }));
  console.log(JSON.stringify(r, null, 1));
  await context.close();
}
await browser.close(); await shop.close(); await backend.close();
