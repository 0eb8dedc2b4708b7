/**
 * Prices from the merchant's own quote endpoint, in the browser: a real endpoint on 127.0.0.1
 * (testing/quote-endpoint.ts) registered for the app, the sandbox wallet's sheet changed by the shopper,
 * each change relayed by the widget and priced there, and the payment priced once more with the full
 * address. What the sheet shows is the endpoint's answer; what is charged is the server's last quote,
 * or nothing: a slow, failing or malformed endpoint, a refusal at payment, a page that rewrites the
 * relay, replies that arrive out of order. (A page that rewrites the payment's quote_id:
 * express-delivery-options.spec.ts.)
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { QuoteRequest, Session } from '../contracts';
import type { LedgerEntry } from '../sandbox';
import { type QuoteEndpointReply, startQuoteEndpoint, type TestQuoteEndpoint } from '../testing/quote-endpoint';
import { en } from '../web/checkout/locales/en';
import { QUOTE_DEADLINE_MS } from '../web/checkout/quote-decide';
import type { CheckoutPage } from './support/checkout-page';
import { expect, type Ledger, type ShopCheckout, test as base } from './support/fixtures';

/** The server's time for the endpoint, short so that a slow endpoint's test is quick (production's default is 5 s). */
const TIMEOUT_MS = 1_500;
/** What the server answers the sheet for an endpoint that failed (docs/express-checkout.md, "What the shopper sees"). */
const COULD_NOT_PRICE = 'The shop could not price this just now: try again';
const NO_AUSTRALIA = 'We do not deliver to Australia yet';

/**
 * The shop's prices, as its endpoint computes them: Ground and Air in the US with California's sales tax
 * (8.5% of the goods), International elsewhere, nothing to Australia; TENOFF takes 10.00 off.
 */
function shopPrices(request: QuoteRequest): QuoteEndpointReply {
  const address = request.shipping_address;
  if (address?.country === 'AU') return { json: { error: { reason: 'shipping_address_unserviceable', message: NO_AUSTRALIA } } };
  const options = address?.country === 'US' ? [{ id: 'ground', label: 'Ground', detail: '5 days', amount: 500 }, { id: 'air', label: 'Air', detail: 'Next day', amount: 1500 }] : [{ id: 'international', label: 'International', amount: 2000 }];
  return {
    json: {
      shipping_options: options,
      tax: address?.state === 'CA' ? Math.round(request.amount * 0.085) : 0,
      promotion_codes: request.promotion_codes.filter((code) => code === 'TENOFF').map((code) => ({ code, label: 'Ten off', amount: 1000 })),
    },
  };
}

const QUOTED = {
  amount: 2400,
  currency: 'USD',
  country_code: 'US',
  line_items: [{ label: 'Coffee beans', kind: 'item', amount: 2400 }],
  shipping: { countries: ['US', 'GB', 'AU'], options: [{ id: 'ground', label: 'Ground', amount: 500 }] },
  quote_endpoint: true,
  promotion_codes: true,
};

interface QuotedShop {
  endpoint: TestQuoteEndpoint;
  /** A new app with the endpoint registered, and a checkout of it (QUOTED unless `session` says otherwise); `again`: another checkout of the same app. */
  open(session?: Record<string, unknown>): Promise<ShopCheckout & { again(session?: Record<string, unknown>): Promise<ShopCheckout> }>;
}

const test = base.extend<{ quoted: QuotedShop }>({
  quoted: async ({ server, shop }, use) => {
    const endpoint = await startQuoteEndpoint(shopPrices);
    try {
      await use({
        endpoint,
        async open(session = QUOTED) {
          const merchantId = `m_${randomUUID().slice(0, 8)}`;
          const { appId, secretKey } = await server.merchant({ merchant_id: merchantId, allowed_origins: [server.url] });
          const set = await fetch(`${server.url}/api/quote_endpoint`, { method: 'PUT', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: endpoint.url }) });
          expect(set.status, 'PUT /api/quote_endpoint').toBe(200);
          const app = { appId, merchantId, secretKey };
          const again = (next: Record<string, unknown> = QUOTED) => shop.openAgain(app, { session: next });
          return { ...(await again(session)), again };
        },
      });
    } finally {
      await endpoint.close();
    }
  },
});
// A server of this spec's own, whose quote endpoint calls give up after TIMEOUT_MS.
test.use({ serverEnv: { QUOTE_ENDPOINT_TIMEOUT_MS: String(TIMEOUT_MS) } });

