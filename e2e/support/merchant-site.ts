/**
 * A merchant's own site on a second origin (127.0.0.1, another port): plain
 * HTML pages served by a tiny node http server, each with the headers the test
 * gives it (a strict CSP, say). This is what docs/embedding.md is for: a page
 * that is not ours embedding the widget from the checkout host.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { escapeHtml } from '../../common/html';
import type { CreatedSession } from '../../contracts';
import type { TestServer } from '../../testing/harness';
import { listen } from '../../testing/listen';
import { test as base } from './fixtures';

export interface MerchantSite {
  origin: string;
  /** Serves `html` at `path` with `headers`; returns the page's URL. */
  page(path: string, html: string, headers?: Record<string, string>): string;
  /** A new app of the site's merchant (this site's origin allowed) and a checkout session of it. */
  checkout(server: TestServer, session?: Record<string, unknown>): Promise<{ session: CreatedSession; secretKey: string }>;
}

export const test = base.extend<{ site: MerchantSite }>({
  site: async ({}, use) => {
    const pages = new Map<string, { html: string; headers: Record<string, string> }>();
    const http = await listen((req, res) => {
      const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...page.headers }).end(page.html);
    });
    try {
      await use({
        origin: http.origin,
        page(path, html, headers = {}) {
          pages.set(path, { html, headers });
          return `${http.origin}${path}`;
        },
        async checkout(server, session) {
          const { secretKey } = await server.merchant({ merchant_id: `m_${randomUUID().slice(0, 8)}`, allowed_origins: [http.origin] });
          return { session: await server.createSession(secretKey, session), secretKey };
        },
      });
    } finally {
      await http.close();
    }
  },
});

export { expect } from './fixtures';

/** The bundles' versioned names and SRI hashes, as a merchant reads them from the checkout host. */
export async function bundleManifest(server: TestServer): Promise<Record<string, { src: string; integrity: string }>> {
  return (await (await fetch(`${server.url}/checkout/manifest.json`)).json()) as Record<string, { src: string; integrity: string }>;
}

/** The nonce of the merchant's pages' strict CSPs. */
export const NONCE = 'r4nd0m-n0nce';

export const shopPage = (head: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>My shop</title>${head}</head><body>${body}</body></html>`;

export const scriptTag = (src: string, attributes: Record<string, string>) =>
  `<script src="${escapeHtml(src)}" ${Object.entries(attributes).map(([k, v]) => `${k}="${escapeHtml(v)}"`).join(' ')} defer></script>`;

/** Every CSP violation the page reports, from its first script on. */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}
