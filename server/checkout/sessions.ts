/**
 * Checkout sessions: created by the merchant's server, read by it with the
 * secret key and by the widget with the client secret.
 */
import { type App, type MerchantCaller, toApp, unauthenticatedMerchant } from '../apps';
import { AddressVerification, AskedContact, AskedShipping, BillingAddressCheck, ChosenShippingOption, CreateSessionBody, LineItem, ListSessionsQuery, KeepCardError, MerchantChargeReason, PaymentOutcome, paymentStatusOf, type CreatedSession, RecordedAgreement, type Refund, SESSION_LIFETIME, type Session, SessionIntent, type SessionList, QuotePricing, SessionQuote, SessionStatus } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import type { DataCipher } from '../lib/data-cipher';
import { type Failure, type Result, err, ok } from '../../common/result';
import { digestMatches, hashSecret, randomId, secretMatches } from '../../common/secrets';
import type { Store } from '../store';
import type { StoreTransaction } from '../store/events';
import { refundsOfSessions } from '../store/refunds';
import { listSessions, type SessionListFilter } from '../store/session-list';
import { findQuoteEndpoint } from '../store/quote-endpoints';
import { findSession, insertSessionForLiveKey, type SessionRow } from '../store/sessions';
import { googlePayAmountRefusal } from './payment-request';
import type { SessionAmount } from '../../contracts/payment-data-request';
import { sealAddress, storedAddress, storedEmail } from './personal-data';
import { savingOf } from '../payment-methods/agreement';

const CLIENT_SECRET_SEPARATOR = '_secret_';

/**
 * The merchant's reply (without the widget's view, which the route adds), the row as written, so nobody
 * reads it back, and the shopper's locale the view's amount is to be formatted for, if the merchant named one.
 */
export async function createSession(
  store: Store,
  cipher: DataCipher,
  caller: MerchantCaller,
  body: unknown,
): Promise<Result<{ session: Omit<CreatedSession, 'public_view'>; row: SessionRow; locale: string | undefined; app: App }, Failure>> {
  const app = { id: caller.appId };
  const parsed = CreateSessionBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const input = parsed.data;
  // A setup charges nothing now (the schema refuses an amount with it): its amount is 0.
  const amount = input.amount ?? 0;
  const unpayable = googlePayAmountRefusal(amount, input.currency);
  if (unpayable) return err(unpayable);
  if (input.quote_endpoint && !(await findQuoteEndpoint(store, app.id))) {
    return err({ code: 'quote_endpoint_missing', message: 'quote_endpoint: this application has no quote endpoint to price the session: set one with PUT /api/quote_endpoint first' });
  }
  const now = Date.now();
  const expiresAt = input.expires_at ?? now + SESSION_LIFETIME.defaultMs;
  if (expiresAt < now + SESSION_LIFETIME.minMs || expiresAt > now + SESSION_LIFETIME.maxMs) {
    return err({ code: 'invalid_request', message: 'expires_at: must be from 30 minutes to 7 days from now (ms since the epoch)' });
  }
  const id = `cs_${randomId(16)}`;
  const clientSecret = `${id}${CLIENT_SECRET_SEPARATOR}${randomId(24)}`;
  const row: SessionRow = {
    ...newSessionRow({ id, app_id: app.id, amount, currency: input.currency, country_code: input.country_code, intent: input.intent, client_secret_hash: hashSecret(clientSecret), created: now, expires_at: expiresAt }),
    description: input.description ?? null,
    reference: input.reference ?? null,
    billing_address_on_file_sealed: input.billing_address_on_file ? sealAddress(cipher, input.billing_address_on_file) : null,
    line_items: input.line_items?.length ? JSON.stringify(input.line_items) : null,
    shipping: input.shipping ? JSON.stringify(input.shipping) : null,
    contact: input.contact ? JSON.stringify(input.contact) : null,
    quote_pricing: input.quote_endpoint ? JSON.stringify({ promotion_codes: input.promotion_codes }) : null,
    save_payment_method: input.save_payment_method ? JSON.stringify(input.save_payment_method) : null,
  };
  // Written only while the caller's key is live, and with the app as it is then: the reply's view is made from it.
  const owner = await insertSessionForLiveKey(store, row, caller.keyHash, now);
  if (!owner) return err(unauthenticatedMerchant);
  return ok({ session: { ...merchantView(row, [], cipher), client_secret: clientSecret }, row, locale: input.locale, app: toApp(owner) });
}