/** The parts of the open sheet the tests read and change. */
function sheetOf(sheet: Locator) {
  return {
    total: sheet.getByTestId('sandbox-total'),
    pay: sheet.getByTestId('sandbox-pay'),
    item: (label: string) => sheet.getByTestId('sandbox-item').filter({ hasText: label }),
    options: sheet.locator('input[name=sandbox-shipping-option]'),
    addressError: sheet.getByTestId('sandbox-shipping-addresses-error'),
    offerError: sheet.getByTestId('sandbox-offer-error'),
    offers: sheet.getByTestId('sandbox-offer'),
    /** The message the sheet shows beside Pay (a refused payment's own). */
    status: sheet.locator('p.error[role=alert]:not([data-testid])'),
    shipTo: (address: string) => sheet.locator(`input[name=sandbox-shipping-address][value=${address}]`).check(),
    deliver: (option: string) => sheet.locator(`input[name=sandbox-shipping-option][value=${option}]`).check(),
    async enterCode(code: string) {
      await sheet.getByTestId('sandbox-offer-code').fill(code);
      await sheet.getByTestId('sandbox-offer-apply').click();
    },
  };
}

/** The payment service's charges of `checkout`'s session, made during this test. */
const chargesOf = async (ledger: Ledger, checkout: CheckoutPage): Promise<LedgerEntry[]> =>
  (await ledger.newEntries()).filter((entry) => entry.idempotency_key?.startsWith(`${checkout.merchant.sessionId}:`));

/** Nothing of the session reached the payment service, and it is unpaid. */
async function nothingCharged(ledger: Ledger, checkout: CheckoutPage) {
  expect(await chargesOf(ledger, checkout)).toEqual([]);
  expect(await checkout.merchantView()).toMatchObject({ amount_charged: null, quote: null });
}

/** The session's one charge: its amount is the quote the merchant's view says was charged, and that quote's total is `total`. */
async function chargedExactly(ledger: Ledger, checkout: CheckoutPage, total: number): Promise<Session> {
  const view = await checkout.merchantView();
  expect(view).toMatchObject({ status: 'succeeded', amount_charged: total, quote: { total } });
  expect((await chargesOf(ledger, checkout)).map((entry) => [entry.charge.status, entry.charge.amount])).toEqual([['succeeded', total]]);
  return view;
}

test("each change is priced by the merchant's endpoint: the zone's options and tax, a code taken or refused, an address refused; the charge is the last quote", async ({ quoted, ledger }) => {
  const { checkout } = await quoted.open();
  const sheet = sheetOf(await checkout.openWallet());
  // San Francisco: Ground, and California's tax on the goods (24.00 + 5.00 + 2.04).
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await expect(sheet.item('Tax')).toHaveText(/\$2\.04$/);
  await expect(sheet.options).toHaveCount(2);

  // London: another zone, its one option, no tax.
  await sheet.shipTo('gb-office');
  await expect(sheet.total).toHaveText(/\$44\.00$/);
  await expect(sheet.options).toHaveCount(1);
  await expect(sheet.item('Tax')).toHaveCount(0);

  // Alice Springs: refused by the merchant, on the address, in its words; nobody pays until another is priced.
  await sheet.shipTo('au-remote');
  await expect(sheet.addressError).toHaveText(NO_AUSTRALIA);
  await expect(sheet.pay).toBeDisabled();

  await sheet.shipTo('us-home');
  await expect(sheet.addressError).toHaveText('');
  await sheet.deliver('air');
  await expect(sheet.total).toHaveText(/\$41\.04$/);

  // A code taken: its own DISCOUNT line, off the total.
  await sheet.enterCode('TENOFF');
  await expect(sheet.offers).toHaveText(['TENOFF Ten off']);
  await expect(sheet.item('Ten off')).toHaveText(/-\$10\.00$/);
  await expect(sheet.total).toHaveText(/\$31\.04$/);

  // A code refused: Google's OFFER_INVALID on the code field naming it, the rest of the quote standing.
  await sheet.enterCode('BOGUS50');
  await expect(sheet.offerError).toContainText('BOGUS50');
  await expect(sheet.offers).toHaveText(['TENOFF Ten off']);
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await expect(sheet.pay).toBeDisabled();

  await sheet.deliver('ground');
  await expect(sheet.total).toHaveText(/\$21\.04$/);
  await expect(sheet.pay).toBeEnabled();
  expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(200);
  await checkout.expectState('paid');
  const view = await chargedExactly(ledger, checkout, 2104);
  expect(view.quote).toMatchObject({ shipping_option: { id: 'ground', amount: 500 }, tax: 204, promotion_codes: [{ code: 'TENOFF', amount: 1000 }] });

  // The endpoint saw the sheet's addresses redacted, and the full one once, to confirm the price.
  const stages = quoted.endpoint.received.map(({ request }) => request.stage);
  expect(stages.at(-1)).toBe('authorization');
  expect(stages.filter((stage) => stage === 'authorization')).toHaveLength(1);
  for (const { request } of quoted.endpoint.received.slice(0, -1)) expect(request.shipping_address).not.toHaveProperty('line1');
  expect(quoted.endpoint.received.at(-1)?.request.shipping_address).toMatchObject({ line1: '1 Sandbox Way', country: 'US' });
});

