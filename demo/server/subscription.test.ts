/**
 * The demo's monthly subscription against the real backend: its page's session asks to keep the card on a
 * monthly agreement, the back office charges a later month once however often it is asked, and once the
 * subscription is cancelled (the card detached) the API refuses the charge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedSession, PublicSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer | undefined;
afterEach(() => server?.close());

/** An attribute's value as the page escaped it (common/html.ts), read back. */
const decodeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

interface SubscriptionPage {
  session: CreatedSession;
  view: PublicSession;
  customer: string;
  nextMonth: string;
}

async function openSubscription(s: TestServer): Promise<SubscriptionPage> {
  const html = await (await fetch(`${s.url}/subscription`)).text();
  const clientSecret = /data-client-secret="([^"]+)"/.exec(html)![1]!;
  return {
    session: { id: clientSecret.split('_secret_')[0], client_secret: clientSecret } as CreatedSession,
    view: JSON.parse(decodeHtml(/data-session-view="([^"]+)"/.exec(html)![1]!)) as PublicSession,
    customer: /data-testid="customer">([^<]+)</.exec(html)![1]!,
    nextMonth: /month: '(\d{4}-\d{2})'/.exec(html)![1]!,
  };
}

/** The shopper pays the first month in the sheet, agreeing to the text the widget showed; the store learns the kept card from its webhook. */
async function subscribed(s: TestServer): Promise<SubscriptionPage> {
  const page = await openSubscription(s);
  const reply = await s.pay(page.session, { payment_data: await s.walletPaymentData(page.session, 'visa-success-3ds'), agreement: { id: page.view.save_payment_method!.agreement.id } });
  expect((await reply.json()).outcome.status).toBe('succeeded');
  await expect.poll(async () => (await (await fetch(`${s.url}/demo/subscriptions/${page.customer}`)).json()).payment_method?.status).toBe('active');
  return page;
}

const backOffice = (s: TestServer, path: string) => fetch(`${s.url}${path}`, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin', origin: s.url } });
const chargeMonth = (s: TestServer, page: SubscriptionPage, month = page.nextMonth) => backOffice(s, `/demo/subscriptions/${page.customer}/months/${month}/charge`);
const serviceCharges = async (s: TestServer) => (await s.sandbox!.ledger()).filter((entry) => entry.operation === 'charge');

describe("the demo's monthly subscription", () => {
  it('is linked from the store, and its session asks to keep the card for the customer on a monthly agreement', async () => {
    server = await startTestServer({ DEMO: 'on' });
    expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/subscription"');
    const { view, customer } = await openSubscription(server);
    expect(customer).toMatch(/^demo-[0-9a-f]{8}$/);
    expect(view.save_payment_method).toMatchObject({ usage: 'recurring', setup: false, agreement: { id: 'saved_card.recurring.v1' } });
    expect(view.save_payment_method!.agreement.text).toContain('$9.99 every month for the Coffee club');
    expect(view.payment_data_request.recurringTransactionInfo).toMatchObject({ immediateTotalPrice: '9.99', recurrenceItems: [{ label: 'Coffee club', price: '9.99', recurrencePeriod: 'MONTH' }] });
  });

  it("charges a month once however often the back office is asked, as the month's own payment, without the shopper", async () => {
    server = await startTestServer({ DEMO: 'on' });
    const page = await subscribed(server);
    const before = (await serviceCharges(server)).length;
    const replies = await Promise.all([chargeMonth(server, page), chargeMonth(server, page)]);
    const again = await chargeMonth(server, page);
    const answers = await Promise.all([...replies, again].map(async (reply) => [reply.status, await reply.json()] as const));
    const [, first] = answers[0]!;
    expect(first).toMatchObject({ month: page.nextMonth, charge: { status: 'succeeded', price: '$9.99' } });
    // Every answer is that one charge, and the service was asked once.
    expect(answers.map(([status, answer]) => [status, answer.charge.id])).toEqual([200, 200, 200].map((status) => [status, first.charge.id]));
    const charges = (await serviceCharges(server)).slice(before);
    expect(charges.map((entry) => [entry.charge.status, entry.charge.amount])).toEqual([['succeeded', 999]]);

    // The next month is another charge.
    const following = await (await chargeMonth(server, page, first.next_month)).json();
    expect(following.charge.id).not.toBe(first.charge.id);
    expect(await serviceCharges(server)).toHaveLength(before + 2);
  });

  it('once cancelled, the card is detached and a charge is refused by the API, nothing charged', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const page = await subscribed(server);
    const cancelled = await backOffice(server, `/demo/subscriptions/${page.customer}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ customer: page.customer, payment_method: { status: 'detached' } });
    const before = (await serviceCharges(server)).length;
    const refused = await chargeMonth(server, page);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('payment_method_detached');
    expect(await serviceCharges(server)).toHaveLength(before);
  });

  it('refuses a back-office step posted by another site, and a month that is not after the first', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const page = await subscribed(server);
    const crossSite = await fetch(`${server.url}/demo/subscriptions/${page.customer}/cancel`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect((await chargeMonth(server, page, thisMonth)).status).toBe(400);
    expect((await (await fetch(`${server.url}/demo/subscriptions/${page.customer}`)).json()).payment_method.status).toBe('active');
  });
});
