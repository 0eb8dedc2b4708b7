/**
 * The example apps of testing/framework-apps/ as their merchants build and serve them
 * (docs/embedding.md, "In a framework"): a Vite + React app, a Next.js app that renders the
 * checkout page on its server, a Vue app and an Angular app, each installing our packages from
 * the tarballs npm packs and its framework from the registry, built once for the file
 * (support/framework-apps.ts). Each pays through the sandbox wallet under a nonce CSP, after a
 * theme switch the widget takes in place; the Next.js page's server HTML already holds the
 * widget's placeholder, and rendering it read `window` nowhere in our packages. The two React apps
 * run the two majors the component's peer range promises: React 18 (Vite) and 19 (Next.js).
 */
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import { freePort } from '../testing/free-port';
import type { TestServer } from '../testing/harness';
import { waitForOk } from '../testing/wait-for-ok';
import { CheckoutPage } from './support/checkout-page';
import type { Ledger } from './support/fixtures';
import { buildFrameworkApps, type BuiltApps, type FrameworkApp } from './support/framework-apps';
import { expect, NONCE, recordCspViolations, test, type MerchantSite } from './support/merchant-site';

let apps: BuiltApps;

test.beforeAll(async () => {
  // Four installs and builds at once, from a cold npm cache on a fresh machine.
  test.setTimeout(15 * 60_000);
  for (const built of ['packages/js/dist/index.js', 'packages/react/dist/index.js', 'packages/vue/dist/index.js', 'packages/angular/dist/package.json']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  }
  apps = await buildFrameworkApps();
  console.log(`framework apps installed and built in ${apps.timings.total.toFixed(1)} s: ${JSON.stringify(apps.timings)}`);
});

test.afterAll(() => apps?.dispose());

/** The merchant's policy: its own files, the checkout host, and the nonce it hands the widget. */
const policy = (server: TestServer) =>
  `default-src 'self'; script-src 'self' 'nonce-${NONCE}' ${server.url}; style-src 'self' 'nonce-${NONCE}'; connect-src 'self' ${server.url}; img-src 'self' data:`;

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

const filesUnder = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

/** A static app's build at the site's root under the policy, and the session its server created at /checkout-session (as the shop's API would give it). */
function serveStaticApp(site: MerchantSite, app: FrameworkApp, server: TestServer, session: CreatedSession): string {
  const headers = { 'content-security-policy': policy(server) };
  const output = apps.output(app);
  for (const file of filesUnder(output)) {
    const type = CONTENT_TYPES[extname(file)];
    if (!type) throw new Error(`${app}'s build wrote ${file}, which the shop does not know how to serve`);
    site.page(`/${relative(output, file)}`, readFileSync(file, 'utf8'), { 'content-type': type, ...headers });
  }
  site.page('/checkout-session', JSON.stringify({ host: server.url, clientSecret: session.client_secret, sessionView: session.public_view, nonce: NONCE }), { 'content-type': 'application/json' });
  return site.page('/', readFileSync(join(output, 'index.html'), 'utf8'), headers);
}

/**
 * The shopper's visit to an app's checkout page, open in `page`: the widget mounts; the shop's
 * theme switch reaches the same widget and button in place; the payment goes through; the app
 * shows the events its component gave it; the charge is the session's, and the page's policy saw
 * no violation.
 */
