/**
 * The sandbox payment service's API: create, read and list charges, capture
 * and release holds, refund captured charges, disputes and their evidence, 3-D Secure Authentication Sessions and their challenge
 * page, plus the gateway's public key. Conventions (auth, Merchant-Account,
 * idempotency, errors) are documented in docs/service-conventions.md.
 */
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { BackdateChargesRequest, type BackdatedCharges, CaptureRequest, ChargeRequest, CreateAuthenticationSession, EmptyBody, gatewayMerchantId, HOLD_LIFETIME_MS, KeepPaymentMethodRequest, OpenDisputeRequest, ServiceDisputeEvidence, ServiceRefundRequest, SimulatedCardUpdate } from '../contracts';
import type { AuthenticationSession, AuthMethod, CardSummary, Charge, RootSigningKey, ServiceRefund } from '../contracts';
import { err, ok } from '../common/result';
import type { Result } from '../common/result';
import { openToken, publicKeyToUncompressedBase64 } from '../common/ecv2';
import { bearerCredential } from '../common/http/auth';
import { hashSecret, secretMatches } from '../common/secrets';
import { clientErrors, describeIssues, errorBody, httpError, sendError } from '../common/http/errors';
import { bodyEdge, type BodyRules, KB, rawBodyOf } from '../common/http/body';
import type { HttpError } from '../common/http/errors';
import { FaultPlan } from './faults';
import type { FaultKind, Faults } from './faults';
import type { SandboxKeys } from './keys';
import { claimIdempotencyKey, completeIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH, releaseIdempotencyKey, type StoredReply } from '../common/store/idempotency';
import { challengeRoutes } from './challenge';
import {
  allLedgerEntries,
  backdateCharges,
  backdateDisputes,
  consumeWalletMessage,
  detachKeptPaymentMethod,
  findAuthenticationSession,
  findCharge,
  findChargeWithCredential,
  findKeptPaymentMethod,
  findPaymentMethod,
  findRefund,
  insertAuthenticationSession,
  insertCharge,
  insertPaymentMethod,
  insertRefund,
  keptPaymentMethodView,
  listCharges,
  paymentMethodUpdates,
  refundableAmount,
  rekeepPaymentMethod,
  updateCharge,
  updateKeptCard,
  useAuthentication,
} from './store';
import type { PaymentMethod, SandboxDb, SandboxDbOrTransaction, StoredAuthenticationSession } from './store';
import { authenticationFlowOf, captureRefusalOf, cardNetworkOf, decide, issuerProfile } from './test-cards';
import type { LateIssuer } from './late-issuer';
import { verifyAddress } from './address-verification';
import { disputesChangedAfter, findDispute, openDispute, submitEvidence } from './disputes';

export interface ServiceApiContext {
  db: SandboxDb;
  keys: SandboxKeys;
  gatewayName: string;
  rootKeys: RootSigningKey[];
  now: () => number;
  faults: Faults;
  /** Counts the requests it leaves unanswered for the cards whose issuer answers late. */
  lateIssuer: LateIssuer;
  /** How long a 3-D Secure challenge stays open. */
  authenticationTtlMs: number;
}

const MERCHANT_ACCOUNT = /^[A-Za-z0-9._:-]{1,255}$/;
const DEFAULT_LIST_LIMIT = 10;
const MAX_LIST_LIMIT = 100;

/** A feed's query number: `fallback` when absent, -1 (refused by the caller) when not digits. */
const listNumber = (value: unknown, fallback: number): number => (value === undefined ? fallback : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : -1);

/** Set by `requireMerchantAccount` for the handlers after it. */
const merchantOf = (res: Response): string => String(res.locals['merchantAccount']);

function authenticate(serviceSecretKey: string): RequestHandler {
  const expected = hashSecret(serviceSecretKey);
  return (req, res, next) => {
    const presented = bearerCredential(req);
    if (presented === undefined || !secretMatches(presented, expected)) {
      res.set('WWW-Authenticate', 'Bearer realm="sandbox"');
      return sendError(res, httpError(401, 'unauthorized', 'a valid service secret key is required as a Bearer token'));
    }
    next();
  };
}

/** After `authenticate` on the merchant-scoped calls; the fault plan is the service's own and names no merchant. */
const requireMerchantAccount: RequestHandler = (req, res, next) => {
  const merchantAccount = req.get('merchant-account');
  if (merchantAccount === undefined || !MERCHANT_ACCOUNT.test(merchantAccount)) {
    return sendError(res, httpError(400, 'invalid_request', 'the Merchant-Account header is required (1-255 of A-Z a-z 0-9 . _ : -)'));
  }
  res.locals['merchantAccount'] = merchantAccount;
  next();
};

/** A wallet card, held only for the request's lifetime. */
interface WalletCard {
  pan: string;
  expMonth: number;
  expYear: number;
  authMethod: AuthMethod;
  /** Wallet messages are single use; network tokens carry no message. */
  messageId?: string;
}

