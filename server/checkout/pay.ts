/**
 * Payment attempts of a session, written to the store before and after the
 * call to the service so that every attempt ends in exactly one known state.
 * An attempt whose card needs 3-D Secure leads to an Authentication Session;
 * once it is authenticated, a new attempt (its own idempotency key) charges
 * the payment method the service made from the card.
 */
import type { App } from '../apps';
import { type AddressVerification, type AskedShipping, type AssuranceDetails, AuthenticateBody, type BillingDetails, type ChallengeFraming, type Charge, type ChargeRequest, PayBody, type PaymentData, type PaymentOutcome, SessionStatus } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import { type DataCipher, rememberingSeals } from '../lib/data-cipher';
import { addressVerificationOf, type ChargeBody, type ChargeCall, type ServiceClient, type ServiceFailure, serializeCharge } from '../service-client';
import { type Store, storeFailureOf } from '../store';
import { type AttemptOutcome, latestAttempt, oneMoreAttempt } from '../store/attempts';
import type { ClaimedSession } from '../store/attempt-moves';
import { billingDetailsFrom } from './billing';
import { buildCharge, chargedAmountOf, type ChargeSource } from './build-charge';
import { contactOf, outcomeOf, shippingOf } from './sessions';
import { findSession, type SessionChanges, type SessionExpectations, type SessionRow } from '../store/sessions';
import { chargeSourceFor, type DirectDecryption, parseWalletToken } from './charge-source';
import { acceptedAgreement } from '../payment-methods/agreement';
import { shopperColumns } from './personal-data';
import type { MerchantQuoteOptions } from './merchant-quotes';
import { priceOfPayment } from './quotes';
import { claimSession, conflictFor, moveClaimedSession, recordAttemptAndMove, type SessionStore } from './states';

export interface PayDependencies {
  store: Store;
  service: ServiceClient;
  direct: DirectDecryption;
  /** Seals the charge request kept while an attempt's outcome is unknown. */
  cipher: DataCipher;
  /** Shared with this instance's reconciler (startReconciler). */
  abandoned: AbandonedAttempts;
  /** This instance's id, written on its attempts: while its heartbeat is live, other instances leave them to its requests. */
  instanceId: string;
  /** How the merchant's quote endpoint is reached, for the sessions it prices (checked again at payment). */
  merchantQuotes: MerchantQuoteOptions;
}

/** What an attempt needs, whatever made it: a shopper's payment, or a merchant's charge of a kept card (payment-methods/merchant-initiated.ts). */
export type ChargeDependencies = Pick<PayDependencies, 'store' | 'service' | 'cipher' | 'abandoned' | 'instanceId'>;

/**
 * Attempts whose request gave up after the service was called because the
 * store failed: in flight in the store, but nobody is waiting on them any
 * more, so reconciliation need not give them a live request's time. Known
 * only to the instance that gave up; another instance's reconciler settles
 * them after that time.
 */
export type AbandonedAttempts = Set<string>;

/**
 * What a payment came to, and its session as the request's own move left it,
 * for the reply; undefined when another request or reconciliation moved it
 * first (the reply then reads it).
 */
export interface Paid {
  outcome: PaymentOutcome;
  session: SessionRow | undefined;
}