async function payThroughApp(page: Page, server: TestServer, ledger: Ledger, merchant: { sessionId: string; secretKey: string }, violations: () => Promise<string[]>) {
  const checkout = new CheckoutPage(page, server, merchant);
  await checkout.expectState('ready');
  await expect(page.locator('#checkout')).toHaveAttribute('data-status', 'mounted');
  await page.evaluate(() => {
    const host = document.querySelector('#checkout [data-wallet-checkout]') as (Element & { marked?: true }) | null;
    if (host) host.marked = true;
    const button = host?.shadowRoot?.querySelector('[data-wallet-button]') as (Element & { marked?: true }) | null | undefined;
    if (button) button.marked = true;
  });
  await page.locator('#dark').click();
  await expect(page.locator('#checkout [data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  expect(
    await page.evaluate(() => {
      const host = document.querySelector('#checkout [data-wallet-checkout]') as (Element & { marked?: true }) | null;
      const button = host?.shadowRoot?.querySelector('[data-wallet-button]') as (Element & { marked?: true }) | null | undefined;
      return { widgets: document.querySelectorAll('[data-wallet-checkout]').length, sameWidget: host?.marked === true, sameButton: button?.marked === true };
    }),
  ).toEqual({ widgets: 1, sameWidget: true, sameButton: true });

  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await expect(page.locator('#events li')).toHaveText([`ready ${merchant.sessionId}`, `success ${merchant.sessionId}`]);
  const session = await checkout.merchantView();
  expect(session.status).toBe('succeeded');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect(await violations(), 'the app, the pinned bundle, the widget and the wallet under the page policy').toEqual([]);
}

for (const app of ['vite-react', 'vue', 'angular'] as const) {
  test(`the ${app} app, built from the packed packages, pays through the sandbox wallet`, async ({ page, server, site, ledger }) => {
    const { session, secretKey } = await site.checkout(server);
    const violations = await recordCspViolations(page);
    await page.goto(serveStaticApp(site, app, server, session));
    await payThroughApp(page, server, ledger, { sessionId: session.id, secretKey }, violations);
  });
}

/** The version of `pkg` an app was installed with (its lockfile's, as npm ci put it in its node_modules). */
const installedVersion = (app: FrameworkApp, pkg: string) => (JSON.parse(readFileSync(join(apps.dir(app), 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

test('the Vite app runs on React 18 and the Next.js app on React 19, and the packed component renders under StrictMode on React 18\'s server renderer', async () => {
  for (const pkg of ['react', 'react-dom']) {
    expect(installedVersion('vite-react', pkg), `vite-react's ${pkg}`).toMatch(/^18\./);
    expect(installedVersion('next', pkg), `next's ${pkg}`).toMatch(/^19\./);
  }
  // Next.js renders on React 19's server; React 18's is checked here, in plain Node (no window), with the packages the Vite app installed.
  const render = `import { createElement, StrictMode } from 'react';
    import { renderToString } from 'react-dom/server';
    import { WalletCheckout } from '@wallet-checkout/react';
    process.stdout.write(renderToString(createElement(StrictMode, null, createElement(WalletCheckout, { host: 'https://checkout.example', clientSecret: 'cs_1_secret_a', className: 'pay' }))));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', render], { cwd: apps.dir('vite-react') });
  expect(stdout).toBe('<div class="pay" data-wallet-checkout-root="" data-status="idle"></div>');
});

/** How long `next start` is given to exit on SIGTERM before it is killed. */
const NEXT_STOP_GRACE_MS = 5_000;

/** `next start` of the built app on `port`, with the shop's settings; `stop` ends it. */
async function startNext(port: number, env: Record<string, string>): Promise<{ origin: string; output(): string; stop(): Promise<void> }> {
  const dir = apps.dir('next');
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // next start's graceful shutdown can wait on the page's open connections: a clean-clone run spent the test's last 86 s in it after
  // every step had passed. The app holds nothing to flush, so it gets a few seconds and is then killed.
  const stop = async () => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), NEXT_STOP_GRACE_MS);
    await exited;
    clearTimeout(killer);
  };
  try {
    await waitForOk(`${origin}/window-touches`, 60_000, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, output: () => output, stop };
}

test('the Next.js app renders the checkout page on its server, the placeholder in the HTML and window untouched by our packages, and it pays', async ({ page, server, ledger }) => {
  test.setTimeout(90_000);
  const port = await freePort();
  const { secretKey } = await server.merchant({ merchant_id: `m_${randomUUID().slice(0, 8)}`, allowed_origins: [`http://127.0.0.1:${port}`] });
  const next = await startNext(port, { CHECKOUT_HOST: server.url, WALLET_CHECKOUT_SECRET_KEY: secretKey });
  try {
    const reply = await fetch(`${next.origin}/`);
    const html = await reply.text();
    expect(reply.status, next.output()).toBe(200);
    expect(html).toContain('<div id="checkout" data-wallet-checkout-root="" data-status="idle"></div>');
    // The reads of window while the server rendered: each by Next.js's own code (which looks, as React's server renderer may), none by the app's bundle, which holds our packages.
    const { recording, touches } = (await (await fetch(`${next.origin}/window-touches`)).json()) as { recording: boolean; touches: string[] };
    expect(recording).toBe(true);
    const readers = touches.map((stack) => stack.split('\n')[2]?.trim() ?? stack);
    expect(readers.length, 'Next.js reads window on every request: the record is live').toBeGreaterThan(0);
    expect(readers.filter((frame) => !frame.includes('/node_modules/next/dist/'))).toEqual([]);

    const violations = await recordCspViolations(page);
    await page.goto(`${next.origin}/`);
    const sessionId = await page.locator('main').getAttribute('data-session-id');
    if (!sessionId) throw new Error('the page names no session');
    await payThroughApp(page, server, ledger, { sessionId, secretKey }, violations);
  } finally {
    await next.stop();
  }
});