function openWalletSource(ctx: ServiceApiContext, merchantAccount: string, source: Exclude<ChargeRequest['source_data'], { type: 'payment_method' }>): Result<WalletCard, HttpError> {
  if (source.type === 'network_token') {
    const token = source.network_token;
    return ok({
      pan: token.token,
      expMonth: Number(token.expiry_month),
      expYear: Number(token.expiry_year),
      authMethod: token.three_ds ? 'CRYPTOGRAM_3DS' : 'PAN_ONLY',
    });
  }
  const opened = openToken(source.walletpay, {
    recipientId: `gateway:${ctx.gatewayName}`,
    privateKeys: [ctx.keys.gatewayPrivateKey],
    rootKeys: ctx.rootKeys,
    now: ctx.now,
  });
  if (!opened.ok) {
    return err(httpError(400, 'invalid_wallet_token', `wallet token failed the ${opened.error.code} check: ${opened.error.message}`));
  }
  const message = opened.value;
  if (message.gatewayMerchantId !== gatewayMerchantId(merchantAccount)) {
    return err(httpError(403, 'gateway_merchant_mismatch', 'the wallet token was issued for another gatewayMerchantId than mrchnt_<Merchant-Account>'));
  }
  const details = message.paymentMethodDetails;
  return ok({
    pan: details.pan,
    expMonth: details.expirationMonth,
    expYear: details.expirationYear,
    authMethod: details.authMethod,
    messageId: message.messageId,
  });
}

/** The payment method a charge is made on: an existing one, or one made now from the wallet card (its number is dropped here). */
interface ResolvedSource {
  method: PaymentMethod;
  isNew: boolean;
  messageId: string | undefined;
}

async function resolveSource(ctx: ServiceApiContext, merchantAccount: string, request: ChargeRequest): Promise<Result<ResolvedSource, HttpError>> {
  const source = request.source_data;
  if (source.type === 'payment_method') {
    const method = await findPaymentMethod(ctx.db, merchantAccount, source.payment_method);
    return method ? ok({ method, isNew: false, messageId: undefined }) : err(httpError(400, 'resource_missing', 'source_data.payment_method: no such payment method for this merchant'));
  }
  const opened = openWalletSource(ctx, merchantAccount, source);
  if (!opened.ok) return opened;
  const card = opened.value;
  const network = cardNetworkOf(card.pan);
  if (!network) return err(httpError(400, 'unsupported_card_network', 'the card number belongs to none of AMEX, DISCOVER, MASTERCARD, VISA'));
  const summary: CardSummary = { network, last4: card.pan.slice(-4), auth_method: card.authMethod, exp_month: card.expMonth, exp_year: card.expYear };
  const method: PaymentMethod = {
    id: `pm_${randomBytes(12).toString('hex')}`,
    card: summary,
    issuer: issuerProfile(card.pan),
    billingDetails: request.billing_details ?? null,
    fingerprint: fingerprintOf(ctx, merchantAccount, card.pan),
  };
  return ok({ method, isNew: true, messageId: card.messageId });
}

/**
 * The card's fingerprint at this merchant: a hash of its number keyed by the service's own key, the same
 * whichever way the wallet gave the card (a device token and the card on file carry the same number in the
 * sandbox), and useless to anyone without the key, or at another merchant.
 */
const fingerprintOf = (ctx: ServiceApiContext, merchantAccount: string, pan: string): string =>
  createHmac('sha256', ctx.keys.serviceSecretKey).update(`fingerprint\0${merchantAccount}\0${pan}`).digest('base64url').slice(0, 22);

/** A merchant-initiated charge is made on a live kept payment method, naming the network reference of the charge it was kept from. */
function checkStoredCredential(request: ChargeRequest, method: PaymentMethod): Result<undefined, HttpError> {
  const credential = request.stored_credential;
  if (credential?.initiator !== 'merchant') return ok(undefined);
  if (!method.kept) return err(httpError(400, 'invalid_stored_credential', 'source_data.payment_method: a merchant-initiated charge is made on a kept payment method (POST /api/v1/payment_methods)'));
  if (method.kept.detached !== null) return err(httpError(400, 'payment_method_detached', 'source_data.payment_method: the payment method was detached'));
  if (credential.network_transaction_reference !== method.kept.networkTransactionReference) {
    return err(httpError(400, 'invalid_stored_credential', 'stored_credential.network_transaction_reference: not the reference of the charge the payment method was kept from'));
  }
  return ok(undefined);
}

/** A network's transaction reference: 15 digits, as Visa's transaction identifier has. */
const networkTransactionReference = (): string => Array.from({ length: 15 }, () => randomInt(10)).join('');

/** The Authentication Session a payment_method charge names must be authenticated, for this card, amount and currency. */
async function checkAuthentication(ctx: ServiceApiContext, merchantAccount: string, request: ChargeRequest): Promise<Result<StoredAuthenticationSession | undefined, HttpError>> {
  if (request.authentication_session === undefined) return ok(undefined);
  const invalid = (why: string) => err(httpError(400, 'invalid_authentication_session', `authentication_session: ${why}`));
  if (request.source_data.type !== 'payment_method') return invalid('only a payment_method source is charged with an authentication session');
  const session = await findAuthenticationSession(ctx.db, request.authentication_session, ctx.now(), merchantAccount);
  if (!session) return invalid('no such authentication session for this merchant');
  if (session.status !== 'authenticated') return invalid(`it is ${session.status}, not authenticated`);
  if (session.payment_method !== request.source_data.payment_method) return invalid('it authenticated another payment method');
  if (session.amount !== request.amount || session.currency !== request.currency) return invalid('it authenticated another amount or currency');
  return ok(session);
}

