/**
 * The dashboard's API over real HTTP, as its page calls it: the sign-in and its
 * session's rules (cookie, CSRF, Origin, idle and absolute expiry, sign-out,
 * rate limit), then the payments and developers' actions it runs through the
 * merchant API's own functions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, type DashboardPaymentList, type DashboardPaymentMethodList, type DashboardPaymentPage, type DashboardSignedIn, type DashboardEndpoint, type QuoteReply, type Refund } from '../../contracts';
import { walletShippingAddresses } from '../../sandbox/shipping-addresses';
import { hashSecret } from '../../common/secrets';
import { startTestServer, type TestServer } from '../../testing/harness';
import { TYPICAL_ADDRESS_ON_FILE } from '../../sandbox/billing-addresses';
import { CSRF_HEADER, DASHBOARD_IDLE_MS, DASHBOARD_MAX_AGE_MS } from './session';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'dashboard' }));
});
afterAll(() => server.close());

/** What a browser on the dashboard page sends: our Origin, the cookie, and on a change the CSRF token. */
interface Browser {
  cookie: string;
  csrf: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

const signInRequest = (key: string, origin = server.url) =>
  fetch(`${server.url}/dashboard/api/session`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: key }) });

const tokenOf = (setCookie: string | null) => /wc_dashboard=([^;]*)/.exec(setCookie ?? '')?.[1] ?? '';

