/**
 * The merchant's dashboard in a real browser: a merchant's day (find a
 * payment, refund it, see why a webhook failed and redeliver it, roll the
 * key, the current key asked again), a hold captured and another released, a capture the
 * issuer refused and a refund that failed,
 * what the shopper gave in an express checkout, a payment's page (the refund form, one timeline line per fact),
 * the keyboard alone, the key never kept by the page, sign out everywhere,
 * every page axe-clean in light and dark, the languages, and visual baselines.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import type { CreatedSession, Session } from '../contracts';
import { TYPICAL_ADDRESS_ON_FILE } from '../sandbox/billing-addresses';
import { ORIGIN_VERIFICATION_PATH } from '../contracts/origin-verification-rules';
import { startTestServer, type TestServer } from '../testing/harness';
import { listen } from '../testing/listen';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import { signInToDashboard } from './support/dashboard';

let server: TestServer;
let receiver: WebhookReceiver;

test.use({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light', reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' });

test.beforeAll(async () => {
  // A short retry window: a delivery the receiver refuses is given up (failed) within seconds, as it would be after days.
  // Loopback origins' verification files are fetched, as production fetches every origin's (the platform-mode test).
  // "Verify now" fetches each time it is pressed (not at most once in 10 s).
  server = await startTestServer({ ...FAST_WEBHOOKS, WEBHOOK_RETRY_WINDOW_MS: '1500', ORIGIN_VERIFICATION_LOOPBACK: 'fetch' }, { originVerification: { verifyNowSpacingMs: 0 } });
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

/** A new app of its own (so each test sees its payments only), and its key. */
async function merchant(name = 'Coffee Roasters'): Promise<string> {
  return (await server.merchant({ name, merchant_id: `m_${Math.random().toString(36).slice(2, 10)}` })).secretKey;
}

async function paid(secretKey: string, body: Record<string, unknown> = {}, billingAddressId?: string, card = 'visa-success-pan'): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, body);
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card, billingAddressId) });
  expect(reply.status).toBe(200);
  return session;
}

const signIn = (page: Page, secretKey: string) => signInToDashboard(page, server.url, secretKey);

test('the sign-in page opens without a console error or a failed request: the session probe, the favicon', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => void errors.push(error.message));
  const failed: string[] = [];
  page.on('response', (reply) => void (reply.status() >= 400 && failed.push(`${reply.status()} ${reply.url()}`)));
  await page.goto(`${server.url}/dashboard`);
  await expect(page.getByLabel('Secret key')).toBeVisible();
  // The browser asks for the favicon by itself, after the page: its answer is awaited too.
  expect((await page.request.get(`${server.url}/favicon.ico`)).status()).toBe(200);
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
  expect(failed).toEqual([]);
});

test("shows the wallet's billing address beside the one on file, and where they differ", async ({ page }) => {
  const secretKey = await merchant();
  const session = await paid(secretKey, { reference: 'order-2001', billing_address_on_file: TYPICAL_ADDRESS_ON_FILE }, 'mismatching');
  await signIn(page, secretKey);
  await page.goto(`${server.url}/dashboard#/payments/${session.id}`);
  const billing = page.getByTestId('billing-address');
  await expect(billing.getByRole('heading', { name: 'Billing address' })).toBeVisible();
  await expect(billing.getByTestId('billing-verdict')).toHaveText('Differs from the address on file');
  await expect(billing.getByTestId('billing-postal_code')).toHaveText('Mismatch');
  await expect(billing.getByTestId('billing-line1')).toHaveText('Mismatch');
  await expect(billing.getByTestId('billing-country')).toHaveText('Match');
  await expect(billing.getByTestId('billing-from-wallet')).toContainText('500 Elsewhere Avenue');
  await expect(billing.getByTestId('billing-on-file')).toContainText(TYPICAL_ADDRESS_ON_FILE.address.line1!);
});