const errorReply = (error: HttpError): StoredReply => ({ status: error.status, body: JSON.stringify(errorBody(error)) });

/** A request the service answers without processing it: not kept against its Idempotency-Key, so a retry runs it. */
interface Unprocessed {
  unprocessed: HttpError;
}

/** Keeps a reply against its Idempotency-Key (in the caller's transaction, with the work), for retries to replay. */
async function keepReply(db: SandboxDbOrTransaction, merchantAccount: string, idempotencyKey: string | undefined, reply: StoredReply): Promise<StoredReply> {
  if (idempotencyKey !== undefined) await completeIdempotencyKey(db, merchantAccount, idempotencyKey, reply);
  return reply;
}

async function prepareCharge(
  ctx: ServiceApiContext,
  merchantAccount: string,
  request: ChargeRequest,
): Promise<Result<ResolvedSource & { authentication: StoredAuthenticationSession | undefined }, HttpError>> {
  const resolved = await resolveSource(ctx, merchantAccount, request);
  if (!resolved.ok) return resolved;
  const credential = checkStoredCredential(request, resolved.value.method);
  if (!credential.ok) return credential;
  const authentication = await checkAuthentication(ctx, merchantAccount, request);
  if (!authentication.ok) return authentication;
  return ok({ ...resolved.value, authentication: authentication.value });
}

/**
 * Everything after validation and the idempotency claim. Its reply is what an
 * idempotent retry replays, errors included, so it is stored in the same
 * transaction that creates the charge.
 */
async function processCharge(ctx: ServiceApiContext, merchantAccount: string, idempotencyKey: string | undefined, request: ChargeRequest): Promise<StoredReply | Unprocessed> {
  const now = ctx.now();
  const prepared = await prepareCharge(ctx, merchantAccount, request);
  if (!prepared.ok) {
    return keepReply(ctx.db, merchantAccount, idempotencyKey, errorReply(prepared.error));
  }
  const { method, isNew, messageId, authentication } = prepared.value;
  if (method.issuer.unanswered && !ctx.lateIssuer.answers(merchantAccount, idempotencyKey)) {
    return { unprocessed: httpError(503, 'issuer_unavailable', 'the card issuer did not answer in time; nothing was processed: retry with the same Idempotency-Key') };
  }
  const decision = decide(method.issuer, { expMonth: method.card.exp_month, expYear: method.card.exp_year }, now, {
    authMethod: method.card.auth_method,
    authenticationRequested: request.authentication === 'required',
    authenticated: authentication !== undefined,
    merchantInitiated: request.stored_credential?.initiator === 'merchant',
  });
  // An amount of 0 is an account verification (ChargeRequest): succeeded, nothing captured.
  const status = decision.status === 'failed' ? 'failed' : request.capture === false ? 'held' : 'succeeded';
  // A payment_method charge that sends no billing details carries, and is verified against, those its payment method was made with.
  const billingDetails = request.billing_details ?? (request.source_data.type === 'payment_method' ? method.billingDetails : null);
  const charge: Charge = {
    id: `ch_${randomBytes(12).toString('hex')}`,
    object: 'charge',
    status,
    amount: request.amount,
    currency: request.currency,
    source_type: request.source_data.type,
    amount_captured: status === 'succeeded' ? request.amount : 0,
    card: method.card,
    payment_method: method.id,
    billing_details: billingDetails,
    ...verifyAddress(method.issuer.address, billingDetails),
    failure_code: decision.status === 'failed' ? decision.code : null,
    failure_message: decision.status === 'failed' ? decision.message : null,
    network_transaction_reference: decision.status === 'failed' ? null : networkTransactionReference(),
    created: Math.floor(now / 1000),
  };
  return ctx.db.transaction().execute(async (trx) => {
    let reply: StoredReply;
    if (messageId !== undefined && !(await consumeWalletMessage(trx, messageId, charge.id, now))) {
      reply = errorReply(httpError(400, 'token_already_used', 'this wallet token has already been used for a charge'));
    } else if (authentication && !(await useAuthentication(trx, authentication.id, charge.id))) {
      reply = errorReply(httpError(400, 'invalid_authentication_session', 'authentication_session: it was already used by another charge'));
    } else {
      if (isNew) await insertPaymentMethod(trx, merchantAccount, method, now);
      await insertCharge(trx, { merchant_account: merchantAccount, idempotency_key: idempotencyKey ?? null, charge, storedCredential: request.stored_credential });
      // A dispute test card's bank disputes the charge as soon as it is taken.
      if (status === 'succeeded' && method.issuer.dispute) await openDispute(trx, merchantAccount, { charge: charge.id, reason: method.issuer.dispute }, now);
      reply = { status: 201, body: JSON.stringify(charge) };
    }
    return keepReply(trx, merchantAccount, idempotencyKey, reply);
  });
}

