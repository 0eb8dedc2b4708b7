/**
 * Saved cards over real HTTP (docs/saved-cards.md): a session keeps its card on the shopper's agreement,
 * charged or set up with nothing charged; the same card kept again for a customer is one payment method;
 * the merchant charges it without the shopper, exactly once per Idempotency-Key, refused before the
 * service whenever the agreement, the customer, the app or the card's state does not allow it; a detach is
 * final; the issuer's "bring the shopper back" and the network's card update.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CreatedSession, Event, type PaymentMethod, type PaymentMethodList, type PublicSession, type Session } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { MONTHLY, type SavedCards, savedCards } from '../../testing/saved-cards';
import { openEventBody } from '../store/events';

let server: TestServer;
let cards: SavedCards;
let appId: string;
let secretKey: string;
const MERCHANT = 'saved_cards';
const logDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-saved-cards-logs-'));
const logFile = join(logDir, 'server.log');

beforeAll(async () => {
  // Short service timeout so that faults are quick; reconciliation is driven by the tests.
  server = await startTestServer({ SERVICE_TIMEOUT_MS: '150', RECONCILE_INTERVAL_MS: '3600000' }, { logFile });
  ({ appId, secretKey } = await server.merchant({ merchant_id: MERCHANT }));
  cards = savedCards(server, secretKey, MERCHANT);
});
afterAll(async () => {
  await server.close();
  rmSync(logDir, { recursive: true, force: true });
});
beforeEach(() => server.sandbox!.setFaults({ rate: 0 }));

/** Each test's own customer, so that the card it keeps is its own. */
let customers = 0;
const customer = () => `cus_${++customers}_${Date.now()}`;
const monthlyFor = (who: string) => ({ ...MONTHLY, customer: who });
const chargesAtService = async (prefix: string) => (await server.sandbox!.ledger()).filter((entry) => entry.operation === 'charge' && entry.idempotency_key?.startsWith(prefix));
const eventsOf = async (paymentMethodId: string) =>
  (await server.store.selectFrom('events').select('body').where('app_id', '=', appId).orderBy('created').execute())
    .map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body))))
    .filter((event) => event.data.object.object === 'payment_method' && event.data.object.id === paymentMethodId);
const errorOf = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
const subscription = (who: string, extra: Record<string, unknown> = {}) => ({ amount: 999, currency: 'USD', reason: 'subscription', customer: who, ...extra });
let keys = 0;
const newKey = () => `charge-${++keys}-${Date.now()}`;

async function kept(card = 'visa-success-3ds', save: object = monthlyFor(customer()), body: Record<string, unknown> = {}): Promise<{ session: Session; method: PaymentMethod }> {
  const { session } = await cards.saveCard(card, save, body);
  expect(session.payment_method, 'the card is kept once the payment succeeded').toMatch(/^pm_/);
  return { session, method: await cards.paymentMethod(session.payment_method ?? '') };
}