test("shows the card issuer's address verification beside the check against the address on file, and says what that check is worth", async ({ page }) => {
  const secretKey = await merchant();
  const session = await server.createSession(secretKey, { reference: 'order-2002', billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });
  // The wallet's address is the one on file; the card's issuer has another first line on record.
  expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-avs-line1-mismatch-pan') })).status).toBe(200);
  await signIn(page, secretKey);
  await page.goto(`${server.url}/dashboard#/payments/${session.id}`);
  const billing = page.getByTestId('billing-address');
  await expect(billing.getByTestId('billing-verdict')).toHaveText('Matches the address on file');
  await expect(billing.getByText('Compared with the address on file')).toBeVisible();
  await expect(billing.getByTestId('issuer-line1')).toHaveText('Mismatch');
  await expect(billing.getByTestId('issuer-postal_code')).toHaveText('Match');
  await expect(billing.getByTestId('billing-note')).toContainText("through the shopper's browser, which can change it");
  await expect(billing.getByTestId('billing-note')).toContainText('not proof');
});

const apiStatus = async (secretKey: string) => (await fetch(`${server.url}/api/sessions?limit=1`, { headers: { authorization: `Bearer ${secretKey}` } })).status;

test('shows what the shopper gave in an express checkout: line items, shipping address and e-mail', async ({ page }) => {
  const secretKey = await merchant();
  const lineItems = [
    { label: 'Coffee beans', kind: 'item', amount: 1800 },
    { label: 'Standard shipping', kind: 'shipping', amount: 600 },
  ];
  const session = await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US', line_items: lineItems, shipping: { countries: ['US'] }, contact: { email: true } });
  const paymentData = await server.walletPaymentData(session, 'visa-success-pan', undefined, 'us-home');
  expect((await server.pay(session, { payment_data: paymentData })).status).toBe(200);
  await signIn(page, secretKey);
  await page.goto(`${server.url}/dashboard#/payments/${session.id}`);
  const details = page.getByTestId('express-details');
  await expect(details.getByRole('heading', { name: 'What the shopper gave' })).toBeVisible();
  const rows = details.getByTestId('line-items').locator('tbody tr');
  await expect(rows).toHaveText([/Coffee beans\s*\$18\.00/, /Standard shipping\s*\$6\.00/]);
  await expect(details.getByTestId('shipping-address')).toContainText('1 Sandbox Way');
  await expect(details.getByTestId('email')).toHaveText('shopper@sandbox.example');
  // No delivery option: nothing was added to the amount, so neither is shown.
  await expect(details.getByTestId('shipping-option')).toHaveCount(0);
  await expect(details.getByTestId('amount-charged')).toHaveCount(0);
  expect((await new AxeBuilder({ page }).include('[data-testid="express-details"]').analyze()).violations).toEqual([]);
});