/**
 * Capture (all or part) or release a held charge; anything but `held` is
 * refused with invalid_state, a capture once the hold has lapsed
 * (HOLD_LIFETIME_MS after it was placed) with hold_expired, and one the
 * card's issuer refuses (TestCard.captureRefusal) with 402 and its code.
 */
async function processHoldOperation(
  ctx: ServiceApiContext,
  merchantAccount: string,
  idempotencyKey: string | undefined,
  chargeId: string,
  operation: { kind: 'capture'; amount: number | undefined } | { kind: 'release' },
): Promise<StoredReply> {
  return ctx.db.transaction().execute(async (trx) => {
    const charge = await findCharge(trx, merchantAccount, chargeId);
    const refusal = charge && operation.kind === 'capture' ? await captureRefusal(trx, merchantAccount, charge) : undefined;
    let reply: StoredReply;
    if (!charge) reply = errorReply(httpError(404, 'resource_missing', 'no such charge for this merchant'));
    else if (charge.status !== 'held') reply = errorReply(httpError(409, 'invalid_state', `the charge is ${charge.status}: only a held charge can be ${operation.kind}d`));
    else if (operation.kind === 'capture' && charge.created * 1000 + HOLD_LIFETIME_MS <= ctx.now()) reply = errorReply(httpError(409, 'hold_expired', 'the hold lapsed 7 days after it was placed: it can no longer be captured, only released'));
    else if (operation.kind === 'capture' && (operation.amount ?? 0) > charge.amount) reply = errorReply(httpError(400, 'invalid_request', 'amount: more than the held amount'));
    else if (refusal) reply = errorReply(refusal);
    else {
      const updated: Charge =
        operation.kind === 'capture' ? { ...charge, status: 'succeeded', amount_captured: operation.amount ?? charge.amount } : { ...charge, status: 'released' };
      await updateCharge(trx, operation.kind, { merchant_account: merchantAccount, idempotency_key: idempotencyKey ?? null, charge: updated });
      reply = { status: 200, body: JSON.stringify(updated) };
    }
    return keepReply(trx, merchantAccount, idempotencyKey, reply);
  });
}

/** The issuer's refusal of a hold's capture (a card that refuses it: `402` and its code); the charge stays held, to release. */
async function captureRefusal(db: SandboxDbOrTransaction, merchantAccount: string, charge: Charge): Promise<HttpError | undefined> {
  const method = charge.payment_method === null ? undefined : await findPaymentMethod(db, merchantAccount, charge.payment_method);
  const refused = method && captureRefusalOf(method.issuer);
  return refused && httpError(402, refused.code, `the card issuer refused the capture: ${refused.message} The hold stays placed until it is released.`);
}

/**
 * Refunds part or all of what a charge captured. A hold is released, not
 * refunded; what is asked must fit in what is left of the capture (the
 * charge's row is read in the transaction that writes the refund, which the
 * sandbox's single SQLite writer serializes).
 */
async function processRefund(ctx: ServiceApiContext, merchantAccount: string, idempotencyKey: string | undefined, request: ServiceRefundRequest): Promise<StoredReply> {
  return ctx.db.transaction().execute(async (trx) => {
    const charge = await findCharge(trx, merchantAccount, request.charge);
    let reply: StoredReply;
    if (!charge) reply = errorReply(httpError(404, 'resource_missing', 'no such charge for this merchant'));
    else if (charge.status === 'held') reply = errorReply(httpError(409, 'invalid_state', 'the charge is an uncaptured hold: release it instead of refunding it'));
    else if (charge.status !== 'succeeded') reply = errorReply(httpError(409, 'invalid_state', `the charge is ${charge.status}: only a captured charge can be refunded`));
    else if (request.amount > (await refundableAmount(trx, charge.id))) reply = errorReply(httpError(400, 'amount_too_large', 'amount: more than is left to refund of the captured amount'));
    else {
      // A card whose account closed since the charge: the refund is accepted, and fails.
      const method = charge.payment_method === null ? undefined : await findPaymentMethod(trx, merchantAccount, charge.payment_method);
      const failure = method?.issuer.refundFailure ?? null;
      const refund: ServiceRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        charge: charge.id,
        amount: request.amount,
        currency: charge.currency,
        status: failure === null ? 'succeeded' : 'failed',
        failure_code: failure,
        created: Math.floor(ctx.now() / 1000),
      };
      await insertRefund(trx, { merchant_account: merchantAccount, idempotency_key: idempotencyKey ?? null, charge, refund });
      reply = { status: 201, body: JSON.stringify(refund) };
    }
    return keepReply(trx, merchantAccount, idempotencyKey, reply);
  });
}

/**
 * Keeps the card of a charge for a customer: the charge must have been made to keep it (a customer-initiated
 * stored credential) and authorized. One kept payment method per merchant, customer and card: the same card
 * kept again updates the one kept (its card, issuer and billing details, and the newer charge's reference).
 */
