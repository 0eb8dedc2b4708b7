/**
 * The widget's figures alone (bundle sizes and the browser loads), also part of
 * `npm run bench`: `npm run bench:widget [loads]` builds, runs them and prints
 * the ratios without touching docs/benchmarks.md, for a quick before/after.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserResult, benchBrowser, WALLET_FETCH_MS } from './browser';
import { buildLikeCheckout, type BundleSize, sizeOf } from './bundle';
import { repoRoot } from './children';
import { round } from './stats';

export interface WidgetResult {
  /** `ours`: checkout.js, what the first paint needs; `total`: with every chunk one page may load later (web/checkout/chunks.ts), one language among them. */
  bundle: { ours: BundleSize; total: BundleSize; floor: BundleSize };
  browser: BrowserResult;
}

export async function benchWidget(options: { loads: number; payments: number; log?: (stage: string) => void }): Promise<WidgetResult> {
  const buildDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-build-'));
  try {
    options.log?.('bundles');
    const ours = sizeOf(join(repoRoot, 'dist/web/checkout.js'));
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'dist/web/manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const chunkSize = (name: string) => sizeOf(join(repoRoot, 'dist/web', manifest[name]!.file));
    const chunkNames = Object.keys(manifest).filter((name) => name.startsWith('checkout-chunk-'));
    // A page loads one language at most: the largest stands for it (the locale index is not a language).
    const isLanguage = (name: string) => name.startsWith('checkout-chunk-locale-') && name !== 'checkout-chunk-locale-index.js';
    const largestLanguage = chunkNames.filter(isLanguage).map(chunkSize).reduce((largest, size) => (size.gzip > largest.gzip ? size : largest));
    const chunks = [...chunkNames.filter((name) => !isLanguage(name)).map(chunkSize), largestLanguage];
    const total = [ours, ...chunks].reduce((sum, size) => ({ minified: sum.minified + size.minified, gzip: sum.gzip + size.gzip, brotli: sum.brotli + size.brotli }));
    const floor = sizeOf(await buildLikeCheckout('floor-entry.ts', buildDir, 'floor.js'));
    const elementBundle = await buildLikeCheckout('element-entry.ts', buildDir, 'element.js');
    options.log?.('browser');
    const browser = await benchBrowser({ loads: options.loads, payments: options.payments, elementBundle });
    return { bundle: { ours, total, floor }, browser };
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const loads = Number(process.argv[2] ?? 21);
  const { bundle, browser } = await benchWidget({ loads, payments: 1, log: (stage) => console.error(`[bench:widget] ${stage}`) });
  const { ours, bare } = browser;
  console.log(
    [
      `checkout.js gzip ${bundle.ours.gzip} B, floor ${bundle.floor.gzip} B: ${round(bundle.ours.gzip / bundle.floor.gzip)}x; with every chunk ${bundle.total.gzip} B`,
      `usable button (median of ${loads}) ours ${ours.usableMs.toFixed(1)} ms, bare ${bare.usableMs.toFixed(1)} ms: ${round(ours.usableMs / bare.usableMs)}x`,
      `script arrived ours ${ours.scriptArrivedMs.toFixed(1)} ms, bare ${bare.scriptArrivedMs.toFixed(1)} ms; session view arrived ${ours.sessionArrivedMs?.toFixed(1) ?? 'never (none requested)'}`,
      `usable button, wallet fetched (${WALLET_FETCH_MS} ms) ours ${browser.walletFetched.ours.usableMs.toFixed(1)} ms, bare ${browser.walletFetched.bare.usableMs.toFixed(1)} ms: ${round(browser.walletFetched.ours.usableMs / browser.walletFetched.bare.usableMs)}x`,
    ].join('\n'),
  );
}