test("an endpoint slower than the server's timeout is an error in the sheet within the widget's deadline, and Pay cannot authorize", async ({ quoted, ledger }) => {
  quoted.endpoint.answer = (request) => new Promise((resolve) => setTimeout(() => resolve(shopPrices(request)), TIMEOUT_MS * 3));
  const { checkout } = await quoted.open();
  const opened = Date.now();
  const sheet = sheetOf(await checkout.openWallet());
  // The server's answer (its timeout passed), not the widget's own once its deadline passed.
  await expect(sheet.addressError).toHaveText(COULD_NOT_PRICE, { timeout: QUOTE_DEADLINE_MS });
  expect(Date.now() - opened).toBeLessThan(QUOTE_DEADLINE_MS);
  await expect(sheet.pay).toBeDisabled();
  await expect(sheet.total).toHaveText(/pending/);

  // The endpoint back to speed: the shopper's next change is priced, and Pay comes back.
  quoted.endpoint.answer = shopPrices;
  await sheet.shipTo('gb-office');
  await expect(sheet.total).toHaveText(/\$44\.00$/);
  await expect(sheet.pay).toBeEnabled();
  await nothingCharged(ledger, checkout);
});

test('an endpoint that fails or answers nonsense is an error in the sheet, and nothing is charged', async ({ quoted, ledger }) => {
  const replies: [string, QuoteEndpointReply][] = [
    ['HTTP 500', { status: 500, json: { error: 'internal' } }],
    ['not JSON', { text: '<html>Bad gateway</html>' }],
    ['not a QuoteAnswer', { json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], tax: -5 } }],
  ];
  let again: ((session?: Record<string, unknown>) => Promise<ShopCheckout>) | undefined;
  for (const [kind, reply] of replies) {
    quoted.endpoint.answer = () => reply;
    const { checkout } = again ? await again() : await quoted.open().then((opened) => ((again = opened.again), opened));
    const sheet = sheetOf(await checkout.openWallet());
    await expect(sheet.addressError, kind).toHaveText(COULD_NOT_PRICE);
    await expect(sheet.pay, kind).toBeDisabled();
    // Another change is asked again, and fails the same way.
    await sheet.shipTo('gb-office');
    await expect(sheet.addressError, kind).toHaveText(COULD_NOT_PRICE);
    await expect(sheet.pay, kind).toBeDisabled();
    await nothingCharged(ledger, checkout);
  }
});

test('a payment the endpoint refuses at authorization is told in the open sheet, nothing charged, and another address pays exactly its new quote', async ({ page, quoted, ledger }) => {
  // The full address, seen only at payment: this endpoint does not deliver to the building in San Francisco (a surcharge, an outage).
  const atAuthorization: [string, (request: QuoteRequest) => QuoteEndpointReply | Promise<QuoteEndpointReply>, number, (sheet: ReturnType<typeof sheetOf>) => Locator, string][] = [
    ['the address refused', () => ({ json: { error: { reason: 'shipping_address_unserviceable', message: 'We cannot deliver to 1 Sandbox Way' } } }), 422, (sheet) => sheet.addressError, 'We cannot deliver to 1 Sandbox Way'],
    ['another price for the full address', (request) => ({ json: { ...(shopPrices(request) as { json: object }).json, tax: 999 } }), 409, (sheet) => sheet.status, en.reviewOrder],
    ['the endpoint down', () => ({ status: 503, text: 'down' }), 503, (sheet) => sheet.status, en.reviewOrder],
  ];
  let again: ((session?: Record<string, unknown>) => Promise<ShopCheckout>) | undefined;
  for (const [kind, refusal, status, shownOn, message] of atAuthorization) {
    quoted.endpoint.answer = (request) => (request.stage === 'authorization' && request.shipping_address?.country === 'US' ? refusal(request) : shopPrices(request));
    const { checkout } = again ? await again() : await quoted.open().then((opened) => ((again = opened.again), opened));
    const sheet = sheetOf(await checkout.openWallet());
    await expect(sheet.total).toHaveText(/\$31\.04$/);
    expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus, kind).toBe(status);
    await expect(shownOn(sheet), kind).toHaveText(message);
    // The sheet stays open over a widget ready to pay again; nothing reached the payment service.
    await expect(page.getByTestId('sandbox-wallet')).toBeVisible();
    await checkout.expectState('ready');
    await nothingCharged(ledger, checkout);

    await sheet.shipTo('gb-office');
    await expect(sheet.total).toHaveText(/\$44\.00$/);
    expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus, kind).toBe(200);
    await checkout.expectState('paid');
    await chargedExactly(ledger, checkout, 4400);
    expect(await checkout.events('checkout:error'), kind).toEqual([]);
  }
});

