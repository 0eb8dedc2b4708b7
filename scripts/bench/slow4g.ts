/**
 * Time to a usable button on slow 4G, as an outside tester measures it: Chromium's own throttling
 * (CDP `Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up) on every
 * load, each in a fresh context (cold cache, cold connections). Three pages, interleaved: Google's
 * element alone (bare), our tag carrying the creation reply's view (the recommended integration),
 * and the README's plain tag, the client secret alone, whose widget asks the backend for the view
 * and, meanwhile, the wallet (already on the page) with the product's card method, and draws its
 * button on the wallet's answer. The wallet is defined before any page script, as in figure 2's
 * first row, so the figure is the page's own path to its button. "Usable" is the probe's (browser.ts):
 * a drawn button that takes a hit at its centre; for the plain tag's button before its view that is
 * honest because a click on it pays (it waits for the view, then opens the sheet:
 * e2e/engines/plain-tag.flows.ts). Also counted per load: the CORS preflights the browser sent
 * before the button (CDP reports them as requests of type Preflight).
 *
 * Part of `npm run bench`; alone: `npm run bench:slow4g -- [loads]` (builds first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import { startTestServer } from '../../testing/harness';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { barePage, oursPage, PROBE } from './browser';
import { buildLikeCheckout } from './bundle';
import { repoRoot } from './children';
import { startShop, type Shop } from './shop';
import { median, round } from './stats';

/** Slow 4G as the outside tester set it: 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up (throughputs in bytes per second). */
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } as const;
/** The goal: the plain tag's button within this ratio of the bare element's. */
export const SLOW_4G_GOAL = 1.2;
const WARMUP_LOADS = 1;

export type Slow4gPage = 'bare' | 'carried' | 'plain';
export interface Slow4gFigures {
  usableMs: number;
  /** CORS preflights sent before the button. */
  preflights: number;
  /** When the view arrived (the plain tag's request), if one was asked for before the button. */
  viewArrivedMs: number | null;
}
export interface Slow4gResult {
  loads: number;
  pages: Record<Slow4gPage, Slow4gFigures>;
  samples: Record<Slow4gPage, Slow4gFigures[]>;
}

const PAGES: readonly Slow4gPage[] = ['bare', 'carried', 'plain'];