async function processKeep(ctx: ServiceApiContext, merchantAccount: string, idempotencyKey: string | undefined, request: KeepPaymentMethodRequest): Promise<StoredReply> {
  return ctx.db.transaction().execute(async (trx) => {
    const found = await findChargeWithCredential(trx, merchantAccount, request.charge);
    const from = found?.charge.payment_method ? await findPaymentMethod(trx, merchantAccount, found.charge.payment_method) : undefined;
    let reply: StoredReply;
    if (!found || !from) reply = errorReply(httpError(404, 'resource_missing', 'charge: no such charge for this merchant'));
    else if (found.storedCredential?.initiator !== 'customer') reply = errorReply(httpError(400, 'invalid_request', 'charge: it was not made to keep the card (stored_credential.initiator customer)'));
    else if (found.charge.status === 'failed' || !found.charge.network_transaction_reference) reply = errorReply(httpError(409, 'invalid_state', 'charge: it was declined, so there is no card to keep'));
    else if (from.fingerprint === null) reply = errorReply(httpError(409, 'invalid_state', 'charge: it was made before cards had fingerprints, so its card cannot be kept'));
    else {
      const reference = found.charge.network_transaction_reference;
      const existing = await findKeptPaymentMethod(trx, merchantAccount, request.customer, from.fingerprint);
      const now = ctx.now();
      if (existing?.kept) await rekeepPaymentMethod(trx, existing.id, from, reference);
      const id = existing?.id ?? `pm_${randomBytes(12).toString('hex')}`;
      const created = existing?.kept?.created ?? now;
      if (!existing) await insertPaymentMethod(trx, merchantAccount, { ...from, id, kept: { customer: request.customer, networkTransactionReference: reference, detached: null, created } }, now);
      const view = keptPaymentMethodView({ ...from, id, kept: { customer: request.customer, networkTransactionReference: reference, detached: null, created } });
      reply = { status: 201, body: JSON.stringify(view) };
    }
    return keepReply(trx, merchantAccount, idempotencyKey, reply);
  });
}

/** Detaches a kept payment method, for good: a merchant-initiated charge on it is refused. Detaching it again answers it as it is. */
async function processDetach(ctx: ServiceApiContext, merchantAccount: string, idempotencyKey: string | undefined, id: string): Promise<StoredReply> {
  await detachKeptPaymentMethod(ctx.db, merchantAccount, id, ctx.now());
  const method = await findPaymentMethod(ctx.db, merchantAccount, id);
  const reply = method?.kept ? { status: 200, body: JSON.stringify(keptPaymentMethodView({ ...method, kept: method.kept })) } : errorReply(httpError(404, 'resource_missing', 'no such kept payment method for this merchant'));
  return keepReply(ctx.db, merchantAccount, idempotencyKey, reply);
}

/** Frictionless cards are authenticated at once; the others wait for the shopper at the challenge page. */
async function processAuthenticationSession(
  ctx: ServiceApiContext,
  merchantAccount: string,
  idempotencyKey: string | undefined,
  request: CreateAuthenticationSession,
  serviceBaseUrl: string,
): Promise<StoredReply> {
  const method = await findPaymentMethod(ctx.db, merchantAccount, request.payment_method);
  let reply: StoredReply;
  if (!method) reply = errorReply(httpError(400, 'resource_missing', 'payment_method: no such payment method for this merchant'));
  else if (method.card.auth_method !== 'PAN_ONLY') reply = errorReply(httpError(400, 'invalid_request', 'payment_method: a CRYPTOGRAM_3DS card is authenticated by its cryptogram and needs no session'));
  else {
    const now = ctx.now();
    const id = `as_${randomBytes(12).toString('hex')}`;
    const frictionless = authenticationFlowOf(method.issuer) === 'frictionless';
    const session: StoredAuthenticationSession = {
      id,
      object: 'authentication_session',
      status: frictionless ? 'authenticated' : 'challenge_required',
      payment_method: method.id,
      amount: request.amount,
      currency: request.currency,
      challenge_url: frictionless ? null : `${serviceBaseUrl}/challenge/${id}`,
      expires_at: now + ctx.authenticationTtlMs,
      created: Math.floor(now / 1000),
      merchant_account: merchantAccount,
      return_origin: request.return_origin,
      ancestor_origins: request.ancestor_origins ?? [],
      charge_id: null,
    };
    await insertAuthenticationSession(ctx.db, session);
    reply = { status: 201, body: JSON.stringify(publicAuthenticationSession(session)) };
  }
  return keepReply(ctx.db, merchantAccount, idempotencyKey, reply);
}

/** What the API shows of a session: not whose it is, whom the challenge reports to, nor which charge used it. */
const publicAuthenticationSession = ({ merchant_account: _merchant, return_origin: _origin, ancestor_origins: _ancestors, charge_id: _charge, ...session }: StoredAuthenticationSession): AuthenticationSession => session;

const sendReply = (res: Response, reply: StoredReply) => res.status(reply.status).type('application/json').send(reply.body);

/** A lost reply: whatever was done stays done, but the client hears only a dropped connection. */
const deliver = (req: Request, res: Response, reply: StoredReply, fault: FaultKind | undefined) =>
  fault === 'lost_reply' ? req.socket.destroy() : sendReply(res, reply);