describe('a session that keeps the card', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a setup with an amount', { intent: 'setup' }, {}],
    ['a setup that keeps no card', { intent: 'setup', amount: undefined, save_payment_method: undefined }, {}],
    ['a setup for unscheduled charges, which Google cannot show', { intent: 'setup', amount: undefined }, { usage: 'unscheduled', recurring: undefined }],
    ['recurring usage without its terms', {}, { recurring: undefined }],
    ['reload terms on recurring usage', {}, { reload: { threshold: 500, amount: 2000 } }],
    ['a customer reference that is an e-mail', {}, { customer: 'alice@example.com' }],
    ['line items with a subscription', { line_items: [{ label: 'Box', kind: 'item', amount: 999 }] }, {}],
    ['a subscription price Google cannot show', { currency: 'KWD', amount: 1230 }, { recurring: { interval: 'month', interval_count: 1, amount: 1234 } }],
    ['a recurrence every 0 months', {}, { recurring: { interval: 'month', interval_count: 0, amount: 999 } }],
  ])('is refused: %s', async (_what, body, save) => {
    const response = await cards.createSession({ ...monthlyFor(customer()), ...save }, body);
    expect(await errorOf(response)).toEqual([400, 'invalid_request']);
  });

  it("asks Google for a subscription with its terms and the agreement, and shows the widget the agreement's text", async () => {
    const session = (await (await cards.createSession(monthlyFor(customer()), { description: 'Coffee club' })).json()) as CreatedSession;
    expect(session).toMatchObject({ intent: 'charge', save_payment_method: { usage: 'recurring', recurring: { amount: 999 } }, payment_method: null, agreement: null });
    const view: PublicSession = await server.publicSession(session);
    const agreement = view.save_payment_method?.agreement;
    expect(view.save_payment_method).toMatchObject({ usage: 'recurring', setup: false, agreement: { id: 'saved_card.recurring.v1' } });
    expect(agreement?.text).toBe('You allow Test Shop to charge this card $9.99 every month for your subscription, without asking you each time, until you cancel with Test Shop.');
    expect(view.payment_data_request.transactionInfo).toBeUndefined();
    expect(view.payment_data_request.recurringTransactionInfo).toMatchObject({
      immediateTotalPrice: '9.99',
      billingAgreement: agreement?.text,
      recurrenceItems: [{ priceStatus: 'FINAL', recurrencePeriod: 'MONTH', recurrencePeriodCount: 1, price: '9.99' }],
    });
    // A session that keeps no card shows none.
    expect((await server.publicSession(await server.createSession(secretKey))).save_payment_method).toBeUndefined();
  });

  it("is paid only with the shopper's agreement to the text shown: without it, or with another, nothing is charged", async () => {
    const session = (await (await cards.createSession(monthlyFor(customer()))).json()) as CreatedSession;
    expect(await errorOf(await cards.pay(session, 'visa-success-3ds', null))).toEqual([400, 'agreement_required']);
    expect(await errorOf(await cards.pay(session, 'visa-success-3ds', { id: 'saved_card.unscheduled.v1' }))).toEqual([400, 'agreement_required']);
    expect(await chargesAtService(`${session.id}:`)).toEqual([]);
    expect((await cards.get<Session>(`/api/sessions/${session.id}`)).body).toMatchObject({ status: 'open', attempts: 0, agreement: null });
  });

  it('keeps the card once the payment succeeds: the agreement, its reference and the card, never more of it, with payment_method.attached', async () => {
    const started = Date.now();
    const { session, method } = await kept('visa-success-3ds', monthlyFor(customer()), { description: 'Coffee club' });
    const [charge] = await chargesAtService(`${session.id}:`);
    expect(session).toMatchObject({ status: 'succeeded', agreement: { id: 'saved_card.recurring.v1', accepted_at: expect.any(Number) } });
    expect(session.agreement?.accepted_at).toBeGreaterThanOrEqual(started);
    expect(method).toMatchObject({
      object: 'payment_method',
      app_id: appId,
      customer: session.save_payment_method?.customer,
      card: { network: 'VISA', last4: '1111' },
      token_kind: 'network_token',
      status: 'active',
      detached: null,
      network_transaction_reference: charge?.charge.network_transaction_reference,
      agreement: { usage: 'recurring', recurring: { amount: 999, interval: 'month' }, currency: 'USD', session_id: session.id, id: 'saved_card.recurring.v1', text: session.agreement?.text },
    });
    expect((await eventsOf(method.id)).map((event) => event.type)).toEqual(['payment_method.attached']);
    // The row holds the card's network, last four and expiry, and nothing else of it: no number, token or cryptogram.
    const row = await server.store.selectFrom('payment_methods').selectAll().where('id', '=', method.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('4111111111111111');
    expect(Object.keys(row).sort()).toEqual(
      ['agreement', 'app_id', 'country_code', 'created', 'customer', 'detached', 'exp_month', 'exp_year', 'fingerprint', 'id', 'last4', 'network', 'network_transaction_reference', 'service_detached', 'service_payment_method', 'token_kind', 'updated'].sort(),
    );
  });

  it('keeps the card with nothing charged (intent setup): what is due today is 0.00, the service verifies the card with 0, and there is nothing to refund', async () => {
    const who = customer();
    const created = (await (await cards.createSession({ customer: who, usage: 'reload', reload: { threshold: 500, amount: 2000 } }, { intent: 'setup', amount: undefined })).json()) as CreatedSession;
    expect(created).toMatchObject({ intent: 'setup', amount: 0 });
    const view = await server.publicSession(created);
    expect(view.save_payment_method).toMatchObject({ usage: 'reload', setup: true });
    expect(view.payment_data_request.automaticReloadTransactionInfo).toMatchObject({ immediateTotalPrice: '0.00', minimumBalanceAmount: '5.00', reloadAmount: '20.00', label: 'Automatic reload' });
    const paid = await cards.pay(created, 'visa-success-pan');
    expect(((await paid.json()) as { outcome: { status: string } }).outcome.status).toBe('succeeded');
    expect((await chargesAtService(`${created.id}:`)).map((entry) => [entry.charge.amount, entry.charge.amount_captured])).toEqual([[0, 0]]);
    const session = (await cards.get<Session>(`/api/sessions/${created.id}`)).body;
    expect(await cards.paymentMethod(session.payment_method ?? '')).toMatchObject({ customer: who, token_kind: 'card', agreement: { usage: 'reload', reload: { threshold: 500, amount: 2000 } } });
    expect(await errorOf(await server.merchantPost(secretKey, `/api/sessions/${created.id}/refunds`))).toEqual([409, 'invalid_state']);
  });

  it('keeps a PAN_ONLY card its issuer authenticates first: 3-D Secure for nothing charged (a non-payment authentication), then the verification that keeps it', async () => {
    const created = (await (await cards.createSession(monthlyFor(customer()), { intent: 'setup', amount: undefined })).json()) as CreatedSession;
    const paid = (await (await cards.pay(created, 'visa-3ds-frictionless-pan')).json()) as { outcome: { status: string; card: { auth_method: string } } };
    expect(paid.outcome).toMatchObject({ status: 'succeeded', card: { auth_method: 'PAN_ONLY' } });
    // The declined first try, then the authenticated verification: both of 0.
    expect((await chargesAtService(`${created.id}:`)).map((entry) => [entry.charge.amount, entry.charge.status, entry.charge.source_type])).toEqual([
      [0, 'failed', 'walletpay'],
      [0, 'succeeded', 'payment_method'],
    ]);
    const session = (await cards.get<Session>(`/api/sessions/${created.id}`)).body;
    expect(await cards.paymentMethod(session.payment_method ?? '')).toMatchObject({ token_kind: 'card', status: 'active' });
  });

  it('keeps the same card for the same customer as one payment method (updated), and for another customer as another', async () => {
    const who = customer();
    const first = await kept('visa-success-3ds', monthlyFor(who));
    const second = await kept('visa-success-pan', monthlyFor(who));
    expect(second.method.id).toBe(first.method.id);
    expect(second.method).toMatchObject({ token_kind: 'card', agreement: { session_id: second.session.id }, created: first.method.created });
    expect(second.method.network_transaction_reference).not.toBe(first.method.network_transaction_reference);
    expect((await eventsOf(first.method.id)).map((event) => event.type)).toEqual(['payment_method.attached', 'payment_method.updated']);
    const other = await kept('visa-success-3ds', monthlyFor(customer()));
    expect(other.method.id).not.toBe(first.method.id);
    const listed = await cards.get<PaymentMethodList>(`/api/payment_methods?customer=${who}`);
    expect(listed.body.data.map((method) => method.id)).toEqual([first.method.id]);
    expect(await errorOf(await fetch(`${server.url}/api/payment_methods?customer=${who}&colour=red`, { headers: { authorization: `Bearer ${secretKey}` } }))).toEqual([400, 'invalid_request']);
  });

  it('keeps the card in the next reconciliation pass when the payment was confirmed late', async () => {
    const created = (await (await cards.createSession(monthlyFor(customer()))).json()) as CreatedSession;
    server.sandbox!.setFaults({ rate: 1, kinds: ['lost_reply'] });
    const paid = (await (await cards.pay(created, 'visa-success-3ds')).json()) as { outcome: { status: string } };
    server.sandbox!.setFaults({ rate: 0 });
    expect(paid.outcome.status).toBe('pending');
    expect((await cards.get<Session>(`/api/sessions/${created.id}`)).body.payment_method).toBeNull();
    expect((await server.reconcile()).savedCards.kept).toBeGreaterThanOrEqual(1);
    const session = (await cards.get<Session>(`/api/sessions/${created.id}`)).body;
    expect(session).toMatchObject({ status: 'succeeded', payment_method: expect.stringMatching(/^pm_/) });
    expect(await chargesAtService(`${created.id}:`)).toHaveLength(1);
  });
});