/** `framing`: the page the widget runs on, which a 3-D Secure challenge reports to, and the pages that frame it (iframe mode). */
export async function pay(dependencies: PayDependencies, app: App, session: SessionRow, body: unknown, framing: ChallengeFraming): Promise<Result<Paid, Failure>> {
  // The billing address this payment seals is opened again for its event: from memory, not decrypted.
  const deps: PayDependencies = { ...dependencies, cipher: rememberingSeals(dependencies.cipher) };
  const parsed = PayBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const asked = { shipping: shippingOf(session), contact: contactOf(session) };
  // What the page could have written is checked before the token is opened (a direct-mode token opened is a token used).
  const shipping = shippingAddressOf(parsed.data.payment_data, asked.shipping);
  if (!shipping.ok) return shipping;
  // A session that keeps the card is paid only with the shopper's agreement to what it is kept for (docs/saved-cards.md).
  const agreed = acceptedAgreement(app, session, parsed.data.agreement, Date.now());
  if (!agreed.ok) return agreed;
  const price = await priceOfPayment(deps, session, parsed.data.quote_id, parsed.data.payment_data);
  if (!price.ok) return price;
  // The session as this attempt charges it: its price is the server's (the latest quote's total, with delivery options or the merchant's quotes).
  const priced: SessionRow = { ...session, ...price.value.columns };

  const paymentMethod = parsed.data.payment_data.paymentMethodData;
  const token = parseWalletToken(paymentMethod.tokenizationData.token);
  if (!token.ok) return token;
  const source = await chargeSourceFor(app, token.value, deps.direct);
  if (!source.ok) return source;

  const assurance = assuranceOf(paymentMethod.info.assuranceDetails);
  const walletAddress = paymentMethod.info.billingAddress;
  const billing = walletAddress && billingDetailsFrom(walletAddress);
  // The billing address only: the charge API has no field for a shipping address, which never stands in for it.
  const request = buildCharge(priced, source.value, billing, { requireAuthentication: app.threeDs === 'always_for_pan_only' });
  // The merchant's view carries what the shopper gave, the address check and the price from the moment the attempt is claimed.
  const addressColumns = shopperColumns(deps.cipher, session.billing_address_on_file_sealed, asked, { billing, shipping: shipping.value, email: parsed.data.payment_data.email });
  // Claimed from the status the session was read in: if it moved since, someone else got there first; if it was quoted again, the price is stale.
  const claim = { from: [SessionStatus.parse(session.status)], changes: { ...addressColumns, ...price.value.columns, ...agreed.value }, ...(price.value.quote !== undefined && { expected: { latest_quote: price.value.quote } }) };
  const attempt = await chargeAttempt(deps, app, session.id, claim, source.value, serializeCharge(request));
  if (!attempt.ok) return attempt;
  const { attempt: claimed, reply } = attempt.value;
  return ok(
    await abandonedIfStoreFails(deps, claimed.id, () =>
      reply.ok && needsAuthentication(reply.value) ? startAuthentication(deps, app, priced, claimed, reply.value, framing, assurance) : settle(deps, session.id, claimed, reply, assurance),
    ),
  );
}

/**
 * The shipping address the wallet returned, when the session asked for one: in one of the session's countries,
 * else the payment is refused before any charge (the wallet offers only those, so another was written by the page).
 */
function shippingAddressOf(paymentData: PaymentData, asked: AskedShipping | null): Result<BillingDetails | undefined, Failure> {
  if (!asked) return ok(undefined);
  const address = paymentData.shippingAddress;
  if (!address) return err({ code: 'invalid_request', message: 'payment_data.shippingAddress: this checkout asks for a shipping address, and the wallet gave none' });
  if (!asked.countries.includes(address.countryCode)) {
    return err({ code: 'shipping_country_not_allowed', message: `This shop does not ship to ${address.countryCode}: choose a shipping address in ${asked.countries.join(', ')}` });
  }
  return ok(billingDetailsFrom(address));
}

/** Records what followed the service's answer; if the store fails meanwhile, the attempt is left to reconciliation at once. */
async function abandonedIfStoreFails<T>(deps: ChargeDependencies, attemptId: string, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (error) {
    if (storeFailureOf(error)) deps.abandoned.add(attemptId);
    throw error;
  }
}

type Assurance = PaymentOutcome['assurance_details'];

/** The wallet's assuranceDetails, for the merchant's view of the outcome; absent when the wallet sent none. */
function assuranceOf(details: AssuranceDetails | undefined): Assurance {
  return details && { account_verified: details.accountVerified ?? null, card_holder_authenticated: details.cardHolderAuthenticated ?? null };
}

/**
 * POST /api/sessions/{id}/authenticate: the shopper finished (or cancelled)
 * the challenge. The service says how it went; the browser is not trusted for it.
 */