test("a merchant's day: find a payment, refund part of it, see why a webhook failed and redeliver it, roll the key", async ({ page }) => {
  const secretKey = await merchant();
  receiver.answer = 500;
  const endpoint = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url, events: ['refund.succeeded'] });
  receiver.secrets = [((await endpoint.json()) as { secret: string }).secret];
  await paid(secretKey, { reference: 'order-1001', amount: 4200 });
  await paid(secretKey, { reference: 'order-1002', amount: 1000 });

  await signIn(page, secretKey);
  // Signed in, the merchant lands on the overview; the list is the next link.
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  // Find it: by its reference, in the one search box.
  await page.getByLabel('Search').fill('order-1001');
  await page.getByRole('button', { name: 'Apply' }).click();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('$42.00');
  await expect(rows.first()).toContainText('Visa •••• 1111');
  await rows.first().getByRole('link').click();

  // Refund part of it: the confirmation states the amount in the session's currency.
  await expect(page.getByTestId('card')).toHaveText('Visa •••• 1111');
  await page.getByLabel('Amount to refund').fill('12.50');
  await page.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Refund $12.50 to the shopper?');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('refunded')).toHaveText('$12.50');
  await expect(page.locator('.timeline')).toContainText('Refund of $12.50: Succeeded');

  // The webhook: the receiver answered 500 until the retry window closed.
  await expect.poll(async () => (await server.store.selectFrom('webhook_deliveries').select('status').execute()).map((row) => row.status).includes('failed'), { timeout: 10_000 }).toBe(true);
  await page.getByRole('link', { name: 'Developers' }).click();
  const delivery = page.locator('tr[data-delivery-status]').first();
  await expect(delivery).toContainText('Failed');
  await expect(delivery.getByTestId('delivery-result')).toContainText('HTTP 500');
  receiver.answer = 200;
  await delivery.getByRole('button', { name: /Redeliver/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent again.' })).toBeVisible();
  await receiver.waitFor((events) => events.some((event) => event.type === 'refund.succeeded'));
  await expect.poll(async () => (await page.reload(), await page.locator('tr[data-delivery-status]').first().getAttribute('data-delivery-status'))).toBe('delivered');

  // Roll the key: the form asks for the current key again, and a wrong one rolls nothing. The field is emptied once sent.
  const currentKey = page.getByLabel('Current secret key');
  await currentKey.fill('sk_test_not-this-one');
  await page.getByLabel('The current key keeps working for').selectOption({ label: 'one hour' });
  await page.getByRole('button', { name: 'Roll key' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This key was refused' })).toBeVisible();
  await expect(currentKey).toHaveValue('');
  await expect(page.getByTestId('secret')).toHaveCount(0);
  // With the key, an hour's overlap: both work meanwhile.
  await currentKey.fill(secretKey);
  await page.getByRole('button', { name: 'Roll key' }).click();
  const newKey = (await page.getByTestId('secret').textContent()) ?? '';
  expect(newKey).toMatch(/^sk_/);
  await expect(currentKey).toHaveValue('');
  await expect(page.getByRole('alert').filter({ hasText: 'This key was refused' })).toHaveCount(0);
  expect(await apiStatus(newKey)).toBe(200);
  expect(await apiStatus(secretKey)).toBe(200);

  // Then with no overlap (a leak): every earlier key stops at once; this session moved to the newest key and goes on.
  await currentKey.fill(newKey);
  await page.getByLabel('The current key keeps working for').selectOption({ label: 'no time (stop it now)' });
  await page.getByRole('button', { name: 'Roll key' }).click();
  await expect(page.getByTestId('secret')).not.toHaveText(newKey);
  const newestKey = (await page.getByTestId('secret').textContent()) ?? '';
  expect(await apiStatus(secretKey)).toBe(401);
  expect(await apiStatus(newKey)).toBe(401);
  expect(await apiStatus(newestKey)).toBe(200);
  await page.getByRole('link', { name: 'Payments' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(2);
});

test("a payment's page: the refund field starts empty with what is left to refund, a part refunded with a reason is one timeline line to the second, with its webhook under it; the description, reference and e-mail are shown", async ({ page }) => {
  const secretKey = await merchant();
  receiver.answer = 200;
  const endpoint = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url, events: ['refund.succeeded'] });
  receiver.secrets = [((await endpoint.json()) as { secret: string }).secret];
  const session = await paid(secretKey, { amount: 4200, description: 'Pour-over coffee kit', reference: 'order-3001', contact: { email: true } });
  await signIn(page, secretKey);
  await page.goto(`${server.url}/dashboard#/payments/${session.id}`);

  await expect(page.getByTestId('description')).toHaveText('Pour-over coffee kit');
  await expect(page.getByTestId('reference')).toHaveText('order-3001');
  await expect(page.getByTestId('email')).toHaveText('shopper@sandbox.example');

  const amount = page.getByLabel('Amount to refund');
  await expect(amount).toHaveValue('');
  await expect(amount).toHaveAttribute('placeholder', '$42.00');
  await expect(amount).toHaveAccessibleDescription('Left to refund: $42.00. Leave the field empty to refund all of it.');
  await amount.fill('12.50');
  await page.getByLabel('Reason').selectOption({ label: 'Requested by the customer' });
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('dialog')).toContainText('Refund $12.50 to the shopper?');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('refunded')).toHaveText('$12.50');
  await expect(amount).toHaveValue('');
  await expect(amount).toHaveAttribute('placeholder', '$29.50');
  await expect(page.getByLabel('Reason')).toHaveValue('');
  const merchantView = (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
  expect(merchantView.refunds).toEqual([expect.objectContaining({ amount: 1250, reason: 'requested_by_customer' })]);

  // One line for the refund and the refund.succeeded event that reports it, its time to the second; the delivery under it.
  const lines = page.locator('.timeline > li');
  const refundLine = lines.filter({ hasText: 'Refund of' });
  await expect(refundLine).toHaveCount(1);
  await expect(refundLine).toContainText('Refund of $12.50 (Requested by the customer): Succeeded');
  await expect(refundLine.locator('> time')).toHaveText(/\d:\d\d:\d\d/);
  await expect(lines.filter({ hasText: 'Refund succeeded' })).toHaveCount(0);
  await expect(lines.filter({ hasText: 'Payment succeeded' })).toHaveCount(0);
  await expect(lines).toHaveText([/Checkout created/, /Attempt 1: Succeeded/, /Refund of \$12\.50/]);
  await expect
    .poll(async () => (await page.reload(), await refundLine.locator('.deliveries li').allTextContents()), { timeout: 10_000 })
    .toEqual([expect.stringMatching(/\d:\d\d:\d\d.*Webhook refund\.succeeded to .*: Delivered \(HTTP 200\)/)]);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id)).toEqual([]);
});

