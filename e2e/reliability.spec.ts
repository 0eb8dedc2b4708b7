/**
 * No double charge and no guessed outcome, in the browser: whatever the shopper does (two tabs, a reload
 * mid-payment) and however the payment service fails, a session is charged at
 * most once and the widget ends telling the truth: paid, or "confirming"
 * until the outcome is known, never a guess.
 */
import type { Page } from '@playwright/test';
import { sql } from 'kysely';
import { en } from '../web/checkout/locales/en';
import type { TestServer } from '../testing/harness';
import { CheckoutPage, recordCheckoutEvents } from './support/checkout-page';
import { expect, test } from './support/fixtures';

const CARD = 'visa-success-3ds';

// The fault plan and the store belong to the worker's one server: leave them as every other test expects them.
test.afterEach(async ({ server }) => {
  server.sandbox?.setFaults({ rate: 0 });
  await sql`pragma query_only = 0`.execute(server.store);
});

/** The same merchant page in a second tab, its button ready (the fixture served the first by interception). */
async function secondTab(page: Page, server: TestServer, first: CheckoutPage): Promise<CheckoutPage> {
  const shopHtml = await (await page.reload())?.text();
  await first.expectState('ready');
  const tab = await page.context().newPage();
  await recordCheckoutEvents(tab);
  await tab.route(page.url(), (route) => route.fulfill({ contentType: 'text/html', body: shopHtml ?? '' }));
  await tab.goto(page.url());
  const second = new CheckoutPage(tab, server, first.merchant);
  await second.expectState('ready');
  return second;
}

test('two tabs paying one session at once charge it once, and both end paid', async ({ page, server, shop, ledger }) => {
  const { checkout: first } = await shop.open();
  const second = await secondTab(page, server, first);

  // A slow service, so that one tab's payment surely arrives while the other's is being charged: both sheets open
  // first, then both Pay buttons pressed at once (a sheet opened inside the charge's delay on a loaded machine let
  // the first payment end before the second was sent, and the 200 came first).
  server.sandbox?.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 2000 });
  await first.openWallet();
  await second.openWallet();
  const paying = [first, second].map(async (tab) => ({ tab, payStatus: (await tab.payInOpenSheet(CARD)).payStatus }));
  // The refused tab is answered at once, the other two seconds later: its state is looked at before they are over
  // (after them, its next check may already find the session paid).
  const answeredFirst = await Promise.race(paying);
  expect(answeredFirst.payStatus).toBe(409);
  // Told "in progress", that tab confirms by polling instead of failing.
  await answeredFirst.tab.expectState('confirming');
  const payments = await Promise.all(paying);
  expect(payments.map((payment) => payment.payStatus).sort()).toEqual([200, 409]);
  await first.expectState('paid');
  await second.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect(await first.merchantView()).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { charge_id: entries[0]?.charge.id } });
});

test('a tab left open after another tab paid shows the order paid, not an error, and charges nothing more', async ({ page, server, shop, ledger }) => {
  const { checkout: first } = await shop.open();
  const stale = await secondTab(page, server, first);

  await first.payWith(CARD);
  await first.expectState('paid');
  // The stale tab still shows the button; the shopper pays again there.
  const again = await stale.payWith(CARD);
  expect(again.payStatus).toBe(409);
  await stale.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
});

test('a shopper reloading mid-payment sees it confirmed, then paid, and is charged once', async ({ page, server, shop, ledger }) => {
  const { checkout } = await shop.open();
  server.sandbox?.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 1500 });

  // Started, not awaited as payWith would: the reload cuts this request's reply.
  await checkout.openWallet();
  await page.locator(`input[name=sandbox-card][value="${CARD}"]`).check();
  await page.locator('[data-testid=sandbox-pay]').click();
  await checkout.expectState('processing');
  // Reload only once the backend has claimed the attempt: the service now holds the charge.
  await expect.poll(async () => (await checkout.merchantView()).status).toBe('processing');
  await page.reload();

  await checkout.expectState('confirming');
  await checkout.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { charge_id: entries[0]?.charge.id } });
});

test('a failing service leaves the payment confirming, and reconciliation then shows it paid', async ({ server, shop, ledger }) => {
  const { checkout } = await shop.open();
  server.sandbox?.setFaults({ rate: 1, kinds: ['error'] });

  const { payStatus } = await checkout.payWith(CARD);

  // The backend does not know whether it charged: it says so rather than "failed".
  expect(payStatus).toBe(200);
  await checkout.expectState('confirming');
  await expect(checkout.testId('status')).toHaveText(/We are confirming your payment/);
  expect(await checkout.merchantView()).toMatchObject({ status: 'pending', outcome: { status: 'pending', charge_id: null } });
  expect(await ledger.newEntries()).toEqual([]);

  server.sandbox?.setFaults({ rate: 0 });
  // A pass already under way (started with the fault on) may leave it pending: ask until one settles it.
  await expect.poll(async () => (await server.reconcile(), (await checkout.merchantView()).status)).toBe('succeeded');

  await checkout.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect((await checkout.merchantView()).outcome?.charge_id).toBe(entries[0]?.charge.id);
  expect(await checkout.events('checkout:success')).toEqual([{ sessionId: checkout.merchant.sessionId, chargeId: entries[0]?.charge.id, status: 'succeeded' }]);
});

test('a store outage while the shopper pays: told to try again shortly, the button comes back, and after recovery it pays once', async ({ server, shop, ledger }) => {
  const { checkout } = await shop.open();
  // The store refuses every write (SQLITE_READONLY), as a read-only or full disk would.
  await sql`pragma query_only = 1`.execute(server.store);
  const refused = await checkout.payWith(CARD);
  expect(refused.payStatus).toBe(503);
  await checkout.expectState('error');
  await expect(checkout.testId('status')).toHaveText(en.errors.store_unavailable);
  expect(await checkout.events('checkout:error')).toEqual([
    { sessionId: checkout.merchant.sessionId, code: 'store_unavailable', reason: 'store_unavailable', message: en.errors.store_unavailable },
  ]);
  expect(await ledger.newEntries(), 'nothing charged').toEqual([]);

  await sql`pragma query_only = 0`.execute(server.store);
  await checkout.testId('retry').click();
  await checkout.expectState('ready');
  await checkout.payWith(CARD);
  await checkout.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded', attempts: 1 });
});