export async function authenticate(deps: PayDependencies, app: App, session: SessionRow, body: unknown): Promise<Result<Paid, Failure>> {
  const parsed = AuthenticateBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  if (session.status !== 'requires_authentication') return err(conflictFor(session.status, 'There is no authentication to complete for this checkout'));
  const attempt = await latestAttempt(deps.store, session.id);
  if (!attempt?.authentication_session || !attempt.payment_method) return err(conflictFor(session.status, 'There is no authentication to complete for this checkout'));
  const declineAuthentication = (code: 'authentication_failed' | 'authentication_abandoned') => endAuthentication(deps, session, attempt.id, code);
  if (parsed.data.cancel) return declineAuthentication('authentication_abandoned');

  const authentication = await deps.service.getAuthenticationSession(attempt.authentication_session, app.merchantId);
  if (!authentication.ok) return err({ code: 'service_unavailable', message: 'The authentication could not be confirmed with the payment service; try again' });
  switch (authentication.value.status) {
    case 'challenge_required':
      return err({ code: 'authentication_pending', message: 'The authentication has not been completed yet' });
    case 'failed':
      return declineAuthentication('authentication_failed');
    case 'expired':
      return declineAuthentication('authentication_abandoned');
    case 'authenticated':
      return payAuthenticated(deps, app, session, { paymentMethod: attempt.payment_method, authenticationSession: attempt.authentication_session }, outcomeOf(session)?.assurance_details);
  }
}

/**
 * What an attempt came to: its outcome, and, when a charge answered it, the card issuer's address
 * verification of that charge (for the merchant's view only: never part of the outcome, which the
 * widget reads too).
 */
export interface AttemptResult {
  outcome: PaymentOutcome;
  addressVerification?: AddressVerification;
}

/** Calls the service and says what its answer means (reconciliation's replay of an attempt). */
export async function chargeOutcome(service: ServiceClient, body: ChargeBody, call: ChargeCall): Promise<AttemptResult> {
  return resultOf(await service.createCharge(body, call));
}

function resultOf(reply: Result<Charge, ServiceFailure>, assurance?: Assurance): AttemptResult {
  return reply.ok ? { outcome: outcomeOfCharge(reply.value, assurance), addressVerification: addressVerificationOf(reply.value) } : { outcome: outcomeOfFailure(reply.error) };
}

interface ClaimedAttempt {
  id: string;
  /** The session as the claim left it (and the attempt's idempotency key): the outcome's move starts from it. */
  session: ClaimedSession;
}

/**
 * Claims the session for a new attempt, records the attempt with its request
 * sealed (written before the call, so that whatever happens next, no reply or
 * a crash, it can be replayed with the same key), and calls the service.
 */
async function chargeAttempt(
  deps: ChargeDependencies,
  app: App,
  sessionId: string,
  claim: Claim,
  source: ChargeSource,
  body: ChargeBody,
): Promise<Result<{ attempt: ClaimedAttempt; reply: Result<Charge, ServiceFailure> }, Failure>> {
  const attempt = await claimAttempt(deps, sessionId, claim, source.type, deps.cipher.seal(body));
  if (!attempt.ok) return attempt;
  const reply = await deps.service.createCharge(body, { merchantId: app.merchantId, idempotencyKey: attempt.value.session.idempotencyKey });
  return ok({ attempt: attempt.value, reply });
}

/**
 * How an attempt claims its session: from one of the statuses `from`, writing `changes`; with `expected`, only
 * while the session still holds it (the latest quote the payment was priced by).
 */
export interface Claim {
  from: readonly SessionStatus[];
  changes?: SessionChanges;
  expected?: SessionExpectations;
}

/**
 * Moves the session to `processing` (with the claim's changes) and records the attempt in one
 * transaction: of two concurrent payments only one can claim the session, and a payment priced
 * by a quote cannot claim it once another quote replaced that one. The previous attempt's
 * address verification goes: the new attempt's charge answers its own.
 */
async function claimAttempt(
  { store, instanceId }: ChargeDependencies,
  sessionId: string,
  { from, changes = {}, expected = {} }: Claim,
  sourceType: string,
  requestSealed: string,
): Promise<Result<ClaimedAttempt, Failure>> {
  const id = `att_${randomId(12)}`;
  const claimed = await claimSession(store, sessionId, from, { ...changes, ...oneMoreAttempt, address_verification: null }, expected, { id, sourceType, requestSealed, instanceId });
  if (claimed) return ok({ id, session: claimed });
  const current = await findSession(store, sessionId);
  if (current && from.includes(SessionStatus.parse(current.status)) && expected.latest_quote !== undefined && current.latest_quote !== expected.latest_quote) {
    return err({ code: 'quote_mismatch', message: 'quote_id: this checkout was quoted again while the payment was being checked: review your choices and pay again' });
  }
  return err(conflictFor(current?.status, 'This checkout cannot take a payment now'));
}

