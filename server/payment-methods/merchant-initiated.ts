/**
 * POST /api/payment_methods/{id}/charges: a merchant-initiated charge of a kept card (docs/saved-cards.md).
 * It is made as a checkout session of intent `merchant_initiated`, created here and charged at once, so
 * that it is everything a shopper's payment is: one attempt claimed (its request sealed) before the
 * service is called and its outcome recorded after, an unknown outcome settled by reconciliation, its
 * `session.*` events, refunds, the merchant's listing and the dashboard. The session's id is derived from
 * the merchant's Idempotency-Key (required), so a retry whose first request died before its reply was kept
 * finds the charge that request made instead of making a second.
 */
import { createHash } from 'node:crypto';
import type { App } from '../apps';
import { ChargePaymentMethodBody, type PaymentMethod, SESSION_LIFETIME, type Session, USAGE_COVERING } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { hashSecret, randomId } from '../../common/secrets';
import { buildCharge } from '../checkout/build-charge';
import { attemptCharge, type ChargeDependencies } from '../checkout/pay';
import { newSessionRow, sessionView } from '../checkout/sessions';
import { findPaymentMethod } from '../store/payment-methods';
import { findSession, insertSession } from '../store/sessions';
import { paymentMethodView } from './views';

const noSuchPaymentMethod: Failure = { code: 'not_found', message: 'No such payment method' };

/** The session a merchant's request makes, named by its Idempotency-Key: the same key is the same charge. */
const sessionIdFor = (app: App, paymentMethodId: string, merchantKey: string): string =>
  `cs_${createHash('sha256').update(`${app.id}\0${paymentMethodId}\0${merchantKey}`).digest('base64url').slice(0, 22)}`;

/** Why the kept card may not be charged so, before the service is asked; undefined when it may. */
function refusalOf(method: PaymentMethod, charge: ChargePaymentMethodBody): Failure | undefined {
  if (method.customer !== charge.customer) return { code: 'customer_mismatch', message: 'customer: this payment method is kept for another customer' };
  if (method.status === 'detached') return { code: 'payment_method_detached', message: 'This payment method was detached: the shopper saves the card again with a new session' };
  if (method.status === 'expired') {
    return { code: 'payment_method_expired', message: `This payment method's card expired (${method.card.exp_month}/${method.card.exp_year}): the shopper saves it again with a new session, or the card update renews it` };
  }
  const { agreement } = method;
  const covering = USAGE_COVERING[charge.reason];
  if (agreement.usage !== covering) {
    return { code: 'not_covered_by_agreement', message: `reason: a ${charge.reason} charge needs the shopper's ${covering} agreement, and this payment method's is ${agreement.usage}` };
  }
  const terms = agreement.recurring ?? agreement.reload;
  if (terms && charge.currency !== agreement.currency) return { code: 'not_covered_by_agreement', message: `currency: the shopper agreed to charges in ${agreement.currency}` };
  if (terms && charge.amount > terms.amount) return { code: 'not_covered_by_agreement', message: `amount: the shopper agreed to ${terms.amount} (minor units) a charge` };
  return undefined;
}

/**
 * The merchant-initiated charge: refused before the service when the card is another app's (not found),
 * another customer's, detached, expired, or not agreed to for this reason and amount; else the session,
 * as the charge's attempt left it (succeeded, declined with the issuer's code, failed, or pending while
 * its outcome is being confirmed). A retry under the same key answers that session as it is now.
 */
export async function chargePaymentMethod(deps: ChargeDependencies, app: App, paymentMethodId: string, body: unknown, merchantKey: string): Promise<Result<Session, Failure>> {
  const parsed = ChargePaymentMethodBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const charge = parsed.data;
  const row = await findPaymentMethod(deps.store, paymentMethodId);
  if (!row || row.app_id !== app.id) return err(noSuchPaymentMethod);
  const sessionId = sessionIdFor(app, row.id, merchantKey);
  const made = await findSession(deps.store, sessionId);
  // Made by an earlier run of this request: charged (or being charged) once, whatever happens to the card since.
  if (made && made.status !== 'open') return ok(await sessionView(deps.store, deps.cipher, made));
  const refusal = refusalOf(paymentMethodView(row), charge);
  if (refusal) return err(refusal);
  if (!made) {
    const now = Date.now();
    await insertSession(deps.store, {
      ...newSessionRow({
        id: sessionId,
        app_id: app.id,
        amount: charge.amount,
        currency: charge.currency,
        country_code: row.country_code,
        intent: 'merchant_initiated',
        // No shopper, no widget: a client secret nobody is given opens nothing.
        client_secret_hash: hashSecret(randomId(24)),
        created: now,
        expires_at: now + SESSION_LIFETIME.defaultMs,
      }),
      description: charge.description ?? null,
      reference: charge.reference ?? null,
      payment_method: row.id,
      charge_reason: charge.reason,
    });
  }
  const session = made ?? (await findSession(deps.store, sessionId));
  if (!session) return err(noSuchPaymentMethod);
  const request = buildCharge(session, { type: 'payment_method', payment_method: row.service_payment_method }, undefined, {
    merchantInitiated: { initiator: 'merchant', reason: charge.reason, network_transaction_reference: row.network_transaction_reference },
  });
  // A claim lost to a concurrent run of this request (a crashed one's, taken over) leaves that run's charge: the session as it now is.
  await attemptCharge(deps, app, sessionId, { from: ['open'], changes: { amount_charged: charge.amount } }, request);
  const current = await findSession(deps.store, sessionId);
  return current ? ok(await sessionView(deps.store, deps.cipher, current)) : err(noSuchPaymentMethod);
}
