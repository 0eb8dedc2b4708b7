/**
 * The README's plain tag (the client secret alone) on a page that loads its wallet itself, in every
 * engine: the widget asks the wallet with the product's card method while the session's view is on
 * its way, so its button shows first; a click before the view waits for it, then opens the sheet;
 * and the session's own networks, asked once its view is here, can still make the wallet unavailable
 * (docs/embedding.md, "The plain tag"); a click whose view does not come within 4 s is a network error the
 * shopper retries. The view is held back by a door in front of the checkout host
 * (support/held-view.ts), as a slow network would hold it.
 */
import { randomUUID } from 'node:crypto';
import type { CreatedSession } from '../../contracts';
import { merchantView } from '../support/checkout-page';
import { type HeldView, heldView } from '../support/held-view';
import { scriptTag, shopPage } from '../support/merchant-site';
import { waitFor } from './driver';
import { EVENT_RECORDER, expect, test } from './fixtures';
import { Shopper } from './shopper';

/** A wallet that can pay with an American Express card only: the sandbox's, told so, as a shopper's Google Pay might answer. */
const AMEX_ONLY = `<script>
  (() => {
    const client = google.payments.api.PaymentsClient.prototype;
    const ask = client.isReadyToPay;
    client.isReadyToPay = function (request) {
      const amex = request.allowedPaymentMethods.some((method) => method.parameters.allowedCardNetworks.includes('AMEX'));
      return amex ? ask.call(this, request) : Promise.resolve({ result: false, paymentMethodPresent: false });
    };
  })();
</script>`;

/** The merchant's page: its own wallet (the sandbox's, from the checkout host), then the plain tag, its calls sent through `door`. */
const plainTagPage = (checkoutHost: string, door: HeldView, session: CreatedSession, wallet = '') =>
  shopPage(
    EVENT_RECORDER,
    `<h1>My shop</h1><div id="pay"></div><script src="${checkoutHost}/sandbox/wallet.js"></script>${wallet}` +
      scriptTag(`${checkoutHost}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', 'data-api-base': door.url }),
  );

let door: HeldView | undefined;
test.afterEach(async () => {
  door?.release();
  await door?.close();
  door = undefined;
});

test('the button shows before the view; a click then waits for the view, opens the sheet and pays', async ({ driver, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  door = await heldView(server.url);
  await driver.goto(site.page('/plain-early', plainTagPage(server.url, door, session)));
  const shopper = new Shopper(driver);
  await shopper.expectState('ready');
  expect(door.asked(), 'the view was asked for, and is held').toBe(true);
  expect(await shopper.read('[data-testid=amount]'), 'no amount before the view').toBeNull();

  await shopper.click({ css: '[data-testid=sandbox-gpay-button]' });
  await shopper.expectState('loading');
  await shopper.expectVisible('[data-testid=sandbox-wallet]', false);
  door.release();
  await shopper.expectVisible('[data-testid=sandbox-wallet]', true);
  await shopper.expectText('[data-testid=amount]', '$24.00');
  await shopper.payInSheet('visa-success-3ds');
  await shopper.expectState('paid');
  expect((await merchantView(server, { sessionId: session.id, secretKey })).status).toBe('succeeded');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  // Told once, for the session's own request.
  expect(await shopper.events('checkout:ready')).toEqual([{ sessionId: session.id, paymentMethodPresent: true }]);
});

test('a click whose view does not come within the cap is a network error; "Try again" asks for the view again, and pays', async ({ driver, server, site, ledger }) => {
  const { session } = await site.checkout(server);
  door = await heldView(server.url);
  await driver.goto(site.page('/plain-late', plainTagPage(server.url, door, session)));
  const shopper = new Shopper(driver);
  await shopper.expectState('ready');
  await shopper.click({ css: '[data-testid=sandbox-gpay-button]' });
  await shopper.expectState('loading');
  // CLICK_WAIT_MS (4 s) later, the view still held:
  await shopper.expectState('error');
  await shopper.expectText('[data-testid=status]', "We couldn't reach the payment server. Check your connection and try again.");
  await shopper.expectVisible('[data-testid=sandbox-wallet]', false);
  expect(await shopper.events('checkout:error')).toEqual([{ sessionId: session.id, code: 'network_error', reason: null, message: "We couldn't reach the payment server. Check your connection and try again." }]);
  // Try again while the first view is still held: the new load aborts the first, so the first's answer, once let
  // through, repaints nothing under the driver's click (released before the click, it raced it in WebKitGTK).
  await shopper.click({ css: '[data-testid=retry]' });
  door.release();
  // The early button is drawn again and replaced by the session's once its view is here (checkout:ready): a
  // driver's click takes several steps, and one begun on the early button can find it gone half way.
  await waitFor('checkout:ready after Try again', async () => (await shopper.events('checkout:ready')).length > 0 || null);
  await shopper.payWith('visa-success-pan');
  await shopper.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
});

test("a session whose networks the wallet cannot pay ends unavailable, though the product's card method showed the button", async ({ driver, server, site }) => {
  const { secretKey } = await server.merchant({ merchant_id: `m_${randomUUID().slice(0, 8)}`, allowed_origins: [site.origin], card_networks: ['VISA', 'MASTERCARD'] });
  const session = await server.createSession(secretKey);
  door = await heldView(server.url);
  await driver.goto(site.page('/plain-visa-only', plainTagPage(server.url, door, session, AMEX_ONLY)));
  const shopper = new Shopper(driver);
  await shopper.expectState('ready');
  door.release();
  await shopper.expectState('unavailable');
  await shopper.expectVisible('[data-testid=sandbox-gpay-button]', false);
  expect(await shopper.events('checkout:ready')).toEqual([]);
});
