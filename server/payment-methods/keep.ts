/**
 * Keeping the card of a paid saving session (docs/saved-cards.md): the payment service is asked to keep
 * the card of the session's charge for the customer (under the session's own idempotency key, so any
 * number of asks keep it once), then the backend's payment method is written: a new one
 * (`payment_method.attached`), or, for a card the customer already has kept (the service's fingerprint),
 * the same one with the new agreement, card and network reference (`payment_method.updated`). Done right
 * after the payment by its request; a payment whose outcome was confirmed later, or whose request failed
 * meanwhile, is kept by the next reconciliation pass.
 */
import { createHash } from 'node:crypto';
import { type App, getApp } from '../apps';
import { type KeptPaymentMethod, type PaymentMethodAgreement, type PaymentOutcome, RecordedAgreement, type SavePaymentMethod } from '../../contracts';
import { PAID_STATUSES } from '../../contracts/session-states';
import type { Logger } from '../../common/logging';
import { randomId } from '../../common/secrets';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { recordEvent } from '../store/events';
import { findLivePaymentMethod, insertPaymentMethod, updateLivePaymentMethod } from '../store/payment-methods';
import { findSession, recordKeptCard, type SessionRow, sessionsWithCardToKeep } from '../store/sessions';
import { outcomeOf } from '../checkout/sessions';
import { savingOf } from './agreement';
import { paymentMethodView } from './views';

export interface KeepDependencies {
  store: Store;
  service: ServiceClient;
  logger: Logger;
}

/**
 * The key the service knows a customer by: derived from the application and the merchant's reference, so
 * that the reference itself never leaves the backend, and two applications' customers never meet.
 */
export const serviceCustomerKey = (appId: string, customer: string): string => `cus_${createHash('sha256').update(`${appId}\0${customer}`).digest('base64url').slice(0, 32)}`;

/** The service's idempotency key for keeping a session's card: one per session, however often it is asked. */
export const keepIdempotencyKey = (sessionId: string): string => `${sessionId}:payment_method`;

/** The outcomes that took (or held) the money: the card is kept from their charge. */
const KEEPING_OUTCOMES: readonly PaymentOutcome['status'][] = ['succeeded', 'authorized'];

/**
 * After a payment of the session: keeps its card if it saves one and the payment went through. A failure is left to reconciliation, never to the payment's reply.
 * Whether a session saves a card is set at its creation and never changes: the session as the request read it tells, without another read.
 */
export async function keepCardAfterPayment(deps: KeepDependencies, app: App, session: Pick<SessionRow, 'id' | 'save_payment_method'>, outcome: PaymentOutcome): Promise<void> {
  if (!KEEPING_OUTCOMES.includes(outcome.status) || !savingOf(session)) return;
  try {
    await keepCard(deps, app, session.id);
  } catch (error) {
    deps.logger.warn({ err: error, session: session.id }, 'the card could not be kept after the payment; reconciliation keeps it');
  }
}

/** What keeping came to: kept (now, or by another before), refused by the service, or unknown (to try again). */
export type KeepResult = 'kept' | 'refused' | 'unknown' | 'nothing_to_keep';

/** Keeps the card of the session if it is a paid saving session whose card is neither kept nor refused yet. */
export async function keepCard(deps: KeepDependencies, app: App, sessionId: string): Promise<KeepResult> {
  const session = await findSession(deps.store, sessionId);
  const save = session && savingOf(session);
  const chargeId = session && outcomeOf(session)?.charge_id;
  if (!session || !save || !chargeId || session.payment_method || session.payment_method_error || !PAID_STATUSES.includes(session.status as (typeof PAID_STATUSES)[number])) return 'nothing_to_keep';
  const reply = await deps.service.keepPaymentMethod({ charge: chargeId, customer: serviceCustomerKey(app.id, save.customer) }, { merchantId: app.merchantId, idempotencyKey: keepIdempotencyKey(session.id) });
  if (!reply.ok) {
    if (reply.error.outcomeUnknown) return 'unknown';
    const refusal = JSON.stringify({ code: reply.error.serviceCode ?? reply.error.code, message: reply.error.message });
    await recordKeptCard(deps.store, session.id, { payment_method_error: refusal });
    deps.logger.error({ session: session.id, code: reply.error.serviceCode ?? reply.error.code }, 'the payment service would not keep the card of a paid saving session');
    return 'refused';
  }
  await recordKeptPaymentMethod(deps.store, session, save, reply.value);
  return 'kept';
}

/**
 * Writes the backend's payment method for the card the service kept, and the session's link to it, in one
 * transaction with its event. The session's link is a compare-and-set: of a request and a reconciliation
 * pass keeping the same session's card, one writes.
 */
async function recordKeptPaymentMethod(store: Store, session: SessionRow, save: SavePaymentMethod, kept: KeptPaymentMethod): Promise<void> {
  const agreement: PaymentMethodAgreement = {
    ...RecordedAgreement.parse(JSON.parse(session.agreement ?? 'null')),
    usage: save.usage,
    recurring: save.recurring ?? null,
    reload: save.reload ?? null,
    currency: session.currency,
    description: save.description ?? null,
    session_id: session.id,
  };
  const now = Date.now();
  const card = { network: kept.card.network, last4: kept.card.last4, exp_month: kept.card.exp_month, exp_year: kept.card.exp_year };
  const columns = {
    ...card,
    service_payment_method: kept.id,
    token_kind: kept.card.auth_method === 'CRYPTOGRAM_3DS' ? 'network_token' : 'card',
    agreement: JSON.stringify(agreement),
    network_transaction_reference: kept.network_transaction_reference,
    country_code: session.country_code,
    updated: now,
  };
  await store.transaction().execute(async (trx) => {
    const existing = await findLivePaymentMethod(trx, session.app_id, save.customer, kept.fingerprint);
    const id = existing?.id ?? `pm_${randomId(16)}`;
    if (!(await recordKeptCard(trx, session.id, { payment_method: id }))) return;
    if (existing) {
      const updated = await updateLivePaymentMethod(trx, id, columns);
      if (updated) await recordEvent(trx, session.app_id, 'payment_method.updated', paymentMethodView(updated, now));
      return;
    }
    const row = { id, app_id: session.app_id, customer: save.customer, fingerprint: kept.fingerprint, created: now, detached: null, service_detached: null, ...columns };
    await insertPaymentMethod(trx, row);
    await recordEvent(trx, session.app_id, 'payment_method.attached', paymentMethodView(row, now));
  });
}

/** Sessions kept per pass at most: each is one call to the service. */
const KEEP_BATCH = 50;

/** Reconciliation's part: keeps the card of every paid saving session not kept yet (a payment settled late, or whose request failed after it). */
export async function keepPendingCards(deps: KeepDependencies): Promise<number> {
  let kept = 0;
  for (const { id, app_id: appId } of await sessionsWithCardToKeep(deps.store, PAID_STATUSES, KEEP_BATCH)) {
    const app = await getApp(deps.store, appId);
    if (app && (await keepCard(deps, app, id)) === 'kept') kept++;
  }
  return kept;
}