async function signIn(key = secretKey): Promise<Browser> {
  const reply = await signInRequest(key);
  expect(reply.status).toBe(201);
  const cookie = `wc_dashboard=${tokenOf(reply.headers.get('set-cookie'))}`;
  const { csrf_token: csrf } = (await reply.json()) as DashboardSignedIn;
  return {
    cookie,
    csrf,
    call: (method, path, body, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { cookie, origin: server.url, [CSRF_HEADER]: csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

describe('the dashboard page', () => {
  it('runs scripts from our origin only (it takes no payment: no Google Pay), and asks search engines not to index it', async () => {
    const page = await fetch(`${server.url}/dashboard`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(/(?:^|;)script-src ([^;]*)/.exec(csp)?.[1]).toBe("'self'");
    expect(csp).not.toContain('pay.google.com');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(page.headers.get('x-robots-tag')).toMatch(/\bnoindex\b/);
    expect(await page.text()).toMatch(/<meta name="robots" content="noindex\b/);
    expect((await fetch(`${server.url}/dashboard/api/payments`)).headers.get('x-robots-tag')).toMatch(/\bnoindex\b/);
  });

  it("answers the page's first question, whether this browser is signed in, 200 either way", async () => {
    const signedOut = await fetch(`${server.url}/dashboard/api/session`);
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get('cache-control')).toBe('no-store');
    expect(await signedOut.json()).toEqual({ signed_in: false });
    const madeUp = await fetch(`${server.url}/dashboard/api/session`, { headers: { cookie: 'wc_dashboard=made-up' } });
    expect(await madeUp.json()).toEqual({ signed_in: false });
    const browser = await signIn();
    const signedIn = await browser.call('GET', '/dashboard/api/session');
    expect(await signedIn.json()).toEqual({ signed_in: true, app: { id: expect.any(String), name: 'Test Shop' }, csrf_token: browser.csrf });
  });
});

describe('signing in to the dashboard', () => {
  it('exchanges a live secret key for an httpOnly, SameSite=Strict cookie session; the key is in no reply and the store keeps the token hashed', async () => {
    const reply = await signInRequest(secretKey);
    expect(reply.status).toBe(201);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const setCookie = reply.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^wc_dashboard=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/dashboard');
    expect(setCookie).not.toContain('Secure');
    const body = await reply.text();
    expect(body).not.toContain(secretKey);
    expect(JSON.parse(body)).toMatchObject({ app: { name: 'Test Shop' }, idle_timeout_ms: DASHBOARD_IDLE_MS });
    const token = tokenOf(setCookie);
    const rows = await server.store.selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).toContain(hashSecret(token));
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
  });

  it('refuses a key that is not live, and sets no cookie', async () => {
    const reply = await signInRequest('sk_test_not-a-key');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('set-cookie')).toBeNull();
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it('refuses a sign-in posted from another origin (login CSRF)', async () => {
    const reply = await signInRequest(secretKey, 'https://evil.example');
    expect(reply.status).toBe(403);
    expect(reply.headers.get('set-cookie')).toBeNull();
  });

  it('marks the cookie Secure when the server is public over https (production)', async () => {
    const https = await startTestServer({ PUBLIC_URL: 'https://checkout.example' });
    try {
      const { secretKey: key } = await https.merchant();
      const reply = await fetch(`${https.url}/dashboard/api/session`, { method: 'POST', headers: { origin: 'https://checkout.example', 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: key }) });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await https.close();
    }
  });

  it('counts sign-ins in the secret-key routes\' budget: a guesser is rate limited', async () => {
    const limited = await startTestServer({ RATE_LIMIT_MERCHANT_PER_MINUTE: '3' });
    try {
      const tries = [];
      for (let i = 0; i < 4; i++) {
        tries.push((await fetch(`${limited.url}/dashboard/api/session`, { method: 'POST', headers: { origin: limited.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: `sk_test_guess${i}` }) })).status);
      }
      expect(tries).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('a dashboard session', () => {
  it('reads without a CSRF token, but refuses a change without it, with a wrong one, or from another origin', async () => {
    const browser = await signIn();
    expect((await browser.call('GET', '/dashboard/api/session', undefined, { [CSRF_HEADER]: '' })).status).toBe(200);
    const change = (headers: Record<string, string>) => browser.call('PUT', '/dashboard/api/settings', { allowed_origins: ['https://shop.example'], three_ds: 'if_required' }, headers);
    expect((await change({ [CSRF_HEADER]: '' })).status).toBe(403);
    expect((await change({ [CSRF_HEADER]: `${browser.csrf.slice(1)}x` })).status).toBe(403);
    expect((await change({ origin: 'https://evil.example' })).status).toBe(403);
    const other = await signIn();
    expect((await change({ [CSRF_HEADER]: other.csrf })).status).toBe(403);
    expect((await change({})).status).toBe(200);
  });

  it('answers 401 without a cookie, or with a made-up one', async () => {
    expect((await fetch(`${server.url}/dashboard/api/payments`)).status).toBe(401);
    expect((await fetch(`${server.url}/dashboard/api/payments`, { headers: { cookie: 'wc_dashboard=made-up' } })).status).toBe(401);
  });

  it('ends at sign-out: the cookie is cleared and the token no longer opens anything', async () => {
    const browser = await signIn();
    const out = await browser.call('DELETE', '/dashboard/api/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^wc_dashboard=;.*Max-Age=0/);
    expect((await browser.call('GET', '/dashboard/api/payments')).status).toBe(401);
  });

  it('ends after the idle period without a request, and after the absolute lifetime whatever its use', async () => {
    const idle = await signIn();
    const used = await signIn();
    const rows = () => server.store.updateTable('dashboard_sessions');
    await rows().set({ last_seen: Date.now() - DASHBOARD_IDLE_MS - 1000 }).where('token_hash', '=', hashSecret(idle.cookie.split('=')[1]!)).execute();
    await rows().set({ created: Date.now() - DASHBOARD_MAX_AGE_MS - 1000 }).where('token_hash', '=', hashSecret(used.cookie.split('=')[1]!)).execute();
    expect((await idle.call('GET', '/dashboard/api/payments')).status).toBe(401);
    expect((await used.call('GET', '/dashboard/api/payments')).status).toBe(401);
  });

  it('serves its page with no-store and a script of our origin only', async () => {
    const page = await fetch(`${server.url}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toMatch(/<script src="\/dashboard(\.[0-9a-f]{12})?\.js">/);
  });
});

describe('payments in the dashboard', () => {
  async function paid(body: Record<string, unknown> = {}): Promise<CreatedSession> {
    const session = await server.createSession(secretKey, body);
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    expect(reply.status).toBe(200);
    return session;
  }

  it('lists with the API\'s filters and paging, and shows a payment\'s card as network and last four only', async () => {
    const browser = await signIn();
    const session = await paid({ reference: 'order-dash-1' });
    const list = (await (await browser.call('GET', '/dashboard/api/payments?reference=order-dash-1')).json()) as DashboardPaymentList;
    expect(list.data.map((payment) => payment.id)).toEqual([session.id]);
    expect(list.data[0]?.outcome?.card).toEqual({ network: 'VISA', last4: expect.stringMatching(/^\d{4}$/) });
    const page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(page.payment.outcome?.card).toEqual(list.data[0]?.outcome?.card);
    expect(JSON.stringify(page)).not.toMatch(/exp_month|exp_year/);
    expect(page.payment.currency_exponent).toBe(2);
    // The session.succeeded event is the attempt's line, which it reports: no line of its own.
    expect(page.timeline.map((entry) => entry.kind)).toEqual(['created', 'attempt']);
    expect(page.timeline[1]).toMatchObject({ kind: 'attempt', status: 'succeeded' });
    expect((await browser.call('GET', '/dashboard/api/payments?status=bogus')).status).toBe(400);
  });

  it("shows the card issuer's address verification beside the billing address check, on the payment and in the list", async () => {
    const browser = await signIn();
    const session = await server.createSession(secretKey, { reference: 'order-dash-avs', billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });
    expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-avs-line1-mismatch-3ds') })).status).toBe(200);
    const page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(page.payment).toMatchObject({ billing_address_check: { verdict: 'match' }, address_verification: { line1: 'mismatch', postal_code: 'match' } });
    const list = (await (await browser.call('GET', '/dashboard/api/payments?reference=order-dash-avs')).json()) as DashboardPaymentList;
    expect(list.data[0]?.address_verification).toEqual({ line1: 'mismatch', postal_code: 'match' });
  });

  it('shows what the shopper gave in an express checkout: line items, delivery option, amount charged, shipping address and e-mail; never to the client secret', async () => {
    const lineItems = [
      { label: 'Coffee beans', kind: 'item', amount: 2000 },
      { label: 'Sales tax', kind: 'tax', amount: 400 },
    ];
    const options = [{ id: 'standard', label: 'Standard', amount: 500 }, { id: 'express', label: 'Express', amount: 1500 }];
    const session = await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US', line_items: lineItems, shipping: { countries: ['US'], options }, contact: { email: true } });
    // The sheet's change of option, relayed by the widget, is what the server prices and the payment charges.
    const quote = await fetch(`${server.url}/api/sessions/${session.id}/quote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ intermediate_payment_data: { callbackTrigger: 'SHIPPING_OPTION', shippingAddress: { countryCode: 'US', postalCode: '94105' }, shippingOptionData: { id: 'express' } } }),
    });
    expect(quote.status).toBe(200);
    const { quote_id } = (await quote.json()) as QuoteReply;
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, 'us-home', 'express');
    expect((await server.pay(session, { payment_data: paymentData, quote_id })).status).toBe(200);
    const browser = await signIn();
    const page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    const home = walletShippingAddresses.find((choice) => choice.id === 'us-home')!.address;
    expect(page.payment).toMatchObject({
      line_items: lineItems,
      shipping_option: { id: 'express', label: 'Express', amount: 1500 },
      amount_charged: 2400 + 1500,
      shipping_address: { name: home.name, address: { line1: home.address1, city: home.locality, postal_code: home.postalCode, country: 'US' } },
      email: 'shopper@sandbox.example',
    });
    const asClient = await fetch(`${server.url}/dashboard/api/payments/${session.id}`, { headers: { authorization: `Bearer ${session.client_secret}` } });
    expect(asClient.status).toBe(401);
    expect(await asClient.text()).not.toContain(home.address1!);
  });

  it('refunds part of a payment through the checkout\'s refund, once per Idempotency-Key, and shows it on the timeline', async () => {
    const browser = await signIn();
    const session = await paid();
    const refund = () => browser.call('POST', `/dashboard/api/payments/${session.id}/refunds`, { amount: 1000 }, { 'idempotency-key': `dash-${session.id}` });
    const first = await refund();
    expect(first.status).toBe(201);
    const again = await refund();
    expect(((await again.json()) as Refund).id).toBe(((await first.json()) as Refund).id);
    const page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(page.payment.amount_refunded).toBe(1000);
    // One line for the refund: its refund.succeeded event is that line, not another.
    expect(page.timeline.filter((entry) => entry.kind === 'refund')).toEqual([expect.objectContaining({ amount: 1000, status: 'succeeded', reason: null })]);
    expect(page.timeline.some((entry) => entry.kind === 'event' && entry.type === 'refund.succeeded')).toBe(false);
  });

  it("takes the API's refund reasons, and refuses any other at its edge with a 400, refunding nothing", async () => {
    const browser = await signIn();
    const session = await paid();
    const refund = (body: unknown, key: string) => browser.call('POST', `/dashboard/api/payments/${session.id}/refunds`, body, { 'idempotency-key': key });
    const refused = await refund({ amount: 500, reason: 'changed_my_mind' }, `dash-reason-bad-${session.id}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('reason') } });
    expect((await refund({ amount: 500, reason: 'fraudulent', extra: 1 }, `dash-reason-extra-${session.id}`)).status).toBe(400);
    let page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(page.payment.amount_refunded).toBe(0);

    const taken = await refund({ amount: 500, reason: 'requested_by_customer' }, `dash-reason-ok-${session.id}`);
    expect(taken.status).toBe(201);
    expect(await taken.json()).toMatchObject({ amount: 500, reason: 'requested_by_customer', status: 'succeeded' });
    page = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(page.timeline.filter((entry) => entry.kind === 'refund')).toEqual([expect.objectContaining({ amount: 500, reason: 'requested_by_customer' })]);
  });

  it("shows the card a payment saved, its agreement and status, and detaches it only with the CSRF token; a charge of it then is refused", async () => {
    const browser = await signIn();
    const session = await server.createSession(secretKey, { save_payment_method: { customer: 'cust_dash', usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 2500 } } });
    const agreement = session.public_view!.save_payment_method!.agreement;
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds'), agreement: { id: agreement.id } });
    expect(reply.status).toBe(200);
    const { payment } = (await (await browser.call('GET', `/dashboard/api/payments/${session.id}`)).json()) as DashboardPaymentPage;
    expect(payment.agreement).toMatchObject({ id: agreement.id, text: agreement.text });
    const pm = payment.payment_method!;
    expect(pm).toMatch(/^pm_/);
    const read = await browser.call('GET', `/dashboard/api/payment_methods/${pm}`);
    expect(await read.json()).toMatchObject({ id: pm, customer: 'cust_dash', status: 'active', agreement: { text: agreement.text } });

    const detach = (headers: Record<string, string> = {}) => browser.call('POST', `/dashboard/api/payment_methods/${pm}/detach`, {}, headers);
    expect((await detach({ [CSRF_HEADER]: 'forged' })).status).toBe(403);
    const detached = await detach({ 'idempotency-key': `dash-detach-${pm}` });
    expect(detached.status).toBe(200);
    expect(await detached.json()).toMatchObject({ id: pm, status: 'detached' });

    const charge = await fetch(`${server.url}/api/payment_methods/${pm}/charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': `dash-charge-${pm}` },
      body: JSON.stringify({ amount: 2500, currency: 'USD', reason: 'subscription', customer: 'cust_dash' }),
    });
    expect(charge.status).toBe(409);
    expect(await charge.json()).toMatchObject({ error: { code: 'payment_method_detached' } });
  });

  it("does not show or detach another application's payment method", async () => {
    const browser = await signIn();
    expect((await browser.call('GET', '/dashboard/api/payment_methods/pm_AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await browser.call('POST', '/dashboard/api/payment_methods/pm_AAAAAAAAAAAAAAAAAAAAAA/detach', {})).status).toBe(404);
    expect((await browser.call('GET', '/dashboard/api/payment_methods/not-an-id')).status).toBe(404);
  });

  it('captures part of a hold and refuses to release it afterwards, as the API does', async () => {
    const browser = await signIn();
    const session = await paid({ intent: 'hold' });
    const captured = await browser.call('POST', `/dashboard/api/payments/${session.id}/capture`, { amount: 1500 });
    expect(captured.status).toBe(200);
    expect(await captured.json()).toMatchObject({ status: 'captured', amount_captured: 1500 });
    const released = await browser.call('POST', `/dashboard/api/payments/${session.id}/release`, {});
    expect(released.status).toBe(409);
  });

  it('does not show another application\'s payment', async () => {
    const { secretKey: otherKey } = await server.merchant({ merchant_id: 'someone-else' });
    const theirs = await server.createSession(otherKey);
    const browser = await signIn();
    expect((await browser.call('GET', `/dashboard/api/payments/${theirs.id}`)).status).toBe(404);
    expect((await browser.call('POST', `/dashboard/api/payments/${theirs.id}/refunds`, {})).status).toBe(404);
  });
});

describe('saved cards in the dashboard', () => {
  /** A card kept for `customer` by a paid saving session of the app whose key is `key`. */
  async function saved(key: string, customer: string, saving: Record<string, unknown> = { usage: 'unscheduled' }, card = 'visa-success-3ds'): Promise<{ session: string; pm: string }> {
    const session = await server.createSession(key, { save_payment_method: { customer, ...saving } });
    const agreement = session.public_view!.save_payment_method!.agreement;
    expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, card), agreement: { id: agreement.id } })).status).toBe(200);
    const kept = await server.store.selectFrom('sessions').select('payment_method').where('id', '=', session.id).executeTakeFirstOrThrow();
    return { session: session.id, pm: kept.payment_method! };
  }

  /** A browser signed in to an app of its own, so that its list is exactly what the test kept. */
  async function ownApp(): Promise<{ key: string; browser: Browser; list(query?: string): Promise<DashboardPaymentMethodList> }> {
    const { secretKey: key } = await server.merchant({ merchant_id: `cards_${Math.random().toString(36).slice(2, 10)}` });
    const browser = await signIn(key);
    return {
      key,
      browser,
      async list(query = '') {
        const reply = await browser.call('GET', `/dashboard/api/payment_methods${query}`);
        expect(reply.status).toBe(200);
        return (await reply.json()) as DashboardPaymentMethodList;
      },
    };
  }

  it("lists the app's kept cards newest first, each with its card, expiry, terms, status and the payment that saved it", async () => {
    const app = await ownApp();
    const monthly = await saved(app.key, 'cust_a', { usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 2500 } });
    const reload = await saved(app.key, 'cust_b', { usage: 'reload', reload: { threshold: 500, amount: 2000 } }, 'mastercard-success-3ds');
    const { data, has_more } = await app.list();
    expect(has_more).toBe(false);
    expect(data.map((method) => method.id)).toEqual([reload.pm, monthly.pm]);
    expect(data[1]).toMatchObject({
      customer: 'cust_a',
      card: { network: 'VISA', last4: expect.stringMatching(/^\d{4}$/), exp_month: expect.any(Number), exp_year: expect.any(Number) },
      agreement: { usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 2500 }, currency: 'USD', session_id: monthly.session },
      status: 'active',
      currency_exponent: 2,
    });
    expect(data[0]).toMatchObject({ customer: 'cust_b', card: { network: 'MASTERCARD' }, agreement: { usage: 'reload', reload: { threshold: 500, amount: 2000 }, session_id: reload.session } });
  });

  it('filters by customer reference (exact) and by status: active, expired, detached', async () => {
    const app = await ownApp();
    const first = await saved(app.key, 'cust_1');
    const second = await saved(app.key, 'cust_1', undefined, 'mastercard-success-3ds');
    const other = await saved(app.key, 'cust_10');
    const ids = async (query: string) => (await app.list(query)).data.map((method) => method.id);
    expect(await ids('?customer=cust_1')).toEqual([second.pm, first.pm]);
    expect(await ids('?customer=cust_')).toEqual([]);

    // A card past its expiry month reads expired, and is listed as such (the API's own rule, at the same instant).
    await server.store.updateTable('payment_methods').set({ exp_year: 2020, exp_month: 1 }).where('id', '=', second.pm).execute();
    expect((await app.browser.call('POST', `/dashboard/api/payment_methods/${other.pm}/detach`, {})).status).toBe(200);
    expect(await ids('?status=active')).toEqual([first.pm]);
    expect(await ids('?status=expired')).toEqual([second.pm]);
    expect(await ids('?status=detached')).toEqual([other.pm]);
    expect(await ids('?status=expired&customer=cust_10')).toEqual([]);
    for (const status of ['active', 'expired', 'detached']) for (const method of (await app.list(`?status=${status}`)).data) expect(method.status).toBe(status);

    for (const bad of ['?status=bogus', '?customer=a%40b.example', '?limit=0', '?color=red', '?customer=a&customer=b']) expect((await app.browser.call('GET', `/dashboard/api/payment_methods${bad}`)).status, bad).toBe(400);
  });

  it('pages with the cursor, newest first, as the payments do', async () => {
    const app = await ownApp();
    const kept = [];
    for (const customer of ['cust_p1', 'cust_p2', 'cust_p3']) kept.push((await saved(app.key, customer)).pm);
    const first = await app.list('?limit=2');
    expect(first.data.map((method) => method.id)).toEqual([kept[2], kept[1]]);
    expect(first.has_more).toBe(true);
    const second = await app.list(`?limit=2&starting_after=${kept[1]}`);
    expect(second.data.map((method) => method.id)).toEqual([kept[0]]);
    expect(second.has_more).toBe(false);
  });

  it("never lists another application's cards, even under the same customer reference, nor pages from one of them", async () => {
    const mine = await ownApp();
    const theirs = await ownApp();
    const own = await saved(mine.key, 'cust_shared');
    const foreign = await saved(theirs.key, 'cust_shared');
    expect((await mine.list()).data.map((method) => method.id)).toEqual([own.pm]);
    expect((await mine.list('?customer=cust_shared')).data.map((method) => method.id)).toEqual([own.pm]);
    const fromTheirs = await mine.browser.call('GET', `/dashboard/api/payment_methods?starting_after=${foreign.pm}`);
    expect(fromTheirs.status).toBe(400);
    expect(JSON.stringify(await fromTheirs.json())).not.toContain('cust_shared');
    expect((await mine.browser.call('POST', `/dashboard/api/payment_methods/${foreign.pm}/detach`, {})).status).toBe(404);
    expect((await theirs.list()).data).toEqual([expect.objectContaining({ id: foreign.pm, status: 'active' })]);
  });

  it('detaches a listed card only with the CSRF token and our Origin; the list then shows it detached', async () => {
    const app = await ownApp();
    const { pm } = await saved(app.key, 'cust_csrf');
    const detach = (headers: Record<string, string>) => app.browser.call('POST', `/dashboard/api/payment_methods/${pm}/detach`, {}, headers);
    expect((await detach({ [CSRF_HEADER]: '' })).status).toBe(403);
    expect((await detach({ [CSRF_HEADER]: 'forged' })).status).toBe(403);
    expect((await detach({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await app.list()).data).toEqual([expect.objectContaining({ id: pm, status: 'active', detached: null })]);
    expect((await detach({})).status).toBe(200);
    expect((await app.list('?status=detached')).data).toEqual([expect.objectContaining({ id: pm, status: 'detached', detached: expect.any(Number) })]);
  });

  it('answers 401 without a session', async () => {
    expect((await fetch(`${server.url}/dashboard/api/payment_methods`)).status).toBe(401);
  });
});

describe('developers in the dashboard', () => {
  it('adds, lists, rolls and removes a webhook endpoint', async () => {
    const browser = await signIn();
    const added = await browser.call('POST', '/dashboard/api/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks' });
    expect(added.status).toBe(201);
    const { id, secret } = (await added.json()) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const listed = (await (await browser.call('GET', '/dashboard/api/webhook_endpoints')).json()) as { data: DashboardEndpoint[] };
    expect(listed.data.map((endpoint) => endpoint.id)).toContain(id);
    const rolled = await browser.call('POST', `/dashboard/api/webhook_endpoints/${id}/roll_secret`, { expire_current_in_seconds: 3600 });
    expect(rolled.status).toBe(201);
    expect(((await rolled.json()) as { secret: string }).secret).not.toBe(secret);
    expect((await browser.call('DELETE', `/dashboard/api/webhook_endpoints/${id}`)).status).toBe(200);
    expect((await browser.call('DELETE', `/dashboard/api/webhook_endpoints/${id}`)).status).toBe(404);
  });

  it('rolls the secret key with an overlap: the old key works until then, the new one at once', async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'dashboard-roll' });
    const browser = await signIn(key);
    const rolled = await browser.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 3600, secret_key: key });
    expect(rolled.status).toBe(201);
    const { secret, previous_key_expires } = (await rolled.json()) as { secret: string; previous_key_expires: number };
    expect(previous_key_expires).toBeGreaterThan(Date.now() + 3500_000);
    for (const live of [key, secret]) expect((await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${live}` } })).status).toBe(200);
  });

  it('changes the allowed origins and the 3-D Secure policy through the same schema, and refuses anything else', async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'dashboard-settings' });
    const browser = await signIn(key);
    const changed = await browser.call('PUT', '/dashboard/api/settings', { allowed_origins: ['https://new.example/', 'https://Second.example:443'], three_ds: 'always_for_pan_only' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ allowed_origins: ['https://new.example', 'https://second.example'], three_ds: 'always_for_pan_only' });
    // Only http(s) origins: no script, file or data URL (each would be stored as "null" and end every widget call), no path, no wildcard.
    for (const origin of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'https://new.example/path', 'https://*.new.example', 'https://user:pw@new.example']) {
      const refused = await browser.call('PUT', '/dashboard/api/settings', { allowed_origins: [origin], three_ds: 'if_required' });
      expect(refused.status, origin).toBe(400);
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^allowed_origins\.0: must be an http\(s\) origin/) });
    }
    expect(((await (await browser.call('GET', '/dashboard/api/settings')).json()) as { allowed_origins: string[] }).allowed_origins).toEqual(['https://new.example', 'https://second.example']);
    expect((await browser.call('PUT', '/dashboard/api/settings', { allowed_origins: [], three_ds: 'if_required' })).status).toBe(400);
    expect((await browser.call('PUT', '/dashboard/api/settings', { allowed_origins: ['https://a.example'], three_ds: 'if_required', environment: 'PRODUCTION' })).status).toBe(400);
  });
});