describe('a merchant-initiated charge', () => {
  it('charges the kept card as a session of its own, once per Idempotency-Key, refundable as any', async () => {
    const { method } = await kept();
    const key = newKey();
    const first = await cards.charge(method.id, subscription(method.customer, { reference: 'invoice-7' }), key);
    expect(first.status).toBe(201);
    const charged = (await first.json()) as Session;
    expect(charged).toMatchObject({ object: 'checkout_session', intent: 'merchant_initiated', status: 'succeeded', amount: 999, charge_reason: 'subscription', payment_method: method.id, reference: 'invoice-7', outcome: { status: 'succeeded' } });
    const retry = await cards.charge(method.id, subscription(method.customer, { reference: 'invoice-7' }), key);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as Session).id).toBe(charged.id);
    const atService = await chargesAtService(`${charged.id}:`);
    expect(atService).toHaveLength(1);
    expect(atService[0]?.charge).toMatchObject({ source_type: 'payment_method', amount: 999 });
    // Another key is another charge.
    const again = (await (await cards.charge(method.id, subscription(method.customer), newKey())).json()) as Session;
    expect(again.id).not.toBe(charged.id);
    // Listed with the sessions, and refunded as one.
    expect((await cards.get<{ data: Session[] }>('/api/sessions?reference=invoice-7')).body.data.map((session) => session.id)).toEqual([charged.id]);
    const refund = await server.merchantPost(secretKey, `/api/sessions/${charged.id}/refunds`, { amount: 500 });
    expect(refund.status).toBe(201);
    expect((await cards.get<Session>(`/api/sessions/${charged.id}`)).body).toMatchObject({ amount_refunded: 500 });
  });

  it('needs an Idempotency-Key', async () => {
    const { method } = await kept();
    expect(await errorOf(await cards.charge(method.id, subscription(method.customer)))).toEqual([400, 'invalid_request']);
  });

  it.each<[string, (method: PaymentMethod) => Record<string, unknown>, [number, string]]>([
    ['another reason than the agreement covers', (method) => subscription(method.customer, { reason: 'unscheduled' }), [409, 'not_covered_by_agreement']],
    ['a delayed charge on a subscription agreement', (method) => subscription(method.customer, { reason: 'delayed_capture' }), [409, 'not_covered_by_agreement']],
    ['more than the agreed amount', (method) => subscription(method.customer, { amount: 1000 }), [409, 'not_covered_by_agreement']],
    ['another currency than the agreed one', (method) => subscription(method.customer, { currency: 'EUR' }), [409, 'not_covered_by_agreement']],
    ['another customer', () => subscription('cus_somebody_else'), [400, 'customer_mismatch']],
    ['an unknown field', (method) => subscription(method.customer, { off_session: true }), [400, 'invalid_request']],
  ])('is refused before the service: %s', async (_what, body, refusal) => {
    const { method } = await kept();
    const before = (await server.sandbox!.ledger()).length;
    expect(await errorOf(await cards.charge(method.id, body(method), newKey()))).toEqual(refusal);
    expect((await server.sandbox!.ledger()).length).toBe(before);
  });

  it('takes less than the agreed amount, and any amount under an unscheduled agreement, delayed charges included', async () => {
    const { method } = await kept('visa-success-3ds', monthlyFor(customer()));
    expect((await cards.charge(method.id, subscription(method.customer, { amount: 500 }), newKey())).status).toBe(201);
    const unscheduled = await kept('visa-success-3ds', { customer: customer(), usage: 'unscheduled' }, { amount: 2400 });
    for (const reason of ['unscheduled', 'delayed_capture']) {
      const charged = await cards.charge(unscheduled.method.id, { amount: 12_500, currency: 'EUR', reason, customer: unscheduled.method.customer }, newKey());
      expect(((await charged.json()) as Session).status).toBe('succeeded');
    }
  });

  it("is not another app's to make, read or detach", async () => {
    const { method } = await kept();
    const other = await server.merchant({ merchant_id: 'another_shop' });
    const stranger = savedCards(server, other.secretKey, 'another_shop');
    const before = (await server.sandbox!.ledger()).length;
    expect(await errorOf(await stranger.charge(method.id, subscription(method.customer), newKey()))).toEqual([404, 'not_found']);
    expect((await stranger.get(`/api/payment_methods/${method.id}`)).status).toBe(404);
    expect(await errorOf(await stranger.detach(method.id))).toEqual([404, 'not_found']);
    expect((await stranger.get<PaymentMethodList>('/api/payment_methods')).body.data).toEqual([]);
    expect((await server.sandbox!.ledger()).length).toBe(before);
    expect((await cards.paymentMethod(method.id)).status).toBe('active');
  });

  it('is made exactly once when the service fails: pending, the same on a retry of its key, then settled by reconciliation', async () => {
    const { method } = await kept();
    for (const kind of ['lost_reply', 'error'] as const) {
      const key = newKey();
      server.sandbox!.setFaults({ rate: 1, kinds: [kind], timeoutMs: 1500 });
      const first = (await (await cards.charge(method.id, subscription(method.customer), key)).json()) as Session;
      expect(first).toMatchObject({ status: 'pending', outcome: { status: 'pending' } });
      const retried = (await (await cards.charge(method.id, subscription(method.customer), key)).json()) as Session;
      expect(retried.id).toBe(first.id);
      server.sandbox!.setFaults({ rate: 0 });
      await server.reconcile();
      expect((await cards.get<Session>(`/api/sessions/${first.id}`)).body).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await chargesAtService(`${first.id}:`), kind).toHaveLength(1);
    }
  });
});

