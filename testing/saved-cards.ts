/**
 * Saved cards as a merchant and a shopper use them (docs/saved-cards.md), over the test server's HTTP
 * API: a session that keeps the card, paid with the sandbox wallet and the shopper's agreement; the
 * merchant's payment methods API; and the sandbox playing the network's card update.
 */
import type { CreatedSession, PaymentMethod, PaymentOutcome, Session } from '../contracts';
import type { TestServer } from './harness';

/** The recurring terms most tests keep a card for: 9.99 a month. */
export const MONTHLY = { customer: 'cus_alice', usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 999 } } as const;

export interface SavedCards {
  /** POST /api/sessions with `save_payment_method` (and anything else in `body`): the reply, whatever its status. */
  createSession(save: object, body?: Record<string, unknown>): Promise<Response>;
  /** The session paid with `card` and the agreement its view shows (or `agreement`, to break it): the reply. */
  pay(session: CreatedSession, card: string, agreement?: { id: string } | null): Promise<Response>;
  /** A session keeping the card for `save`, paid with `card` and the shopper's agreement: its outcome and the session as the merchant reads it. */
  saveCard(card: string, save?: object, body?: Record<string, unknown>): Promise<{ session: Session; outcome: PaymentOutcome }>;
  /** A secret-key GET of the API, parsed. */
  get<T>(path: string): Promise<{ status: number; body: T }>;
  paymentMethod(id: string): Promise<PaymentMethod>;
  /** POST /api/payment_methods/{id}/charges under `key` (none: no Idempotency-Key). */
  charge(id: string, body: Record<string, unknown>, key?: string): Promise<Response>;
  detach(id: string): Promise<Response>;
  /** The sandbox, as the card network: the kept card behind `id` gets a new expiry (and last four). */
  updateCard(id: string, update: { exp_month: number; exp_year: number; last4?: string }): Promise<void>;
}

export function savedCards(server: TestServer, secretKey: string, merchantId: string): SavedCards {
  const merchantHeaders = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
  const createSession = (save: object, body: Record<string, unknown> = {}) =>
    fetch(`${server.url}/api/sessions`, { method: 'POST', headers: merchantHeaders, body: JSON.stringify({ amount: 999, currency: 'USD', country_code: 'US', save_payment_method: save, ...body }) });
  const get = async <T>(path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } });
    return { status: response.status, body: (await response.json()) as T };
  };
  const pay = async (session: CreatedSession, card: string, agreement?: { id: string } | null) => {
    const view = await server.publicSession(session);
    const shown = agreement === undefined ? view.save_payment_method?.agreement && { id: view.save_payment_method.agreement.id } : agreement;
    return server.pay(session, { payment_data: await server.walletPaymentData(session, card), ...(shown && { agreement: shown }) });
  };
  return {
    createSession,
    pay,
    get,
    async saveCard(card, save = MONTHLY, body = {}) {
      const created = await createSession(save, body);
      if (created.status !== 201) throw new Error(`the saving session was refused: ${await created.text()}`);
      const session = (await created.json()) as CreatedSession;
      const paid = await pay(session, card);
      if (paid.status !== 200) throw new Error(`the saving payment was refused: ${await paid.text()}`);
      const { outcome } = (await paid.json()) as { outcome: PaymentOutcome };
      return { session: (await get<Session>(`/api/sessions/${session.id}`)).body, outcome };
    },
    async paymentMethod(id) {
      const read = await get<PaymentMethod>(`/api/payment_methods/${id}`);
      if (read.status !== 200) throw new Error(`GET /api/payment_methods/${id} answered ${read.status}`);
      return read.body;
    },
    charge: (id, body, key) => fetch(`${server.url}/api/payment_methods/${id}/charges`, { method: 'POST', headers: { ...merchantHeaders, ...(key !== undefined && { 'idempotency-key': key }) }, body: JSON.stringify(body) }),
    detach: (id) => fetch(`${server.url}/api/payment_methods/${id}/detach`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}` } }),
    async updateCard(id, update) {
      const row = await server.store.selectFrom('payment_methods').select('service_payment_method').where('id', '=', id).executeTakeFirstOrThrow();
      const response = await fetch(`${server.url}/sandbox/service/test_helpers/payment_methods/${row.service_payment_method}/card_update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.sandbox?.serviceSecretKey}`, 'merchant-account': merchantId, 'content-type': 'application/json' },
        body: JSON.stringify(update),
      });
      if (!response.ok) throw new Error(`the sandbox's card update answered ${response.status}: ${await response.text()}`);
    },
  };
}
