/**
 * The sheet's callback latency (figure 11 of `npm run bench`; alone: `npm run bench:quotes`): in headless
 * Chromium, from a change in the sandbox wallet's sheet (a click on another shipping address or delivery
 * option) to the sheet showing the update it got for it, through the widget's relay (POST
 * /api/sessions/{id}/quote), our backend as production runs it (the compiled server, a child process) and,
 * for a session priced by the merchant's quote endpoint, that endpoint: a node:http server in this process
 * that checks the signature, prices by zone (testing/zone-quotes.ts) after ENDPOINT_WORK_MS, and times
 * itself, from the request's arrival to its answer's last byte handed to the socket. The checkout's added
 * time is, change by change, the callback's latency less the endpoint's own time. Side by side: the same
 * changes on a session with static delivery options, priced by our server alone (no endpoint), interleaved
 * round by round, each round a fresh page and session.
 *
 * The sheet is the sandbox wallet's as shipped: it marks its express part `aria-busy` while a reply is
 * pending (sandbox/pay-js/express-view.ts), and the time ends when a MutationObserver sees it drop, the
 * update drawn. No test hook is added to the sheet or the widget.
 */
import { rmSync, mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import type { CreatedQuoteEndpoint, CreatedSession, QuoteRequest } from '../../contracts';
import { checkSignature } from '../../contracts/webhook-signature';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import { startChildServer } from '../../testing/child-server';
import { compiledServerArgs } from '../../testing/fleet/node-process';
import { listen } from '../../testing/listen';
import { createMerchantApp } from '../../testing/merchant-app';
import { zoneQuote, zoneSessionBody } from '../../testing/zone-quotes';
import { oursPage } from './browser';
import { repoRoot } from './children';
import { interleaved, percentile } from './stats';

/** What the merchant's endpoint spends pricing, as a precomputed rate table read from its database might (docs/express-checkout.md asks for well under a second). */
const ENDPOINT_WORK_MS = 20;
/** Changes per round: one page, one session. */
const CHANGES_PER_ROUND = 20;
/** The goal: what the checkout adds to a change, at p99. */
const ADDED_P99_GOAL_MS = 50;
/** The sandbox wallet's addresses the sheets cycle through (docs/test-cards.md#shipping-addresses): every one served by both sessions. */
const ADDRESS_CYCLE = ['gb-office', 'ca-home', 'us-home'];

/** The static session: the same goods, options per country priced by our server (docs/api.md#delivery-options-priced-by-the-server). */
const staticSessionBody = {
  amount: 2400,
  currency: 'USD',
  country_code: 'US',
  locale: 'en',
  line_items: [{ label: 'Coffee beans', kind: 'item', amount: 2400 }],
  shipping: {
    countries: ['US', 'GB', 'CA'],
    options: [
      { id: 'ground', label: 'Ground', amount: 500, countries: ['US'] },
      { id: 'air', label: 'Air', amount: 1500, countries: ['US'] },
      { id: 'international', label: 'International', amount: 2000, countries: ['GB', 'CA'] },
      { id: 'tracked', label: 'Tracked', amount: 3200, countries: ['GB', 'CA'] },
    ],
  },
};

interface Percentiles {
  p50Ms: number;
  p99Ms: number;
}

export interface QuoteCallbackResult {
  options: { changes: number; endpointWorkMs: number };
  /**
   * A session priced by the merchant's quote endpoint: the callback's latency, the endpoint's own time, and their
   * difference change by change; and where the time goes, our server's mean time per relay (from /metrics, the endpoint included).
   */
  quoted: { callback: Percentiles; endpoint: Percentiles; added: Percentiles; serverMeanMs: number; samples: { callbackMs: number[]; endpointMs: number[] } };
  /** A session with static delivery options: the callback is all the checkout's. */
  static: { callback: Percentiles; serverMeanMs: number; samples: { callbackMs: number[] } };
}

const percentiles = (values: readonly number[]): Percentiles => ({ p50Ms: percentile(values, 50), p99Ms: percentile(values, 99) });

/** The relay's answered requests so far and the time our server spent on them, from its request histogram. */
async function relayTotals(backend: string): Promise<{ seconds: number; count: number }> {
  const metrics = await (await fetch(`${backend}/metrics`)).text();
  const series = (name: string) => Number(new RegExp(`^wallet_checkout_http_request_duration_seconds_${name}\\{method="POST",route="/api/sessions/:id/quote",status="200"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0);
  return { seconds: series('sum'), count: series('count') };
}

/** The mean of the server's time per relay over rounds, each a difference of relayTotals. */
const meanMs = (rounds: readonly { seconds: number; count: number }[]) => (rounds.reduce((sum, r) => sum + r.seconds, 0) * 1000) / rounds.reduce((sum, r) => sum + r.count, 0);

/**
 * Runs in the page: clicks the sheet's radio `name`=`value` and resolves with the time until the express part
 * is no longer aria-busy, and the error the sheet then shows, if any. A string: tsx would add helpers of its own to a function.
 */
const CHANGE_IN_SHEET = `async ({ name, value }) => {
  const root = document.querySelector('[data-sandbox-wallet-host]').shadowRoot;
  const part = root.querySelector('[data-testid=sandbox-order]').parentElement;
  const input = root.querySelector('input[name="' + name + '"][value="' + value + '"]');
  if (!input) throw new Error('the sheet has no ' + name + ' ' + value);
  return await new Promise((resolve) => {
    let started = 0;
    const observer = new MutationObserver(() => {
      if (part.getAttribute('aria-busy') !== 'false') return;
      const ms = performance.now() - started;
      observer.disconnect();
      const error = root.querySelector('[role=alert]:not(:empty)');
      resolve({ ms, error: error ? error.textContent : null });
    });
    observer.observe(part, { attributes: true, attributeFilter: ['aria-busy'] });
    started = performance.now();
    input.click();
  });
}`;

/** The sheet opened and answered (its opening INITIALIZE priced), with Pay enabled. */
const SHEET_READY = `(() => {
  const root = document.querySelector('[data-sandbox-wallet-host]')?.shadowRoot;
  const order = root?.querySelector('[data-testid=sandbox-order]');
  return !!order && order.parentElement.getAttribute('aria-busy') === 'false' && !root.querySelector('[data-testid=sandbox-pay]').disabled;
})()`;

/** The sheet's radios now: the option checked and the others offered. */
const SHEET_OPTIONS = `(() => [...document.querySelector('[data-sandbox-wallet-host]').shadowRoot.querySelectorAll('input[name=sandbox-shipping-option]')].map((input) => ({ id: input.value, checked: input.checked })))()`;

/** The merchant's quote endpoint, timing itself: signature, price, the answer's last byte handed to the socket. */
function quoteEndpointHandler(secret: () => string | undefined, ownTimesMs: number[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const key = secret();
      const signature = req.headers['wallet-checkout-signature'];
      if (key === undefined || typeof signature !== 'string' || checkSignature(signature, body, key) !== 'verified') return res.writeHead(401).end();
      const { answer } = zoneQuote(JSON.parse(body) as QuoteRequest);
      res.on('finish', () => ownTimesMs.push(performance.now() - arrived));
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)), ENDPOINT_WORK_MS);
    });
  };
}

export async function benchQuoteCallback(options: { changes: number; log?: (stage: string) => void }): Promise<QuoteCallbackResult> {
  const rounds = Math.ceil(options.changes / CHANGES_PER_ROUND);
  const endpointMs: number[] = [];
  let endpointSecret: string | undefined;
  const pages = new Map<string, string>();
  const shop = await listen((req, res) => {
    const page = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    if (page === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  const endpoint = await listen(quoteEndpointHandler(() => endpointSecret, endpointMs));
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-quotes-'));
  let browser: Browser | undefined;
  let server: Awaited<ReturnType<typeof startChildServer>> | undefined;
  try {
    // A merchant of its own, on the shop's origin: the demo store sets the demo's quote endpoint to its own at every start.
    const secretKey = await createMerchantApp({ dataDir }, { name: 'Bench shop', merchant_id: 'bench', allowed_origins: [shop.origin] });
    // The compiled server, as production runs it; Vite's build set NODE_ENV=production in this process, which refuses http endpoints.
    server = await startChildServer({ dataDir, launch: { args: [...compiledServerArgs], cwd: repoRoot }, env: { NODE_ENV: 'development', LOG_LEVEL: 'warn', NODE_OPTIONS: '' } });
    const backend = server.url;
    const merchant = async <T>(method: string, path: string, body: unknown): Promise<T> => {
      const response = await fetch(`${backend}${path}`, { method, headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    endpointSecret = (await merchant<CreatedQuoteEndpoint>('PUT', '/api/quote_endpoint', { url: `${endpoint.origin}/quote` })).secret;
    browser = await chromium.launch(chromiumLaunchOptions);

    /** One round: a fresh session and page, the sheet opened, then CHANGES_PER_ROUND changes, each timed (and, quoted, its endpoint time). */
    const round = (kind: 'quoted' | 'static') => async () => {
      const session = await merchant<CreatedSession>('POST', '/api/sessions', kind === 'quoted' ? { ...zoneSessionBody(2400), locale: 'en' } : staticSessionBody);
      pages.set(`/${session.id}`, oursPage(`${backend}/checkout.js`, session));
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${shop.origin}/${session.id}`);
        await page.locator('[data-testid=sandbox-gpay-button]').click();
        await page.waitForFunction(SHEET_READY, undefined, { timeout: 20_000 });
        const relaysBefore = await relayTotals(backend);
        const samples: { callbackMs: number; endpointMs?: number }[] = [];
        for (let i = 0; i < CHANGES_PER_ROUND; i++) {
          // Address and option in turn; the option is one the sheet offers for the address now, other than the one checked.
          const options = (await page.evaluate(SHEET_OPTIONS)) as { id: string; checked: boolean }[];
          const change = i % 2 === 0 ? { name: 'sandbox-shipping-address', value: ADDRESS_CYCLE[(i / 2) % ADDRESS_CYCLE.length]! } : { name: 'sandbox-shipping-option', value: options.find((option) => !option.checked)!.id };
          const before = endpointMs.length;
          const { ms, error } = (await page.evaluate(`(${CHANGE_IN_SHEET})(${JSON.stringify(change)})`)) as { ms: number; error: string | null };
          if (error !== null) throw new Error(`the sheet shows an error after ${change.name} ${change.value}: ${error}`);
          if (kind === 'static') {
            samples.push({ callbackMs: ms });
            continue;
          }
          // The endpoint handed its answer to the socket before the backend could read it: its time is in by now.
          if (endpointMs.length !== before + 1) throw new Error(`a change made ${endpointMs.length - before} calls to the quote endpoint, not 1`);
          samples.push({ callbackMs: ms, endpointMs: endpointMs[before]! });
        }
        const relaysAfter = await relayTotals(backend);
        return { samples, server: { seconds: relaysAfter.seconds - relaysBefore.seconds, count: relaysAfter.count - relaysBefore.count } };
      } finally {
        await context.close();
      }
    };

    options.log?.('warm-up');
    await interleaved(1, round('quoted'), round('static'));
    options.log?.(`${rounds} rounds of ${CHANGES_PER_ROUND} changes each`);
    const measured = await interleaved(rounds, round('quoted'), round('static'));
    const quoted = measured.a.flatMap((r) => r.samples).slice(0, options.changes);
    const statics = measured.b.flatMap((r) => r.samples).slice(0, options.changes);
    const callbackMs = quoted.map((sample) => sample.callbackMs);
    const ownMs = quoted.map((sample) => sample.endpointMs!);
    return {
      options: { changes: options.changes, endpointWorkMs: ENDPOINT_WORK_MS },
      quoted: {
        callback: percentiles(callbackMs),
        endpoint: percentiles(ownMs),
        added: percentiles(quoted.map((sample) => sample.callbackMs - sample.endpointMs!)),
        serverMeanMs: meanMs(measured.a.map((r) => r.server)),
        samples: { callbackMs, endpointMs: ownMs },
      },
      static: { callback: percentiles(statics.map((sample) => sample.callbackMs)), serverMeanMs: meanMs(measured.b.map((r) => r.server)), samples: { callbackMs: statics.map((sample) => sample.callbackMs) } },
    };
  } finally {
    await browser?.close();
    await server?.stop();
    await shop.close();
    await endpoint.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Figure 11's rows of the table. */
export function quoteCallbackRows({ options, quoted, static: fixed }: QuoteCallbackResult): [string, string, string, string, string][] {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const p = ({ p50Ms, p99Ms }: Percentiles) => `${ms(p50Ms)} / ${ms(p99Ms)}`;
  const goal = (added: Percentiles) => `p99 < ${ADDED_P99_GOAL_MS} ms: ${added.p99Ms < ADDED_P99_GOAL_MS ? 'met' : '**missed**'}`;
  return [
    [`11. Sheet callback, a change to its update drawn, quote endpoint session (${options.changes} changes): p50 / p99`, p(quoted.callback), `the endpoint's own time ${p(quoted.endpoint)}`, '', ''],
    ['11. … added by the checkout (callback − endpoint time, change by change): p50 / p99', p(quoted.added), '', '', goal(quoted.added)],
    [`11. Sheet callback, static delivery options, no endpoint (${options.changes} changes): p50 / p99`, p(fixed.callback), '', '', goal(fixed.callback)],
    ['11. … our server\'s mean time per relay (its /metrics; the endpoint\'s call included)', `quote endpoint ${ms(quoted.serverMeanMs)}`, `static options ${ms(fixed.serverMeanMs)}`, '', ''],
  ];
}

// `npm run bench:quotes [changes]`: this figure alone, printed; docs/benchmarks.md is not touched.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchQuoteCallback({ changes: Number(process.argv[2] ?? 200), log: (stage) => console.error(`[bench:quotes] ${stage}`) });
  for (const row of quoteCallbackRows(result)) console.log(`${row[0]}: ${row[1]}${row[2] ? `; ${row[2]}` : ''}${row[4] ? ` (${row[4]})` : ''}`);
}