/** Each quote the server really answered (before any rewriting by the page), in order: its id and its total. */
async function serverQuotes(page: Page, rewrite: (reply: { quote_id: string | null; update: { newTransactionInfo?: { totalPrice: string } } }, quotes: { id: string | null; total?: string }[]) => object = (reply) => reply) {
  const quotes: { id: string | null; total?: string }[] = [];
  await page.route('**/api/sessions/*/quote', async (route) => {
    const response = await route.fetch();
    const reply = (await response.json()) as Parameters<typeof rewrite>[0];
    quotes.push({ id: reply.quote_id, total: reply.update.newTransactionInfo?.totalPrice });
    await route.fulfill({ response, json: rewrite(reply, quotes) });
  });
  return quotes;
}

test("a page that rewrites the relay's reply never changes the charge: a lower total shown is not charged, an older quote's id is refused", async ({ page, quoted, ledger }) => {
  // The total the sheet shows rewritten to 1.00: the payment still names the server's quote, and is charged its total.
  const quotes = await serverQuotes(page, (reply) => ({ ...reply, update: { ...reply.update, newTransactionInfo: reply.update.newTransactionInfo && { ...reply.update.newTransactionInfo, totalPrice: '1.00' } } }));
  const first = await quoted.open();
  let sheet = sheetOf(await first.checkout.openWallet());
  await expect(sheet.total).toHaveText(/\$1\.00$/);
  expect((await first.checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(200);
  await chargedExactly(ledger, first.checkout, Math.round(Number(quotes.at(-1)?.total) * 100));
  expect(quotes.at(-1)?.total).toBe('31.04');

  // Every reply's quote_id rewritten to the first quote's (Ground, before Air was chosen): refused, nothing charged.
  await page.unrouteAll({ behavior: 'wait' });
  const seen = await serverQuotes(page, (reply, all) => ({ ...reply, quote_id: all[0]?.id ?? null }));
  const second = await first.again();
  sheet = sheetOf(await second.checkout.openWallet());
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await sheet.deliver('air');
  await expect(sheet.total).toHaveText(/\$41\.04$/);
  expect(seen).toHaveLength(2);
  expect((await second.checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(409);
  await expect(sheet.status).toHaveText(en.reviewOrder);
  await nothingCharged(ledger, second.checkout);
});

test("a page that rewrites what the relay is told (another country than the sheet's) gets a quote the payment does not match: refused, nothing charged", async ({ page, quoted, ledger }) => {
  // The sheet ships to London; the page tells the server San Francisco (Ground at 5.00 rather than International at 20.00).
  await page.route('**/api/sessions/*/quote', (route) => {
    const body = route.request().postDataJSON() as { intermediate_payment_data: { shippingAddress?: Record<string, string> } };
    const shippingAddress = { countryCode: 'US', administrativeArea: 'CA', locality: 'San Francisco', postalCode: '94105' };
    return route.continue({ postData: JSON.stringify({ intermediate_payment_data: { ...body.intermediate_payment_data, shippingAddress } }) });
  });
  const { checkout } = await quoted.open();
  const sheet = sheetOf(await checkout.openWallet());
  await sheet.shipTo('gb-office');
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(409);
  await expect(sheet.status).toHaveText(en.reviewOrder);
  await nothingCharged(ledger, checkout);
  expect(quoted.endpoint.received.map(({ request }) => request.stage)).not.toContain('authorization');
});

test('replies that arrive out of order: Pay waits for the newest change, the sheet shows its price, and the payment is charged it', async ({ page, quoted, ledger }) => {
  // London is priced slowly (within the server's timeout), San Francisco at once.
  quoted.endpoint.answer = (request) => (request.shipping_address?.country === 'GB' ? new Promise((resolve) => setTimeout(() => resolve(shopPrices(request)), TIMEOUT_MS / 2)) : shopPrices(request));
  const relayed: string[] = [];
  page.on('response', (response) => void (response.url().endsWith('/quote') && relayed.push(response.url())));
  const { checkout } = await quoted.open();
  const sheet = sheetOf(await checkout.openWallet());
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await sheet.shipTo('gb-office');
  await expect(sheet.pay).toBeDisabled();
  // Back to San Francisco before London's price came: its reply arrives first, London's after it.
  await sheet.shipTo('us-home');
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await expect(sheet.pay).toBeEnabled();
  // London's late reply (the third the widget got) changes nothing the shopper sees, nor what is charged.
  await expect.poll(() => relayed.length).toBe(3);
  expect(quoted.endpoint.received.map(({ request }) => request.shipping_address?.country)).toEqual(['US', 'GB', 'US']);
  await expect(sheet.total).toHaveText(/\$31\.04$/);
  await expect(sheet.pay).toBeEnabled();
  expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(200);
  await chargedExactly(ledger, checkout, 3104);
});
