/**
 * The merchant's kept cards (secret key): listed, read, and detached for good. A detach is final here at
 * once (the event `payment_method.detached`, and every merchant-initiated charge on it refused before the
 * service), then told to the service, which forgets the card; a service that could not be told is told by
 * the next reconciliation pass.
 */
import type { App } from '../apps';
import { ListPaymentMethodsQuery, type PaymentMethod, type PaymentMethodList, type PaymentMethodStatus } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import type { Logger } from '../../common/logging';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { recordEvent } from '../store/events';
import { detachPaymentMethodRow, findPaymentMethod, listPaymentMethods, livePaymentMethodsOfService, markServiceDetached, type PaymentMethodRow, unconfirmedDetaches } from '../store/payment-methods';
import { paymentMethodView } from './views';

export interface PaymentMethodDependencies {
  store: Store;
  service: ServiceClient;
  logger: Logger;
}

const noSuchPaymentMethod: Failure = { code: 'not_found', message: 'No such payment method' };

async function appPaymentMethod(store: Store, app: App, id: string): Promise<PaymentMethodRow | undefined> {
  const row = await findPaymentMethod(store, id);
  return row?.app_id === app.id ? row : undefined;
}

/**
 * A page of the app's payment methods, newest first, as the API shows them (the API's list, and the dashboard's Saved
 * cards): `starting_after` must be one of this app's, as GET /api/sessions wants one of its sessions. One instant for
 * the status filter and the views: a card that expires meanwhile is listed under the status it shows.
 */
export async function appPaymentMethodPage(
  store: Store,
  app: App,
  query: { customer?: string | undefined; status?: PaymentMethodStatus | undefined; limit: number; starting_after?: string | undefined },
): Promise<Result<PaymentMethodList, Failure>> {
  const { customer, status, limit, starting_after } = query;
  const cursor = starting_after === undefined ? undefined : await appPaymentMethod(store, app, starting_after);
  if (starting_after !== undefined && !cursor) return err({ code: 'invalid_request', message: 'starting_after: no payment method of this application has this id' });
  const now = Date.now();
  const page = await listPaymentMethods(store, { appId: app.id, customer, status: status && { is: status, at: now }, after: cursor, limit });
  return ok({ object: 'list', data: page.rows.map((row) => paymentMethodView(row, now)), has_more: page.hasMore });
}

/** GET /api/payment_methods. */
export async function listAppPaymentMethods(store: Store, app: App, query: unknown): Promise<Result<PaymentMethodList, Failure>> {
  const parsed = ListPaymentMethodsQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  return appPaymentMethodPage(store, app, parsed.data);
}

export async function getAppPaymentMethod(store: Store, app: App, id: string): Promise<Result<PaymentMethod, Failure>> {
  const row = await appPaymentMethod(store, app, id);
  return row ? ok(paymentMethodView(row)) : err(noSuchPaymentMethod);
}

/** The service's idempotency key for detaching one of our payment methods' card. */
const detachIdempotencyKey = (id: string): string => `${id}:detach`;

/** POST /api/payment_methods/{id}/detach: the payment method as detached (at once, or before: detaching again answers it as it is). */
export async function detachAppPaymentMethod(deps: PaymentMethodDependencies, app: App, id: string): Promise<Result<PaymentMethod, Failure>> {
  const row = await appPaymentMethod(deps.store, app, id);
  if (!row) return err(noSuchPaymentMethod);
  const now = Date.now();
  const detached = await deps.store.transaction().execute(async (trx) => {
    const moved = await detachPaymentMethodRow(trx, id, now);
    if (moved) await recordEvent(trx, app.id, 'payment_method.detached', paymentMethodView(moved, now));
    return moved;
  });
  if (detached) await tellService(deps, { id, service_payment_method: detached.service_payment_method, merchant_id: app.merchantId }).catch((error: unknown) => deps.logger.warn({ err: error, paymentMethod: id }, 'a detach could not be told to the payment service; reconciliation tells it'));
  // The row this detach wrote is what the view shows (telling the service changes nothing in it); one detached before is read again.
  const current = detached ?? (await findPaymentMethod(deps.store, id));
  return current ? ok(paymentMethodView(current)) : err(noSuchPaymentMethod);
}

/**
 * Tells the service a payment method was detached; true once it knows. A card the customer kept again
 * since (the service answers the same kept card for the same customer and card until it is told) is
 * another live payment method's now: the service keeps it, and there is nothing left to tell.
 */
async function tellService(deps: PaymentMethodDependencies, row: { id: string; service_payment_method: string; merchant_id: string }): Promise<boolean> {
  const keptAgain = (await livePaymentMethodsOfService(deps.store, row.service_payment_method)).length > 0;
  if (!keptAgain) {
    const reply = await deps.service.detachPaymentMethod(row.service_payment_method, { merchantId: row.merchant_id, idempotencyKey: detachIdempotencyKey(row.id) });
    // Not found: the service does not keep it (any more).
    if (!reply.ok && reply.error.serviceCode !== 'resource_missing') return false;
  }
  await markServiceDetached(deps.store, row.id, Date.now());
  return true;
}

/** Detaches told per pass at most. */
const DETACH_BATCH = 50;

/** Reconciliation's part: tells the service of every detach it has not confirmed; how many it now knows of. */
export async function confirmDetaches(deps: PaymentMethodDependencies): Promise<number> {
  let told = 0;
  for (const row of await unconfirmedDetaches(deps.store, DETACH_BATCH)) if (await tellService(deps, row)) told++;
  return told;
}
