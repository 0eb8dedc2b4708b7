/**
 * The dashboard API (/dashboard/api, server/dashboard/routes.ts), as the page
 * calls it: the cookie goes by itself (same origin); every change carries the
 * session's CSRF token, which lives in this module's memory only, and the
 * actions that move money an Idempotency-Key, so a double submit is one action.
 */
import type { DashboardDisputeList, DashboardDisputePage, DashboardEndpoint, DashboardOverview, DashboardOverviewQuery, DashboardPayment, DashboardPaymentList, DashboardPaymentMethodList, DashboardPaymentMethodsQuery, DashboardPaymentPage, DashboardSessionState, DashboardSettings, DashboardSignedIn, OriginVerification, OriginVerificationList, PaymentMethod, Refund, RefundReason, RolledSecretKey, RolledWebhookSecret } from '../../contracts';

export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`/dashboard/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: { ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const reply = (await response.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!response.ok) throw new DashboardError(response.status, reply.error?.code ?? 'unknown', reply.error?.message ?? response.statusText);
  return reply as T;
}

const once = () => ({ 'idempotency-key': crypto.randomUUID() });

/** The Payments list's query (DashboardPaymentsQuery), as the page builds it (payment-filters.ts). */
export interface PaymentFilter {
  q?: string;
  status?: string;
  payment_status?: string;
  network?: string;
  decline_code?: string;
  created_gte?: number;
  created_lt?: number;
  abandoned?: '1';
  starting_after?: string;
}

/** The non-empty fields of `filter` as a query, after `start`. */
function queryOf(filter: object, start: Record<string, string> = {}): URLSearchParams {
  const query = new URLSearchParams(start);
  for (const [name, value] of Object.entries(filter)) if (value !== undefined && value !== '') query.set(name, String(value));
  return query;
}

/** `limit` 20 and the non-empty fields of `filter` as the query. */
const listQuery = (filter: object): URLSearchParams => queryOf(filter, { limit: '20' });

/** Where the list's CSV export downloads from: a plain link, the cookie goes with it (GET: no CSRF token). */
export const paymentsCsvUrl = (filter: Omit<PaymentFilter, 'starting_after'>): string => `/dashboard/api/payments.csv?${queryOf(filter)}`;

export const api = {
  async current(): Promise<DashboardSignedIn['app'] | undefined> {
    const session = await call<DashboardSessionState>('GET', '/session');
    if (!session.signed_in) return undefined;
    csrfToken = session.csrf_token;
    return session.app;
  },
  async signIn(secretKey: string): Promise<DashboardSignedIn['app']> {
    const session = await call<DashboardSignedIn>('POST', '/session', { secret_key: secretKey });
    csrfToken = session.csrf_token;
    return session.app;
  },
  async signOut(): Promise<void> {
    await call('DELETE', '/session');
    csrfToken = '';
  },
  /** Ends every dashboard session of the app, in every browser, this one included. */
  async signOutEverywhere(): Promise<void> {
    await call('DELETE', '/sessions');
    csrfToken = '';
  },
  overview: (query: DashboardOverviewQuery) => call<DashboardOverview>('GET', `/overview?${new URLSearchParams({ ...query })}`),
  payments: (filter: PaymentFilter) => call<DashboardPaymentList>('GET', `/payments?${listQuery(filter)}`),
  payment: (id: string) => call<DashboardPaymentPage>('GET', `/payments/${encodeURIComponent(id)}`),
  capture: (id: string, amount: number) => call<DashboardPayment>('POST', `/payments/${encodeURIComponent(id)}/capture`, { amount }, once()),
  release: (id: string) => call<DashboardPayment>('POST', `/payments/${encodeURIComponent(id)}/release`, {}, once()),
  /** `reason`: one of the API's (CreateRefundBody), or none. */
  refund: (id: string, amount: number, reason?: RefundReason) => call<Refund>('POST', `/payments/${encodeURIComponent(id)}/refunds`, { amount, ...(reason && { reason }) }, once()),
  paymentMethods: (filter: Omit<DashboardPaymentMethodsQuery, 'limit'>) => call<DashboardPaymentMethodList>('GET', `/payment_methods?${listQuery(filter)}`),
  paymentMethod: (id: string) => call<PaymentMethod>('GET', `/payment_methods/${encodeURIComponent(id)}`),
  detachPaymentMethod: (id: string) => call<PaymentMethod>('POST', `/payment_methods/${encodeURIComponent(id)}/detach`, {}, once()),
  disputes: (filter: { status?: string; starting_after?: string }) => call<DashboardDisputeList>('GET', `/disputes?${listQuery(filter)}`),
  dispute: (id: string) => call<DashboardDisputePage>('GET', `/disputes/${encodeURIComponent(id)}`),
  submitEvidence: (id: string, evidence: { explanation: string; shipping?: { carrier: string; tracking_number: string } }) =>
    call<DashboardDisputePage>('POST', `/disputes/${encodeURIComponent(id)}/evidence`, evidence, once()),
  endpoints: () => call<{ data: DashboardEndpoint[] }>('GET', '/webhook_endpoints'),
  addEndpoint: (url: string) => call<{ id: string; secret: string }>('POST', '/webhook_endpoints', { url }),
  removeEndpoint: (id: string) => call('DELETE', `/webhook_endpoints/${encodeURIComponent(id)}`),
  rollEndpointSecret: (id: string) => call<RolledWebhookSecret>('POST', `/webhook_endpoints/${encodeURIComponent(id)}/roll_secret`, {}),
  redeliver: (eventId: string) => call('POST', `/events/${encodeURIComponent(eventId)}/redeliver`),
  /** `secretKey`: a live key of the app, asked again (re-authentication); sent once, kept nowhere. */
  rollKey: (overlapSeconds: number, secretKey: string) => call<RolledSecretKey>('POST', '/keys/roll', { expire_current_in_seconds: overlapSeconds, secret_key: secretKey }, once()),
  settings: () => call<DashboardSettings>('GET', '/settings'),
  saveSettings: (settings: Pick<DashboardSettings, 'allowed_origins' | 'three_ds'>) => call<DashboardSettings>('PUT', '/settings', settings),
  origins: () => call<OriginVerificationList>('GET', '/origins'),
  verifyOrigin: (origin: string) => call<OriginVerification>('POST', '/origins/verify', { origin }),
};