/**
 * A wallet charge the issuer refused for want of 3-D Secure, on a card the
 * service kept as a payment method. A payment-method charge never leads to
 * another authentication: it already carried one.
 */
const needsAuthentication = (charge: Charge): boolean =>
  charge.status === 'failed' && charge.failure_code === 'authentication_required' && charge.payment_method !== null && charge.source_type !== 'payment_method';

/**
 * Creates the Authentication Session for a charge that needs one. Frictionless:
 * pays at once; a challenge: the shopper is sent to it; refused: a decline.
 * Nothing was charged whatever happens here, so a failure to start 3-D Secure
 * is `failed` (pay again), never `pending`.
 */
async function startAuthentication(
  deps: PayDependencies,
  app: App,
  session: SessionRow,
  attempt: ClaimedAttempt,
  charge: Charge,
  framing: ChallengeFraming,
  assurance: Assurance,
): Promise<Paid> {
  const paymentMethod = charge.payment_method ?? '';
  const created = await deps.service.createAuthenticationSession(
    { payment_method: paymentMethod, amount: chargedAmountOf(session), currency: session.currency.toLowerCase(), ...framing },
    { merchantId: app.merchantId, idempotencyKey: `${attempt.session.idempotencyKey}:authentication` },
  );
  const declined = outcomeOfCharge(charge, assurance);
  // The refused charge's verification stands until the authenticated charge answers its own.
  const addressVerification = addressVerificationOf(charge);
  if (!created.ok) {
    const outcome: PaymentOutcome = { ...declined, status: 'failed', failure_code: 'authentication_unavailable', failure_message: 'The card needs 3-D Secure, which could not be started; nothing was charged' };
    return { outcome, session: await recordOutcome(deps, session.id, attempt.id, outcome, { addressVerification, claimed: attempt.session }) };
  }
  const authentication = created.value;
  const challenge: PaymentOutcome = { ...declined, status: 'requires_authentication', ...(authentication.challenge_url && { challenge_url: authentication.challenge_url }) };
  const ids = { authentication_session: authentication.id, payment_method: paymentMethod };
  if (authentication.status === 'failed' || authentication.status === 'expired') {
    const outcome: PaymentOutcome = { ...declined, failure_code: 'authentication_failed', failure_message: 'The card issuer did not authenticate the payment' };
    return { outcome, session: await recordOutcome(deps, session.id, attempt.id, outcome, { attempt: ids, addressVerification, claimed: attempt.session }) };
  }
  const challenged: Paid = { outcome: challenge, session: await recordOutcome(deps, session.id, attempt.id, challenge, { attempt: ids, addressVerification, claimed: attempt.session }) };
  if (authentication.status === 'challenge_required') return challenged;
  const paid = await payAuthenticated(deps, app, session, { paymentMethod, authenticationSession: authentication.id }, assurance);
  // Only a concurrent payment can have claimed the session in between: the challenge outcome stands for this request, the session as it is now.
  return paid.ok ? paid.value : { outcome: challenge, session: undefined };
}

/** The charge after 3-D Secure: the payment method, with the session that authenticated it, as a new attempt. */
async function payAuthenticated(
  deps: PayDependencies,
  app: App,
  session: SessionRow,
  authenticated: { paymentMethod: string; authenticationSession: string },
  assurance: Assurance,
): Promise<Result<Paid, Failure>> {
  const request = buildCharge(session, { type: 'payment_method', payment_method: authenticated.paymentMethod }, undefined, { authenticationSession: authenticated.authenticationSession });
  return attemptCharge(deps, app, session.id, { from: ['requires_authentication'] }, request, assurance);
}

/**
 * One attempt of a charge with no 3-D Secure to follow: claimed (its request sealed) before the service
 * is called, its outcome recorded after, unknown ones left to reconciliation. A payment after 3-D Secure,
 * and a merchant's charge of a kept card, are made this way.
 */
export async function attemptCharge(deps: ChargeDependencies, app: App, sessionId: string, claim: Claim, request: ChargeRequest, assurance?: Assurance): Promise<Result<Paid, Failure>> {
  const attempt = await chargeAttempt(deps, app, sessionId, claim, request.source_data, serializeCharge(request));
  if (!attempt.ok) return attempt;
  const { attempt: claimed, reply } = attempt.value;
  return ok(await abandonedIfStoreFails(deps, claimed.id, () => settle(deps, sessionId, claimed, reply, assurance)));
}