export async function benchSlow4g(options: { loads: number; elementBundle: string }): Promise<Slow4gResult> {
  const sandboxWallet = readFileSync(join(repoRoot, 'dist/web/sandbox-wallet.js'), 'utf8');
  const backend = await startTestServer();
  let browser: Browser | undefined;
  let shop: Shop | undefined;
  try {
    shop = await startShop(options.elementBundle, backend.url);
    const { pages, origin } = shop;
    const { secretKey } = await backend.merchant({ allowed_origins: [origin] });
    const firstSession = await backend.createSession(secretKey);
    pages.set('/bare', barePage((await backend.publicSession(firstSession)).payment_data_request));
    browser = await chromium.launch(chromiumLaunchOptions);

    const load = async (kind: Slow4gPage): Promise<Slow4gFigures> => {
      let path = '/bare';
      if (kind !== 'bare') {
        const session = await backend.createSession(secretKey, { locale: 'en' });
        path = `/${kind}/${session.id}`;
        pages.set(path, oursPage(`${backend.url}/checkout.js`, session, kind === 'carried'));
      }
      const context = await (browser as Browser).newContext();
      try {
        await context.addInitScript({ content: sandboxWallet });
        await context.addInitScript({ content: PROBE });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
        /** When each preflight left, in ms since the epoch (CDP's wallTime is in seconds). */
        const preflightsAt: number[] = [];
        cdp.on('Network.requestWillBeSent', (event) => {
          if (event.request.method === 'OPTIONS') preflightsAt.push(event.wallTime * 1000);
        });
        await page.goto(`${origin}${path}`);
        await page.waitForFunction(() => (window as unknown as { __bench: { usableAt: number | null } }).__bench.usableAt !== null, undefined, { timeout: 30_000 });
        const [usableMs, timeOrigin] = await page.evaluate(() => [(window as unknown as { __bench: { usableAt: number } }).__bench.usableAt, performance.timeOrigin]);
        const viewArrivedMs = await page.evaluate(
          (usable) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) => /\/public(\?|$)/.test(entry.name) && entry.startTime < usable)?.responseEnd ?? null,
          usableMs,
        );
        // Those after the button (a carried view's check once the page is idle) are not the button's cost.
        return { usableMs, preflights: preflightsAt.filter((at) => at <= timeOrigin + usableMs).length, viewArrivedMs };
      } finally {
        await context.close();
      }
    };

    const samples: Record<Slow4gPage, Slow4gFigures[]> = { bare: [], carried: [], plain: [] };
    for (let round = 0; round < WARMUP_LOADS + options.loads; round++) {
      // Each round in a rotated order, so drift on a shared machine hits the three alike.
      const order = PAGES.map((_, i) => PAGES[(i + round) % PAGES.length]!);
      for (const kind of order) {
        const figures = await load(kind);
        if (round >= WARMUP_LOADS) samples[kind].push(figures);
      }
    }
    const summary = (runs: Slow4gFigures[]): Slow4gFigures => ({
      usableMs: median(runs.map((r) => r.usableMs)),
      preflights: median(runs.map((r) => r.preflights)),
      viewArrivedMs: runs.some((r) => r.viewArrivedMs === null) ? null : median(runs.map((r) => r.viewArrivedMs ?? Number.NaN)),
    });
    return { loads: options.loads, pages: { bare: summary(samples.bare), carried: summary(samples.carried), plain: summary(samples.plain) }, samples };
  } finally {
    await browser?.close();
    await shop?.close();
    await backend.close();
  }
}

/** The figure with Google's element built here, as figure 1 builds it (what `npm run bench` and `bench:slow4g` run). */
export async function benchSlow4gBuilt(loads: number): Promise<Slow4gResult> {
  const buildDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-slow4g-'));
  try {
    return await benchSlow4g({ loads, elementBundle: await buildLikeCheckout('element-entry.ts', buildDir, 'element.js') });
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}

type Row = [figure: string, ours: string, baseline: string, ratio: string, goal: string];

/** The rows of docs/benchmarks.md's table: each tag against the bare element, the plain one against the goal. */
export function slow4gRows(result: Slow4gResult): Row[] {
  const { bare, carried, plain } = result.pages;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const baseline = `bare element ${ms(bare.usableMs)}`;
  const plainRatio = plain.usableMs / bare.usableMs;
  // The button drawn before the view (a wallet on the page): the view's request is under way, its answer after the button.
  const view = plain.viewArrivedMs === null ? 'the view after it' : `view arrived ${ms(plain.viewArrivedMs)}`;
  return [
    [`2. Slow 4G (${SLOW_4G.latency} ms, 1.6 Mbit/s down, 750 kbit/s up), usable button, the tag carrying the view (median of ${result.loads} loads each)`, ms(carried.usableMs), baseline, String(round(carried.usableMs / bare.usableMs)), ''],
    [
      `2. … the plain tag (client secret alone): ${plain.preflights} preflight(s) before the button, ${view}`,
      ms(plain.usableMs),
      baseline,
      String(round(plainRatio)),
      `≤ ${SLOW_4G_GOAL}x: ${plainRatio <= SLOW_4G_GOAL ? 'met' : '**missed**'}`,
    ],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const loads = Number(process.argv[2] ?? 15);
  const result = await benchSlow4gBuilt(loads);
  for (const [figure, ours, baseline, ratio, goal] of slow4gRows(result)) console.log(`${figure}: ${ours} against ${baseline}, ${ratio}x${goal ? ` (goal ${goal})` : ''}`);
}
