/**
 * Lighthouse (figure 13 of `npm run bench`; alone: `npm run bench:lighthouse`): Lighthouse 12.2.3 (pinned in
 * package.json) driving Debian's Chromium headless (scripts/ensure-chromium.sh installs it; CHROME_PATH, else
 * CHROMIUM_PATH, names another binary), on three pages the compiled server serves as production runs it (a child
 * process): the demo store (`/`), a shop page on an origin of its own with one widget (the script tag carrying the
 * session's view, as figure 2's page, written as docs/embedding.md asks: a viewport, the widget's height reserved on
 * its mount element), and the dashboard's sign-in page (`/dashboard`); each in Lighthouse's mobile configuration
 * (its default: a mid-range phone, simulated slow 4G and a 4x slower CPU) and its desktop one. Each page and form
 * factor is run `runs` times, a fresh Chromium each; the median of each figure is reported: the performance and
 * best-practices scores and the cumulative layout shift, against their goals. Not part of `npm test` (about 15 s a run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { CreatedSession } from '../../contracts';
import { startChildServer } from '../../testing/child-server';
import { compiledServerArgs } from '../../testing/fleet/node-process';
import { listen } from '../../testing/listen';
import { createMerchantApp } from '../../testing/merchant-app';
import { escapeHtml } from '../../common/html';
import { RESERVED_HEIGHT_PX } from '../../web/checkout/reserved-height';
import { repoRoot } from './children';
import { FORM_FACTORS, type LighthouseFigures, type LighthouseResult, lighthouseRows, PAGES } from './lighthouse-goals';

/** A merchant's page with one widget, as docs/embedding.md writes it. */
const widgetPage = (checkoutSrc: string, session: CreatedSession) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title><link rel="icon" href="data:,">
<style>#pay { min-height: ${RESERVED_HEIGHT_PX}px; }</style></head>
<body>
  <h1>Pour-over coffee kit</h1>
  <div id="pay"></div>
  <p>Shipped in two days.</p>
  <script src="${escapeHtml(checkoutSrc)}" data-client-secret="${escapeHtml(session.client_secret)}" data-session-view="${escapeHtml(JSON.stringify(session.public_view))}" data-target="#pay" defer></script>
</body></html>`;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Lighthouse's own failure to record a run (NO_NAVSTART, a lost trace), which it answers with "Please run Lighthouse again". */
class LighthouseRuntimeError extends Error {}

/** Runs a page that Lighthouse failed to record (not one it scored low) gets again, so a lost trace does not throw away the whole bench. */
const RECORDING_ATTEMPTS = 3;

async function auditRecorded(url: () => Promise<string>, formFactor: (typeof FORM_FACTORS)[number], log?: (stage: string) => void) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(await url(), formFactor);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError) || attempt === RECORDING_ATTEMPTS) throw error;
      log?.(`${error.message}: running it again`);
    }
  }
}

/** One Lighthouse run of `url` in a fresh headless Chromium: its scores (out of 100), CLS and failed best practices. */
async function audit(url: string, formFactor: (typeof FORM_FACTORS)[number]) {
  const chrome = await launch({ chromePath, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'best-practices'] }, formFactor === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    // A console error is named by its first words, which say what failed to load or threw.
    const consoleErrors = ((lhr.audits['errors-in-console']?.details as { items?: { description?: string }[] } | undefined)?.items ?? []).map((item) => (item.description ?? '').slice(0, 80));
    const failed = (lhr.categories['best-practices']?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => (ref.id === 'errors-in-console' ? `${ref.id} (${consoleErrors.join('; ')})` : ref.id));
    return {
      performance: score('performance'),
      bestPractices: score('best-practices'),
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      failedBestPractices: failed,
      versions: { lighthouse: lhr.lighthouseVersion, chrome: lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? lhr.environment.hostUserAgent },
    };
  } finally {
    chrome.kill();
  }
}

export async function benchLighthouse(options: { runs: number; log?: (stage: string) => void }): Promise<LighthouseResult> {
  const pages = new Map<string, string>();
  const shop = await listen((req, res) => {
    const page = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    if (page === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-lighthouse-'));
  let server: Awaited<ReturnType<typeof startChildServer>> | undefined;
  try {
    const secretKey = await createMerchantApp({ dataDir }, { name: 'Bench shop', merchant_id: 'bench', allowed_origins: [shop.origin] });
    // The compiled server, as production runs it; Vite's build set NODE_ENV=production in this process.
    server = await startChildServer({ dataDir, launch: { args: [...compiledServerArgs], cwd: repoRoot }, env: { NODE_ENV: 'development', LOG_LEVEL: 'warn', NODE_OPTIONS: '' } });
    const backend = server.url;
    /** A page's address for one run: the shop's page gets a fresh session each time, as a shopper's would. */
    const urlOf = async (page: (typeof PAGES)[number]) => {
      if (page === 'demo store') return `${backend}/`;
      if (page === 'dashboard sign-in') return `${backend}/dashboard`;
      const response = await fetch(`${backend}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', description: 'Pour-over coffee kit' }),
      });
      if (!response.ok) throw new Error(`POST /api/sessions answered ${response.status}: ${await response.text()}`);
      const session = (await response.json()) as CreatedSession;
      pages.set(`/${session.id}`, widgetPage(`${backend}/checkout.js`, session));
      return `${shop.origin}/${session.id}`;
    };

    const figures: LighthouseFigures[] = [];
    let versions = { lighthouse: '', chrome: '' };
    for (const page of PAGES) {
      for (const formFactor of FORM_FACTORS) {
        options.log?.(`${page}, ${formFactor}: ${options.runs} run(s)`);
        const runs: Awaited<ReturnType<typeof audit>>[] = [];
        for (let i = 0; i < options.runs; i++) runs.push(await auditRecorded(() => urlOf(page), formFactor, options.log));
        const samples = runs.map(({ performance, bestPractices, cls }) => ({ performance, bestPractices, cls }));
        versions = runs.at(-1)!.versions;
        figures.push({
          page,
          formFactor,
          performance: median(samples.map((s) => s.performance)),
          bestPractices: median(samples.map((s) => s.bestPractices)),
          cls: median(samples.map((s) => s.cls)),
          samples,
          failedBestPractices: runs.at(-1)!.failedBestPractices,
        });
      }
    }
    return { options: { runs: options.runs, ...versions }, figures };
  } finally {
    await server?.stop();
    await shop.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run bench:lighthouse [runs]`: this figure alone, printed; docs/benchmarks.md is not touched.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchLighthouse({ runs: Number(process.argv[2] ?? 3), log: (stage) => console.error(`[bench:lighthouse] ${stage}`) });
  console.error(`[bench:lighthouse] Lighthouse ${result.options.lighthouse}, ${result.options.chrome}`);
  for (const row of lighthouseRows(result)) console.log(`${row[0]}: ${row[1]}${row[2] ? `; ${row[2]}` : ''} (${row[4]})`);
}