/** 3-D Secure ended without authentication: a decline the shopper may retry, with this card or another. */
async function endAuthentication(
  deps: SessionStore,
  session: SessionRow,
  attemptId: string,
  code: 'authentication_failed' | 'authentication_abandoned',
): Promise<Result<Paid, Failure>> {
  const previous = outcomeOf(session);
  const outcome: PaymentOutcome = {
    status: 'declined',
    charge_id: previous?.charge_id ?? null,
    card: previous?.card ?? null,
    failure_code: code,
    failure_message: code === 'authentication_failed' ? 'The card issuer did not authenticate the payment' : 'The authentication was not completed',
  };
  const moved = await recordOutcome(deps, session.id, attemptId, outcome, { from: ['requires_authentication'] });
  return moved ? ok({ outcome, session: moved }) : err({ code: 'payment_in_progress', message: 'A payment for this checkout is already being processed' });
}

async function settle(deps: SessionStore, sessionId: string, attempt: ClaimedAttempt, reply: Result<Charge, ServiceFailure>, assurance: Assurance): Promise<Paid> {
  const { outcome, addressVerification } = resultOf(reply, assurance);
  return { outcome, session: await recordOutcome(deps, sessionId, attempt.id, outcome, { addressVerification, claimed: attempt.session }) };
}

function outcomeOfCharge(charge: Charge, assurance?: Assurance): PaymentOutcome {
  return {
    status: charge.status === 'succeeded' ? 'succeeded' : charge.status === 'held' ? 'authorized' : 'declined',
    charge_id: charge.id,
    card: charge.card,
    failure_code: charge.failure_code,
    failure_message: charge.failure_message,
    ...(assurance && { assurance_details: assurance }),
  };
}

/**
 * A refusal by the service means nothing was charged. Anything else (no
 * reply, a 5xx) leaves the outcome unknown: it is recorded as pending, never
 * guessed, and the shopper is told we are confirming it.
 */
function outcomeOfFailure(failure: ServiceFailure): PaymentOutcome {
  return {
    status: failure.outcomeUnknown ? 'pending' : 'failed',
    charge_id: null,
    card: null,
    failure_code: failure.serviceCode ?? failure.code,
    failure_message: failure.outcomeUnknown ? 'We are confirming your payment with the payment service' : failure.message,
  };
}

/** The outcome's card, and a decline's or failure's code, as the session's search columns (migration 0030); a success keeps the last decline's code. */
const searchColumnsOf = (outcome: PaymentOutcome) => ({
  card_network: outcome.card?.network ?? null,
  card_last4: outcome.card?.last4 ?? null,
  ...((outcome.status === 'declined' || outcome.status === 'failed') && outcome.failure_code !== null && { decline_code: outcome.failure_code }),
});

/**
 * Records an attempt's outcome on it, and moves its session (from `from`,
 * processing or pending by default) to the outcome's status, with the
 * issuer's address verification of the charge when one answered: the session
 * as moved, undefined when it was not in one of those any more. A known
 * outcome drops the sealed request, which is no longer needed. `claimed`: the
 * session as the attempt's claim left it, when this is the first move since:
 * then, on PostgreSQL, all of it is one statement (moveClaimedSession).
 */
export async function recordOutcome(
  { store, cipher }: SessionStore,
  sessionId: string,
  attemptId: string,
  outcome: PaymentOutcome,
  options: { from?: readonly SessionStatus[]; attempt?: { authentication_session: string; payment_method: string }; addressVerification?: AddressVerification; claimed?: ClaimedSession } = {},
): Promise<SessionRow | undefined> {
  const json = JSON.stringify(outcome);
  const changes = { outcome: json, ...searchColumnsOf(outcome), ...(options.addressVerification && { address_verification: JSON.stringify(options.addressVerification) }) };
  const attempt: AttemptOutcome = { status: outcome.status, chargeId: outcome.charge_id, outcome: json, settled: outcome.status !== 'pending', ...options.attempt };
  const from = options.from ?? ['processing', 'pending'];
  const moved = options.claimed && (await moveClaimedSession({ store, cipher }, options.claimed, attemptId, attempt, from, outcome.status, changes));
  if (moved) return moved;
  return recordAttemptAndMove({ store, cipher }, sessionId, attemptId, attempt, from, outcome.status, changes);
}
