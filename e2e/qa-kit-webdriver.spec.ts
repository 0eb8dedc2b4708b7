/**
 * The QA kit's WebDriver entry (`@wallet-checkout/qa-kit/webdriver`) against the demo store, as a
 * team's selenium-webdriver suite drives it: Debian's chromedriver and Chromium, no Playwright page.
 * The demo store's app is in the SANDBOX wallet environment, so its widget loads the sandbox wallet
 * itself (the WebDriver kit has no `install`). Each test pays a new order of the store (one after its
 * session's test clock moved past its expiry, with the entry's `advanceClock`); the last pays
 * in iframe mode on a merchant's own page, where the challenge is a frame inside the checkout frame.
 */
import { expect, test } from '@playwright/test';
import type { WebDriver } from 'selenium-webdriver';
import { WalletCheckout } from '../packages/node/src';
import { advanceClock, walletCheckout } from '../packages/qa-kit/src/webdriver';
import { type TestServer, startTestServer } from '../testing/harness';
import { demoSecretKey } from './support/fixtures';
import { scriptTag, shopPage, test as siteTest } from './support/merchant-site';
import { chromedriverMissing, launchSeleniumChrome } from './support/selenium-chrome';

test.describe.configure({ mode: 'serial' });

let server: TestServer;
let driver: WebDriver;

test.beforeAll(async () => {
  const missing = chromedriverMissing();
  test.skip(missing !== undefined, missing);
  server = await startTestServer({ DEMO: 'on' });
  driver = await launchSeleniumChrome();
});

test.afterAll(async () => {
  await driver?.quit();
  await server?.close();
});

/** What the store's page says of the order once its server has it confirmed. */
const orderStatus = () => driver.executeScript<string | null>("return document.querySelector('#order-status')?.getAttribute('data-order-status') ?? null");

test('pays with a test card, and the store confirms the order', async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.pay(driver, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(driver, 'paid');
  await expect.poll(orderStatus).toBe('succeeded');
});

test('a card declined in the sheet, then another card there pays', async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.pay(driver, { card: 'visa-insufficient-funds-3ds' });
  await walletCheckout.expectOutcome(driver, 'declined');
  await walletCheckout.payAgain(driver, { card: 'mastercard-success-pan' });
  await walletCheckout.expectOutcome(driver, 'paid');
  await expect.poll(orderStatus).toBe('succeeded');
});

test('a card that asks for 3-D Secure: the challenge completed, the payment goes through', async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.pay(driver, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(driver, 'complete');
  await walletCheckout.expectOutcome(driver, 'paid');
});

test('a decline, the sheet closed and Try again, then a failed challenge is declined', async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.pay(driver, { card: 'visa-decline-3ds' });
  await walletCheckout.expectOutcome(driver, 'declined');
  await walletCheckout.tryAgain(driver);
  await walletCheckout.pay(driver, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(driver, 'fail');
  await walletCheckout.expectOutcome(driver, 'declined');
});

test("a session that expired while its page was open: the kit's advanceClock moves its clock, and paying shows expired", async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.expectOutcome(driver, 'ready');
  const secretKey = demoSecretKey(server);
  const reference = await driver.executeScript<string>("return document.querySelector('[data-testid=order-reference]').textContent");
  const api = new WalletCheckout(secretKey, { baseUrl: server.url });
  const [session] = (await api.sessions.list({ reference })).data;
  await advanceClock({ checkoutOrigin: server.url, secretKey, session: session!.id, seconds: 25 * 3600 });
  await walletCheckout.pay(driver, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(driver, 'expired');
  expect((await api.sessions.retrieve(session!.id)).status).toBe('expired');
});

test('a step that cannot happen fails after the timeout, naming what it waited for and what the widget shows', async () => {
  await driver.get(`${server.url}/`);
  await walletCheckout.expectOutcome(driver, 'ready');
  const started = Date.now();
  const failure = await walletCheckout.expectOutcome(driver, 'paid').catch((thrown: Error) => thrown);
  expect(String(failure)).toMatch(/waited 10000 ms for the widget to show paid; it shows ready/);
  expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
});

siteTest('iframe mode: frame() switches the driver into the checkout frame, where the kit pays through a challenge', async ({ site }) => {
  const { session } = await site.checkout(server);
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-mode': 'iframe', 'data-client-secret': session.client_secret, 'data-target': '#pay' });
  await driver.get(site.page('/iframe-shop', shopPage('', `<div id="pay"></div>${tag}`)));
  const frame = await walletCheckout.frame(driver);
  await walletCheckout.pay(frame, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(frame, 'complete');
  await walletCheckout.expectOutcome(frame, 'paid');
  await driver.switchTo().defaultContent();
  // Back on the merchant's page: the widget is in the frame, never here.
  expect(await driver.executeScript('return document.querySelectorAll("[data-wallet-checkout]").length')).toBe(0);
});