/** Set by `idempotencyKeyHeader` for the handlers after it. */
const idempotencyKeyOf = (res: Response): string | undefined => res.locals['idempotencyKey'] as string | undefined;

/** Checked before the body, so a bad key is refused whatever else is wrong. */
const idempotencyKeyHeader: RequestHandler = (req, res, next) => {
  const key = req.get('idempotency-key');
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    return sendError(res, httpError(400, 'invalid_request', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`));
  }
  res.locals['idempotencyKey'] = key;
  next();
};

/**
 * Runs `process` once per Idempotency-Key (when one was sent) and replays its
 * stored reply to every retry. A key is bound to the method, the path and the
 * exact body bytes. `process` stores its reply against the key itself, in the
 * transaction that does the work.
 */
async function respondOnce(
  ctx: ServiceApiContext,
  req: Request,
  res: Response,
  fault: FaultKind | undefined,
  process: (key: string | undefined) => Promise<StoredReply | Unprocessed>,
): Promise<void> {
  const merchantAccount = merchantOf(res);
  const key = idempotencyKeyOf(res);
  if (key !== undefined) {
    const fingerprint = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n`).update(rawBodyOf(req) ?? Buffer.alloc(0)).digest('hex');
    const claim = await claimIdempotencyKey(ctx.db, { scope: merchantAccount, key, fingerprint, now: ctx.now() });
    if (claim.kind === 'mismatch') {
      return sendError(res, httpError(409, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different request'));
    }
    if (claim.kind === 'in_progress') {
      return sendError(res, httpError(409, 'idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry later'));
    }
    if (claim.kind === 'replay') {
      deliver(req, res.set('Idempotent-Replayed', 'true'), claim.reply, fault);
      return;
    }
  }
  try {
    // Held after the claim, as a slow service holds a request it has accepted: a retry meanwhile
    // meets idempotency_key_in_use, and the work is committed even if the client gave up.
    const reply = await ctx.faults.delayed(fault, () => process(key));
    if ('unprocessed' in reply) {
      if (key !== undefined) await releaseIdempotencyKey(ctx.db, merchantAccount, key);
      return sendError(res, reply.unprocessed);
    }
    deliver(req, res, reply, fault);
  } catch (error) {
    if (key !== undefined) await releaseIdempotencyKey(ctx.db, merchantAccount, key);
    throw error;
  }
}

/** A JSON body, parsed by `schema`; requests that fail validation never ran, so (as at Stripe) they are not recorded against the key. */
function parseBody<T>(req: Request, res: Response, schema: z.ZodType<T>): T | undefined {
  if (req.body === undefined || rawBodyOf(req) === undefined) {
    sendError(res, httpError(400, 'invalid_request', 'the request body must be JSON (Content-Type: application/json)'));
    return undefined;
  }
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) {
    sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));
    return undefined;
  }
  return parsed.data;
}

/** A POST that moves money (a charge, a refund): validated, then met by the fault plan, then run once per Idempotency-Key. */
function faultedHandler<T>(ctx: ServiceApiContext, schema: z.ZodType<T>, process: (merchantAccount: string, key: string | undefined, request: T) => Promise<StoredReply | Unprocessed>) {
  return async (req: Request, res: Response) => {
    const request = parseBody(req, res, schema);
    if (request === undefined) return;
    const fault = ctx.faults.pick(req);
    if (!fault.ok) return sendError(res, fault.error);
    // Before the idempotency claim: nothing was processed, so a retry with the key runs once.
    if (fault.value === 'error') return sendError(res, httpError(500, 'service_error', 'injected fault: the service failed before processing the request'));
    if (fault.value === 'reset') return void req.socket.destroy();
    await respondOnce(ctx, req, res, fault.value, (key) => process(merchantOf(res), key, request));
  };
}

/**
 * The bodies the service's routes take, read at the edge of its router before its key is checked
 * (common/http/body.ts); every other route takes none.
 */
export const serviceBodies = {
  'POST /api/v1/charges': { body: 'required', limit: 64 * KB },
  'POST /api/v1/refunds': { body: 'required', limit: 4 * KB },
  'POST /api/v1/charges/:id/capture': { body: 'required', limit: 4 * KB },
  // No fields: no body (as the backend sends it) or `{}`.
  'POST /api/v1/charges/:id/release': { body: 'optional', limit: 4 * KB },
  'POST /api/v1/authentication_sessions': { body: 'required', limit: 4 * KB },
  'POST /api/v1/payment_methods': { body: 'required', limit: 4 * KB },
  // No fields: no body (as the backend sends it) or `{}`.
  'POST /api/v1/payment_methods/:id/detach': { body: 'optional', limit: 4 * KB },
  'POST /test_helpers/payment_methods/:id/card_update': { body: 'required', limit: 4 * KB },
  'POST /test_helpers/charges/backdate': { body: 'required', limit: 64 * KB },
  'POST /api/v1/disputes/:id/evidence': { body: 'required', limit: 32 * KB },
  'POST /test_helpers/disputes': { body: 'required', limit: 4 * KB },
  'PUT /faults': { body: 'required', limit: 4 * KB },
  // The 3-D Secure page's own form (challenge.ts), as a bank's page posts it.
  'POST /challenge/:id': { body: 'form', limit: 1 * KB },
} as const satisfies BodyRules;