test("the developers' settings: the Save button stands clear of the 3-D Secure select, not touching it", async ({ page }) => {
  await signIn(page, await merchant());
  await page.getByRole('link', { name: 'Developers' }).click();
  const select = await page.getByLabel('3-D Secure').boundingBox();
  const save = await page.getByRole('button', { name: 'Save', exact: true }).boundingBox();
  expect(select && save).toBeTruthy();
  // Apart on one axis at least, by a visible gap (4 px): side by side or one under the other.
  const gapAcross = Math.max(save!.x - (select!.x + select!.width), select!.x - (save!.x + save!.width));
  const gapDown = Math.max(save!.y - (select!.y + select!.height), select!.y - (save!.y + save!.height));
  expect(Math.max(gapAcross, gapDown)).toBeGreaterThanOrEqual(4);
});

test('sign out everywhere ends the session in another browser too', async ({ page, browser }) => {
  const secretKey = await merchant();
  const elsewhere = await browser.newContext({ locale: 'en-US' });
  try {
    const otherPage = await elsewhere.newPage();
    await signIn(otherPage, secretKey);
    await signIn(page, secretKey);
    await page.getByRole('link', { name: 'Developers' }).click();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await page.context().cookies()).toEqual([]);
    // The other browser's next request finds its session ended.
    await otherPage.getByRole('link', { name: 'Developers' }).click();
    await expect(otherPage.getByText('Your session has ended. Sign in again.')).toBeVisible();
    await expect(otherPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  } finally {
    await elsewhere.close();
  }
});

test('captures part of a hold and releases another, each after a confirmation in the currency of the session', async ({ page }) => {
  const secretKey = await merchant();
  const hold = await paid(secretKey, { intent: 'hold', amount: 5000, currency: 'EUR', reference: 'hold-capture' });
  const other = await paid(secretKey, { intent: 'hold', amount: 3000, currency: 'JPY', reference: 'hold-release' });
  await signIn(page, secretKey);

  await page.goto(`${server.url}/dashboard#/payments/${hold.id}`);
  await page.getByLabel('Amount to capture').fill('30');
  await page.getByRole('button', { name: 'Capture' }).click();
  await expect(page.getByRole('dialog')).toContainText('Capture €30.00?');
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Captured');

  await page.goto(`${server.url}/dashboard#/payments/${other.id}`);
  // JPY has no minor unit (ISO 4217): 3000 is ¥3,000.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('¥3,000');
  await page.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByRole('dialog')).toContainText('Release the hold of ¥3,000?');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'Release' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Released');
});