/** What every new session's row is made of; the rest of its columns start empty, to be filled by its creator and its payments. */
type NewSession = Pick<SessionRow, 'id' | 'app_id' | 'amount' | 'currency' | 'country_code' | 'intent' | 'client_secret_hash' | 'created' | 'expires_at'>;

/** A new, open session's row: `fields`, and every other column empty. */
export function newSessionRow(fields: NewSession): SessionRow {
  return {
    ...fields,
    status: 'open',
    description: null,
    reference: null,
    attempts: 0,
    outcome: null,
    amount_captured: null,
    amount_refunded: 0,
    updated: fields.created,
    billing_address_on_file_sealed: null,
    billing_address_sealed: null,
    billing_address_check: null,
    address_verification: null,
    line_items: null,
    shipping: null,
    contact: null,
    shipping_address_sealed: null,
    email_sealed: null,
    personal_data_erased: null,
    latest_quote: null,
    shipping_option: null,
    amount_charged: null,
    quote_pricing: null,
    charged_quote: null,
    save_payment_method: null,
    agreement: null,
    payment_method: null,
    payment_method_error: null,
    charge_reason: null,
  };
}

/**
 * GET /api/sessions: a page of the app's sessions. `starting_after` must be
 * one of this app's sessions: another's, or none, is the caller's mistake
 * (400), never an empty page that would read as "no more".
 */
export async function listAppSessions(store: Store, cipher: DataCipher, app: App, query: unknown): Promise<Result<SessionList, Failure>> {
  const parsed = ListSessionsQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  return sessionPage(store, cipher, app, { ...sessionFilterOf(parsed.data), limit: parsed.data.limit }, parsed.data.starting_after);
}

/** The store's filter of the API's query but its paging (the dashboard's adds its own filters to it). */
export const sessionFilterOf = (query: Omit<ListSessionsQuery, 'limit' | 'starting_after'>): Omit<SessionListFilter, 'appId' | 'after' | 'limit'> => ({
  status: query.status,
  paymentStatus: query.payment_status,
  reference: query.reference,
  createdGte: query.created_gte,
  createdLt: query.created_lt,
});

/** A page of the app's sessions under `filter`, after the app's session `startingAfter` (400 if it is none of the app's). */
export async function sessionPage(store: Store, cipher: DataCipher, app: App, filter: Omit<SessionListFilter, 'appId' | 'after'>, startingAfter: string | undefined): Promise<Result<SessionList, Failure>> {
  const cursor = startingAfter === undefined ? undefined : await findSession(store, startingAfter);
  if (startingAfter !== undefined && cursor?.app_id !== app.id) return err({ code: 'invalid_request', message: 'starting_after: no session of this application has this id' });
  const page = await listSessions(store, { ...filter, appId: app.id, after: cursor });
  const refunds = await refundsOfSessions(store, page.rows.map((row) => row.id));
  return ok({ object: 'list', data: page.rows.map((row) => merchantView(row, refunds.get(row.id) ?? [], cipher)), has_more: page.hasMore });
}

/**
 * Whether a view key opens this session's public view (GET /api/sessions/{id}/public?view_key=, and
 * nothing else): the client secret's SHA-256 in base64url, which the widget computes so that its
 * first request is a CORS-simple GET, with no credential header to preflight and the secret itself
 * in no URL. It is the digest the store keeps, so it opens nothing a copy of the store does not
 * already show (docs/decisions.md).
 */
export function viewKeyOpens(session: SessionRow, viewKey: string): boolean {
  return VIEW_KEY.test(viewKey) && digestMatches(Buffer.from(viewKey, 'base64url'), session.client_secret_hash);
}

/** 32 bytes in unpadded base64url: 43 characters, the last of which carries 2 bits (so one of 16). */
const VIEW_KEY = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** Whether a client secret opens this session: it names the session and matches its digest. */
export function clientSecretOpens(session: SessionRow, clientSecret: string): boolean {
  const separator = clientSecret.indexOf(CLIENT_SECRET_SEPARATOR);
  return separator > 0 && clientSecret.slice(0, separator) === session.id && secretMatches(clientSecret, session.client_secret_hash);
}

/** Outcomes parsed, by row: a payment's event and its reply are made from the same row as moved, and read its outcome once. */
const parsedOutcomes = new WeakMap<SessionRow, PaymentOutcome | null>();

