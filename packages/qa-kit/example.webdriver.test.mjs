/**
 * The QA kit with WebDriver: selenium-webdriver drives Chrome or Chromium through chromedriver, and
 * node's own test runner runs the tests (`node --test`). The same calls as the Playwright fixture,
 * imported from `@wallet-checkout/qa-kit/webdriver`. Point it at your staging environment:
 *
 *   CHECKOUT_URL=https://checkout.staging.example SHOP_URL=https://shop.staging.example/cart node --test tests/
 *
 * Without the URLs it runs against a local `npm start` of Wallet Checkout and its demo store
 * (http://127.0.0.1:3000/), whose every page view is a new order. Your page's application must be in
 * the SANDBOX wallet environment: WebDriver cannot serve the sandbox wallet in place of Google's pay.js.
 * CHROMIUM_PATH and CHROMEDRIVER_PATH name the browser and its driver (Debian's by default).
 */
import { after, before, beforeEach, test } from 'node:test';
import { existsSync } from 'node:fs';
import { walletCheckout } from '@wallet-checkout/qa-kit/webdriver';
import { Builder } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';

const checkoutUrl = process.env.CHECKOUT_URL ?? 'http://127.0.0.1:3000';
const shopUrl = process.env.SHOP_URL ?? `${checkoutUrl}/`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let driver;

before(async () => {
  const options = new chrome.Options();
  // --no-sandbox: Chromium refuses to run as root (a CI container) with its sandbox on.
  options.addArguments('--headless=new', '--no-sandbox', '--disable-gpu');
  if (existsSync(chromiumPath)) options.setChromeBinaryPath(chromiumPath);
  // The driver named, so that Selenium Manager never tries to download one.
  const service = new chrome.ServiceBuilder(process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver');
  driver = await new Builder().forBrowser('chrome').setChromeOptions(options).setChromeService(service).build();
});

after(() => driver?.quit());

beforeEach(() => driver.get(shopUrl));

test('a shopper pays with a test card', async () => {
  await walletCheckout.pay(driver, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(driver, 'paid');
});

test('a declined card is told in the wallet, where another card pays', async () => {
  await walletCheckout.pay(driver, { card: 'visa-insufficient-funds-3ds' });
  await walletCheckout.expectOutcome(driver, 'declined');
  await walletCheckout.payAgain(driver, { card: 'mastercard-success-pan' });
  await walletCheckout.expectOutcome(driver, 'paid');
});

test('a declined card, the wallet closed and "Try again": another card pays', async () => {
  await walletCheckout.pay(driver, { card: 'visa-decline-3ds' });
  await walletCheckout.expectOutcome(driver, 'declined');
  await walletCheckout.tryAgain(driver);
  await walletCheckout.pay(driver, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(driver, 'paid');
});

test('3-D Secure: a completed challenge pays', async () => {
  await walletCheckout.pay(driver, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(driver, 'complete');
  await walletCheckout.expectOutcome(driver, 'paid');
});

test('3-D Secure: a failed or cancelled challenge is declined', async () => {
  await walletCheckout.pay(driver, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(driver, 'fail');
  await walletCheckout.expectOutcome(driver, 'declined');
  await driver.get(shopUrl);
  await walletCheckout.pay(driver, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(driver, 'cancel');
  await walletCheckout.expectOutcome(driver, 'declined');
});

test('a shopper who closes the wallet has not paid: the widget is ready again', async () => {
  await walletCheckout.cancel(driver);
  await walletCheckout.expectOutcome(driver, 'ready');
});