test("shows a capture the card's issuer refused, the hold still to release, and a refund that failed with its code", async ({ page }) => {
  const secretKey = await merchant();
  const hold = await paid(secretKey, { intent: 'hold', amount: 5000, reference: 'hold-refused' }, undefined, 'visa-capture-declined-pan');
  const payment = await paid(secretKey, { amount: 2000, reference: 'refund-fails' }, undefined, 'visa-refund-fails-pan');
  await signIn(page, secretKey);

  await page.goto(`${server.url}/dashboard#/payments/${hold.id}`);
  await page.getByRole('button', { name: 'Capture' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toContainText('The card issuer refused the capture (card_declined)');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Authorized');
  await expect(page.getByRole('button', { name: 'Release' })).toBeVisible();

  await page.goto(`${server.url}/dashboard#/payments/${payment.id}`);
  await page.getByRole('button', { name: 'Refund' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.locator('.timeline')).toContainText('Refund of $20.00: Failed (The payment service could not refund the payment (expired_or_canceled_card))');
  await expect(page.getByTestId('refunded')).toHaveText('$0.00');
});

test('pages through the payments with the cursor, and filters by status and date', async ({ page }) => {
  const secretKey = await merchant();
  for (let i = 0; i < 22; i++) await server.createSession(secretKey, { reference: `bulk-${i}` });
  await paid(secretKey, { reference: 'the-paid-one' });
  await signIn(page, secretKey);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  // The sessions nobody tried to pay are abandoned checkouts: left out until asked for.
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('Show abandoned checkouts (no payment tried)').check();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(20);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(3);
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(20);
  await page.getByLabel('Status').selectOption('succeeded');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel('To', { exact: true }).fill('2020-01-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No payment matches.')).toBeVisible();
});

test('works with the keyboard alone: sign in, open a payment, refund it', async ({ page }) => {
  const secretKey = await merchant();
  const session = await paid(secretKey, { reference: 'keyboard', amount: 900 });
  await page.goto(`${server.url}/dashboard`);
  /** Tabs forward until `target` has the focus, as a keyboard user would. */
  const tabTo = async (target: ReturnType<Page['locator']>) => {
    for (let i = 0; i < 40; i++) {
      if (await target.evaluate((element) => element === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error('never reached by Tab');
  };
  await tabTo(page.getByLabel('Secret key'));
  await page.keyboard.type(secretKey);
  await page.keyboard.press('Enter');
  await tabTo(page.getByRole('link', { name: 'Payments', exact: true }));
  await page.keyboard.press('Enter');
  const link = page.locator(`tr[data-payment="${session.id}"] a`);
  await tabTo(link);
  await page.keyboard.press('Enter');
  await tabTo(page.getByRole('button', { name: 'Refund' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toContainText('Refund $9.00 to the shopper?');
  // The dialog takes the focus, on Confirm.
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Confirm' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refunded')).toHaveText('$9.00');
});

test('the key stays nowhere in the browser; signing out ends the session', async ({ page, context }) => {
  const secretKey = await merchant();
  await signIn(page, secretKey);
  const kept = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href, html: document.documentElement.outerHTML }));
  expect(kept).not.toContain(secretKey);
  const [cookie] = await context.cookies();
  expect(cookie).toMatchObject({ name: 'wc_dashboard', httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
  expect(cookie?.value).not.toContain(secretKey);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await context.cookies()).toEqual([]);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('speaks the widget\'s languages: French amounts and words, Arabic right to left', async ({ browser }) => {
  const secretKey = await merchant();
  const session = await paid(secretKey, { amount: 2400, currency: 'EUR' });
  for (const [locale, refund, dir] of [
    ['fr-FR', 'Rembourser', 'ltr'],
    ['ar', 'استرداد', 'rtl'],
  ] as const) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.locator('#secret-key').fill(secretKey);
    await page.locator('button[type=submit]').click();
    await page.goto(`${server.url}/dashboard#/payments/${session.id}`);
    await expect(page.getByRole('button', { name: refund, exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(dir);
    if (locale === 'fr-FR') await expect(page.getByRole('heading', { level: 1 })).toContainText('24,00\u00a0€');
    await context.close();
  }
});

test('every page is axe-clean and looks as its baseline, in light and dark', async ({ page }) => {
  // Five pages, two themes, an axe run and a screenshot each: longer than a test's default 30 s on a busy machine.
  test.setTimeout(120_000);
  const secretKey = await merchant('Baseline Bakery');
  const session = await paid(secretKey, { reference: 'baseline', amount: 1999 });
  await server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, { amount: 500 });
  const axe = async () => {
    const result = await new AxeBuilder({ page }).analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  };
  // What changes from run to run (dates, ids, keys) is masked.
  const volatile = () => [page.locator('time'), page.locator('dd code'), page.getByTestId('created'), page.locator('tbody td:first-child')];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.context().clearCookies();
    await page.goto(`${server.url}/dashboard`);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await axe();
    await expect(page).toHaveScreenshot(`dashboard-sign-in-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01 });
    await page.getByLabel('Secret key').fill(secretKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('[data-figure=gross_volume]')).toHaveText('$19.99');
    await axe();
    await expect(page).toHaveScreenshot(`dashboard-overview-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01, mask: [page.locator('.hint')] });
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await axe();
    await expect(page).toHaveScreenshot(`dashboard-payments-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01, mask: volatile() });
    await page.locator('tbody a').click();
    await expect(page.getByTestId('refunded')).toHaveText('$5.00');
    await axe();
    await expect(page).toHaveScreenshot(`dashboard-payment-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01, mask: volatile() });
    await page.getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByRole('dialog')).toContainText('Refund $14.99 to the shopper?');
    await axe();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Developers' }).click();
    await expect(page.getByRole('heading', { name: 'Checkout configuration' })).toBeVisible();
    await axe();
    await expect(page).toHaveScreenshot(`dashboard-developers-${theme}.png`, { animations: 'disabled', maxDiffPixelRatio: 0.01, mask: volatile() });
  }
});

test("platform mode: each origin's verification, the file to publish and its token, and Verify now", async ({ page }) => {
  let file = '';
  const site = await listen((req, res) => (req.url === ORIGIN_VERIFICATION_PATH && file ? res.writeHead(200).end(file) : res.writeHead(404).end()));
  try {
    const { secretKey } = await server.merchant({ name: 'Platform Shop', merchant_id: 'm_platform_dashboard', allowed_origins: [site.origin], google_pay_mode: 'platform' });
    await signIn(page, secretKey);
    await page.getByRole('link', { name: 'Developers' }).click();
    const origin = page.getByRole('article', { name: site.origin });
    await expect(origin).toContainText('Not verified yet');
    await expect(origin.getByTestId('origin-file')).toHaveText(`${site.origin}${ORIGIN_VERIFICATION_PATH}`);
    const token = (await origin.getByTestId('origin-token').textContent()) ?? '';
    expect(token).toMatch(/^wcv_[\w-]{32}$/);
    const result = await new AxeBuilder({ page }).include('section[aria-labelledby=origins-heading]').analyze();
    expect(result.violations.map((v) => v.id)).toEqual([]);

    await origin.getByRole('button', { name: `Verify now: ${site.origin}` }).click();
    await expect(origin.getByTestId('origin-failure')).toHaveText('the origin answered HTTP 404 (1 failed checks in a row; a verified origin lapses after 3)');
    file = `${token}\n`;
    await origin.getByRole('button', { name: `Verify now: ${site.origin}` }).click();
    await expect(origin).toContainText('Verified');
    await expect(origin.getByTestId('origin-failure')).toHaveCount(0);
    await expect(page.locator('[data-origin-status=verified]')).toHaveCount(1);
  } finally {
    await site.close();
  }
});

test('an app in merchant mode has no origin verification to show', async ({ page }) => {
  await signIn(page, await merchant('Merchant Mode Shop'));
  await page.getByRole('link', { name: 'Developers' }).click();
  await expect(page.getByRole('heading', { name: 'Checkout configuration' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Origin verification' })).toHaveCount(0);
});