describe('a detach', () => {
  it('is final: the event, the service forgets the card, every charge is refused before it, and saving the card again makes a new payment method', async () => {
    const who = customer();
    const { method } = await kept('visa-success-3ds', monthlyFor(who));
    const detached = await cards.detach(method.id);
    expect(detached.status).toBe(200);
    expect(await detached.json()).toMatchObject({ id: method.id, status: 'detached', detached: expect.any(Number) });
    expect((await eventsOf(method.id)).map((event) => event.type)).toEqual(['payment_method.attached', 'payment_method.detached']);
    const row = await server.store.selectFrom('payment_methods').select(['service_payment_method', 'service_detached']).where('id', '=', method.id).executeTakeFirstOrThrow();
    expect(row.service_detached).not.toBeNull();
    const atService = await fetch(`${server.url}/sandbox/service/api/v1/payment_methods/${row.service_payment_method}`, { headers: { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': MERCHANT } });
    expect(await atService.json()).toMatchObject({ status: 'detached' });

    const before = (await server.sandbox!.ledger()).length;
    expect(await errorOf(await cards.charge(method.id, subscription(who), newKey()))).toEqual([409, 'payment_method_detached']);
    expect((await server.sandbox!.ledger()).length).toBe(before);
    // Detaching again answers it as it is, with no second event.
    expect((await cards.detach(method.id)).status).toBe(200);
    expect(await eventsOf(method.id)).toHaveLength(2);
    expect((await kept('visa-success-3ds', monthlyFor(who))).method.id).not.toBe(method.id);
  });
});

describe('when the issuer wants the shopper back', () => {
  it.each(['authentication_required', 'expired_card'])('a %s decline is the charge\'s failure code; a new session saving the card for the customer updates the same payment method', async (code) => {
    const who = customer();
    const card = code === 'expired_card' ? 'visa-mit-expired-card-3ds' : 'visa-mit-authentication-required-3ds';
    const { method } = await kept(card, monthlyFor(who));
    const declined = (await (await cards.charge(method.id, subscription(who), newKey())).json()) as Session;
    expect(declined).toMatchObject({ status: 'declined', outcome: { status: 'declined', failure_code: code } });
    const again = await kept(card.replace('-3ds', '-pan'), monthlyFor(who));
    expect(again.method.id).toBe(method.id);
    expect(again.method.network_transaction_reference).not.toBe(method.network_transaction_reference);
    expect((await eventsOf(method.id)).map((event) => event.type)).toEqual(['payment_method.attached', 'payment_method.updated']);
  });
});

describe("the network's card update", () => {
  it('reaches the payment method in the next reconciliation pass, with payment_method.updated: an expired card is active again and charged', async () => {
    const who = customer();
    const { method } = await kept('visa-mit-expired-card-3ds', monthlyFor(who));
    expect((await (await cards.charge(method.id, subscription(who), newKey())).json()) as Session).toMatchObject({ outcome: { failure_code: 'expired_card' } });

    // Past its expiry: read as expired, and refused before the service.
    await cards.updateCard(method.id, { exp_month: 1, exp_year: 2020 });
    expect((await server.reconcile()).savedCards.cardsUpdated).toBeGreaterThanOrEqual(1);
    expect(await cards.paymentMethod(method.id)).toMatchObject({ status: 'expired', card: { exp_month: 1, exp_year: 2020 } });
    expect(await errorOf(await cards.charge(method.id, subscription(who), newKey()))).toEqual([409, 'payment_method_expired']);

    // The reissued card: a new expiry and last four.
    await cards.updateCard(method.id, { exp_month: 8, exp_year: 2040, last4: '0390' });
    await server.reconcile();
    expect(await cards.paymentMethod(method.id)).toMatchObject({ status: 'active', card: { last4: '0390', exp_month: 8, exp_year: 2040 } });
    const updates = (await eventsOf(method.id)).filter((event) => event.type === 'payment_method.updated');
    expect(updates.map((event) => (event.data.object as PaymentMethod).card.last4)).toEqual(['0382', '0390']);
    expect((await (await cards.charge(method.id, subscription(who), newKey())).json()) as Session).toMatchObject({ status: 'succeeded', outcome: { card: { last4: '0390' } } });
    // Read once: a second pass applies nothing again.
    expect((await server.reconcile()).savedCards.cardsUpdated).toBe(0);
  });
});

describe('the logs', () => {
  it('hold no wallet token, cryptogram or card number of the cards kept and charged', () => {
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('/api/payment_methods/');
    for (const text of ['signedMessage', 'intermediateSigningKey', 'cryptogram', '4111111111111111', '4000000000000382', '4000000000000374', 'fingerprint']) expect(log, text).not.toContain(text);
  });
});