export function serviceRouter(ctx: ServiceApiContext): Router {
  const router = express.Router();
  router.use(bodyEdge(serviceBodies));
  const auth = authenticate(ctx.keys.serviceSecretKey);

  router.get('/keys', (_req, res) => {
    res.json({
      gateway: ctx.gatewayName,
      recipient_id: `gateway:${ctx.gatewayName}`,
      protocol_version: 'ECv2',
      public_key: publicKeyToUncompressedBase64(ctx.keys.gatewayPublicKey),
    });
  });

  const merchantCall = [auth, requireMerchantAccount];
  router.post('/api/v1/charges', ...merchantCall, idempotencyKeyHeader, faultedHandler(ctx, ChargeRequest, (merchant, key, request) => processCharge(ctx, merchant, key, request)));
  router.post('/api/v1/refunds', ...merchantCall, idempotencyKeyHeader, faultedHandler(ctx, ServiceRefundRequest, (merchant, key, request) => processRefund(ctx, merchant, key, request)));

  router.get('/api/v1/refunds/:id', ...merchantCall, async (req, res) => {
    const refund = await findRefund(ctx.db, merchantOf(res), String(req.params.id));
    if (!refund) return sendError(res, httpError(404, 'resource_missing', 'no such refund for this merchant'));
    res.json(refund);
  });

  router.post('/api/v1/charges/:id/capture', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    const request = parseBody(req, res, CaptureRequest);
    if (request === undefined) return;
    await respondOnce(ctx, req, res, undefined, (key) => processHoldOperation(ctx, merchantOf(res), key, String(req.params.id), { kind: 'capture', amount: request.amount }));
  });

  router.post('/api/v1/charges/:id/release', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    if (req.body !== undefined && parseBody(req, res, EmptyBody) === undefined) return;
    await respondOnce(ctx, req, res, undefined, (key) => processHoldOperation(ctx, merchantOf(res), key, String(req.params.id), { kind: 'release' }));
  });

  router.post('/api/v1/authentication_sessions', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    const request = parseBody(req, res, CreateAuthenticationSession);
    if (request === undefined) return;
    // The challenge page is served next to the API, at the address the caller reached the service at.
    const serviceBaseUrl = `${req.protocol}://${req.get('host')}${req.baseUrl}`;
    await respondOnce(ctx, req, res, undefined, (key) => processAuthenticationSession(ctx, merchantOf(res), key, request, serviceBaseUrl));
  });

  router.get('/api/v1/authentication_sessions/:id', ...merchantCall, async (req, res) => {
    const session = await findAuthenticationSession(ctx.db, String(req.params.id), ctx.now(), merchantOf(res));
    if (!session) return sendError(res, httpError(404, 'resource_missing', 'no such authentication session for this merchant'));
    res.json(publicAuthenticationSession(session));
  });

  router.post('/api/v1/payment_methods', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    const request = parseBody(req, res, KeepPaymentMethodRequest);
    if (request === undefined) return;
    await respondOnce(ctx, req, res, undefined, (key) => processKeep(ctx, merchantOf(res), key, request));
  });

  router.get('/api/v1/payment_methods/:id', ...merchantCall, async (req, res) => {
    const method = await findPaymentMethod(ctx.db, merchantOf(res), String(req.params.id));
    if (!method?.kept) return sendError(res, httpError(404, 'resource_missing', 'no such kept payment method for this merchant'));
    res.json(keptPaymentMethodView({ ...method, kept: method.kept }));
  });

  router.post('/api/v1/payment_methods/:id/detach', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    if (req.body !== undefined && parseBody(req, res, EmptyBody) === undefined) return;
    await respondOnce(ctx, req, res, undefined, (key) => processDetach(ctx, merchantOf(res), key, String(req.params.id)));
  });

  /** The merchant's feed of card updates, oldest first, after `after` (a sequence; 0 when absent). */
  router.get('/api/v1/payment_method_updates', ...merchantCall, async (req, res) => {
    const after = listNumber(req.query['after'], 0);
    const limit = listNumber(req.query['limit'], DEFAULT_LIST_LIMIT);
    if (after < 0 || limit < 1 || limit > MAX_LIST_LIMIT) return sendError(res, httpError(400, 'invalid_request', `after must be a sequence (digits) and limit an integer from 1 to ${MAX_LIST_LIMIT}`));
    res.json({ object: 'list', ...(await paymentMethodUpdates(ctx.db, merchantOf(res), after, limit)) });
  });

  /**
   * The sandbox's stand-in for the card networks' updater: a kept card's new expiry (and last four, for a
   * reissued card), as the network would tell the service; the merchant's feed lists it. Sandbox only.
   */
  router.post('/test_helpers/payment_methods/:id/card_update', ...merchantCall, async (req, res) => {
    const update = parseBody(req, res, SimulatedCardUpdate);
    if (update === undefined) return;
    const method = await findPaymentMethod(ctx.db, merchantOf(res), String(req.params.id));
    if (!method?.kept || method.kept.detached !== null) return sendError(res, httpError(404, 'resource_missing', 'no such live kept payment method for this merchant'));
    const card: CardSummary = { ...method.card, exp_month: update.exp_month, exp_year: update.exp_year, ...(update.last4 !== undefined && { last4: update.last4 }) };
    await ctx.db.transaction().execute((trx) => updateKeptCard(trx, merchantOf(res), method, card, ctx.now()));
    res.json(keptPaymentMethodView({ ...method, card, kept: method.kept }));
  });

  /**
   * Test clocks (docs/test-clocks.md): the named charges of the merchant account placed `seconds` earlier, so
   * that the service's own rules of time (a hold lapses 7 days after it was placed) agree with a backend whose
   * test clock moved. Sandbox only, as every route here is; charges of other accounts are not touched.
   */
  router.post('/test_helpers/charges/backdate', ...merchantCall, async (req, res) => {
    const request = parseBody(req, res, BackdateChargesRequest);
    if (request === undefined) return;
    const backdated = await backdateCharges(ctx.db, merchantOf(res), request.charges, request.seconds);
    await backdateDisputes(ctx.db, merchantOf(res), request.charges, request.seconds);
    res.json({ object: 'backdated_charges', backdated } satisfies BackdatedCharges);
  });

  router.get('/api/v1/disputes/:id', ...merchantCall, async (req, res) => {
    const dispute = await findDispute(ctx.db, merchantOf(res), String(req.params.id), ctx.now());
    if (!dispute) return sendError(res, httpError(404, 'resource_missing', 'no such dispute for this merchant'));
    res.json(dispute);
  });

  /** The merchant's feed of disputes, each changed one once as it is now, in the order of their changes, after `changed_after` (a sequence; 0 when absent). */
  router.get('/api/v1/disputes', ...merchantCall, async (req, res) => {
    const after = listNumber(req.query['changed_after'], 0);
    const limit = listNumber(req.query['limit'], DEFAULT_LIST_LIMIT);
    if (after < 0 || limit < 1 || limit > MAX_LIST_LIMIT) return sendError(res, httpError(400, 'invalid_request', `changed_after must be a sequence (digits) and limit an integer from 1 to ${MAX_LIST_LIMIT}`));
    res.json({ object: 'list', ...(await disputesChangedAfter(ctx.db, merchantOf(res), after, limit, ctx.now())) });
  });

  router.post('/api/v1/disputes/:id/evidence', ...merchantCall, idempotencyKeyHeader, async (req, res) => {
    const evidence = parseBody(req, res, ServiceDisputeEvidence);
    if (evidence === undefined) return;
    await respondOnce(ctx, req, res, undefined, (key) =>
      submitEvidence(ctx.db, merchantOf(res), String(req.params.id), evidence, ctx.now(), (trx, submitted) =>
        keepReply(trx, merchantOf(res), key, submitted.ok ? { status: 200, body: JSON.stringify(submitted.value) } : errorReply(submitted.error)),
      ),
    );
  });

  /** The cardholder's bank disputes a captured charge, on demand (the dispute test cards do it at once). Sandbox only. */
  router.post('/test_helpers/disputes', ...merchantCall, async (req, res) => {
    const request = parseBody(req, res, OpenDisputeRequest);
    if (request === undefined) return;
    const opened = await ctx.db.transaction().execute((trx) => openDispute(trx, merchantOf(res), request, ctx.now()));
    if (!opened.ok) return sendError(res, opened.error);
    res.status(201).json(opened.value);
  });

  router.use(challengeRoutes(ctx));

  router.get('/faults', auth, (_req, res) => {
    res.json(ctx.faults.plan());
  });

  router.put('/faults', auth, (req, res) => {
    const parsed = FaultPlan.safeParse(req.body);
    if (!parsed.success) return sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));
    ctx.faults.setPlan(parsed.data);
    res.json(ctx.faults.plan());
  });

  // The audit's view (the soak, the tests): every operation on money, across merchants, so under the service key alone.
  router.get('/ledger', auth, async (_req, res) => {
    res.json({ entries: await allLedgerEntries(ctx.db) });
  });

  router.get('/api/v1/charges/:id', ...merchantCall, async (req, res) => {
    const charge = await findCharge(ctx.db, merchantOf(res), String(req.params.id));
    if (!charge) return sendError(res, httpError(404, 'resource_missing', 'no such charge for this merchant'));
    res.json(charge);
  });

  router.get('/api/v1/charges', ...merchantCall, async (req, res) => {
    const limitParam = req.query['limit'];
    let limit = DEFAULT_LIST_LIMIT;
    if (limitParam !== undefined) {
      limit = typeof limitParam === 'string' && /^\d{1,3}$/.test(limitParam) ? Number(limitParam) : 0;
      if (limit < 1 || limit > MAX_LIST_LIMIT) {
        return sendError(res, httpError(400, 'invalid_request', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`));
      }
    }
    res.json({ object: 'list', ...(await listCharges(ctx.db, merchantOf(res), limit)) });
  });

  router.use(clientErrors);
  return router;
}