export function outcomeOf(row: SessionRow): PaymentOutcome | null {
  let outcome = parsedOutcomes.get(row);
  if (outcome === undefined) parsedOutcomes.set(row, (outcome = row.outcome ? PaymentOutcome.parse(JSON.parse(row.outcome)) : null));
  return outcome;
}

/** The merchant's view of a session, its refunds read from `db` (which may be the transaction that just changed it). */
export async function sessionView(db: Store | StoreTransaction, cipher: DataCipher, row: SessionRow): Promise<Session> {
  return merchantView(row, (await refundsOfSessions(db, [row.id])).get(row.id) ?? [], cipher);
}

/** `refunds`: the session's, oldest first; `cipher` opens its billing addresses. */
export function merchantView(row: SessionRow, refunds: Refund[], cipher: DataCipher): Session {
  const status = SessionStatus.parse(row.status);
  return {
    id: row.id,
    object: 'checkout_session',
    app_id: row.app_id,
    status,
    payment_status: paymentStatusOf({ ...row, status }, row.disputed === 1),
    amount: row.amount,
    currency: row.currency,
    country_code: row.country_code,
    description: row.description,
    reference: row.reference,
    intent: SessionIntent.parse(row.intent),
    attempts: row.attempts,
    outcome: outcomeOf(row),
    amount_captured: row.amount_captured,
    amount_refunded: row.amount_refunded,
    refunds,
    created: row.created,
    updated: row.updated,
    expires_at: row.expires_at,
    billing_address_on_file: storedAddress(cipher, row.billing_address_on_file_sealed, row.personal_data_erased),
    billing_address: storedAddress(cipher, row.billing_address_sealed, row.personal_data_erased),
    billing_address_check: row.billing_address_check ? BillingAddressCheck.parse(JSON.parse(row.billing_address_check)) : null,
    address_verification: row.address_verification ? AddressVerification.parse(JSON.parse(row.address_verification)) : null,
    line_items: lineItemsOf(row),
    shipping: shippingOf(row),
    contact: contactOf(row),
    shipping_address: storedAddress(cipher, row.shipping_address_sealed, row.personal_data_erased),
    email: storedEmail(cipher, row.email_sealed, row.personal_data_erased),
    shipping_option: row.shipping_option ? ChosenShippingOption.parse(JSON.parse(row.shipping_option)) : null,
    amount_charged: row.amount_charged,
    quote_endpoint: row.quote_pricing !== null,
    promotion_codes: quotePricingOf(row)?.promotion_codes ?? false,
    quote: row.charged_quote ? SessionQuote.parse(JSON.parse(row.charged_quote)) : null,
    save_payment_method: savingOf(row) ?? null,
    agreement: row.agreement ? RecordedAgreement.parse(JSON.parse(row.agreement)) : null,
    payment_method: row.payment_method ?? null,
    payment_method_error: row.payment_method_error ? KeepCardError.parse(JSON.parse(row.payment_method_error)) : null,
    charge_reason: row.charge_reason ? MerchantChargeReason.parse(row.charge_reason) : null,
  };
}

/** What the session asks the wallet's sheet: its line items (none: empty), the shipping address and contact details it asks for (null: none). */
export const lineItemsOf = (row: SessionRow): LineItem[] => (row.line_items ? LineItem.array().parse(JSON.parse(row.line_items)) : []);
// A session created without delivery options stored none: it offers none.
export const shippingOf = (row: SessionRow): AskedShipping | null => (row.shipping ? AskedShipping.parse({ options: [], ...(JSON.parse(row.shipping) as object) }) : null);
export const contactOf = (row: SessionRow): AskedContact | null => (row.contact ? AskedContact.parse(JSON.parse(row.contact)) : null);
/** How the merchant's quote endpoint prices the session; null when the session's own prices are its price. */
export const quotePricingOf = (row: SessionRow): QuotePricing | null => (row.quote_pricing ? QuotePricing.parse(JSON.parse(row.quote_pricing)) : null);

/** What the session's Google Pay request (and a quote's update) is built from: its amount, currency and what the sheet shows and asks. */
export const requestedAmountOf = (row: SessionRow): SessionAmount => ({
  id: row.id,
  amount: row.amount,
  currency: row.currency,
  countryCode: row.country_code,
  lineItems: lineItemsOf(row),
  shipping: shippingOf(row),
  contact: contactOf(row),
  quotePricing: quotePricingOf(row),
});
