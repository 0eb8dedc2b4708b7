/**
 * The sandbox payment service's API: create, read and list charges, plus the
 * gateway's public key. Conventions (auth, Merchant-Account, idempotency,
 * errors) are documented in docs/service-conventions.md.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import { ChargeRequest } from '../contracts';
import type { AuthMethod, Charge, RootSigningKey } from '../contracts';
import { err, ok } from '../lib/result';
import type { Result } from '../lib/result';
import { openToken, publicKeyToUncompressedBase64 } from '../wallet';
import { clientErrors, describeIssues, errorBody, httpError, jsonBody, rawBodyOf, sendError } from '../http/errors';
import type { HttpError } from '../http/errors';
import { FaultPlan } from './faults';
import type { FaultKind, Faults } from './faults';
import type { SandboxKeys } from './keys';
import { claimIdempotencyKey, completeIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH, releaseIdempotencyKey, type StoredReply } from '../store/idempotency';
import { consumeWalletMessage, findCharge, insertCharge, listCharges } from './store';
import type { SandboxDb } from './store';
import { cardNetworkOf, decide } from './test-cards';

export interface ServiceApiContext {
  db: SandboxDb;
  keys: SandboxKeys;
  gatewayName: string;
  rootKeys: RootSigningKey[];
  now: () => number;
  faults: Faults;
}

const MERCHANT_ACCOUNT = /^[A-Za-z0-9._:-]{1,255}$/;
const DEFAULT_LIST_LIMIT = 10;
const MAX_LIST_LIMIT = 100;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

/** Set by `requireMerchantAccount` for the handlers after it. */
const merchantOf = (res: Response): string => String(res.locals['merchantAccount']);

function authenticate(serviceSecretKey: string): RequestHandler {
  // Digests have equal lengths whatever was sent, which timingSafeEqual requires.
  const expected = sha256(serviceSecretKey);
  return (req, res, next) => {
    const presented = /^Bearer ([^\s]+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
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

/** The card a charge is made on, whatever the source; held only for the request's lifetime. */
interface ResolvedCard {
  pan: string;
  expMonth: number;
  expYear: number;
  authMethod: AuthMethod;
  /** Wallet messages are single use; network tokens carry no message. */
  messageId?: string;
}

function resolveCard(ctx: ServiceApiContext, merchantAccount: string, source: ChargeRequest['source_data']): Result<ResolvedCard, HttpError> {
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
  if (message.gatewayMerchantId !== `mrchnt_${merchantAccount}`) {
    return err(httpError(403, 'gateway_merchant_mismatch', 'the wallet token was issued for another gatewayMerchantId than mrchnt_<Merchant-Account>'));
  }
  const details = message.paymentMethodDetails;
  if (details.authMethod === 'CRYPTOGRAM_3DS' && !details.cryptogram) {
    return err(httpError(400, 'invalid_wallet_token', 'a CRYPTOGRAM_3DS wallet message carries no cryptogram'));
  }
  return ok({
    pan: details.pan,
    expMonth: details.expirationMonth,
    expYear: details.expirationYear,
    authMethod: details.authMethod,
    messageId: message.messageId,
  });
}

const errorReply = (error: HttpError): StoredReply => ({ status: error.status, body: JSON.stringify(errorBody(error)) });

/** The charge the issuer's answer makes, and the wallet message it spends; nothing is stored yet. */
function prepareCharge(
  ctx: ServiceApiContext,
  merchantAccount: string,
  request: ChargeRequest,
  now: number,
): Result<{ charge: Charge; messageId: string | undefined }, HttpError> {
  const resolved = resolveCard(ctx, merchantAccount, request.source_data);
  if (!resolved.ok) return resolved;
  const card = resolved.value;
  const network = cardNetworkOf(card.pan);
  if (!network) return err(httpError(400, 'unsupported_card_network', 'the card number belongs to none of AMEX, DISCOVER, MASTERCARD, VISA'));
  const decision = decide(card, now);
  return ok({
    messageId: card.messageId,
    charge: {
      id: `ch_${randomBytes(12).toString('hex')}`,
      object: 'charge',
      status: decision.status,
      amount: request.amount,
      currency: request.currency,
      source_type: request.source_data.type,
      card: { network, last4: card.pan.slice(-4), auth_method: card.authMethod, exp_month: card.expMonth, exp_year: card.expYear },
      billing_details: request.billing_details ?? null,
      failure_code: decision.status === 'failed' ? decision.code : null,
      failure_message: decision.status === 'failed' ? decision.message : null,
      created: Math.floor(now / 1000),
    },
  });
}

/**
 * Everything after validation and the idempotency claim. Its reply is what an
 * idempotent retry replays, errors included, so it is stored in the same
 * transaction that creates the charge.
 */
async function processCharge(
  ctx: ServiceApiContext,
  merchantAccount: string,
  idempotencyKey: string | undefined,
  request: ChargeRequest,
): Promise<StoredReply> {
  const now = ctx.now();
  const prepared = prepareCharge(ctx, merchantAccount, request, now);
  if (!prepared.ok) {
    const reply = errorReply(prepared.error);
    if (idempotencyKey !== undefined) await completeIdempotencyKey(ctx.db, merchantAccount, idempotencyKey, reply);
    return reply;
  }
  const { charge, messageId } = prepared.value;
  return ctx.db.transaction().execute(async (trx) => {
    let reply: StoredReply;
    if (messageId !== undefined && !(await consumeWalletMessage(trx, messageId, charge.id, now))) {
      reply = errorReply(httpError(400, 'token_already_used', 'this wallet token has already been used for a charge'));
    } else {
      await insertCharge(trx, { merchant_account: merchantAccount, idempotency_key: idempotencyKey ?? null, charge });
      reply = { status: 201, body: JSON.stringify(charge) };
    }
    if (idempotencyKey !== undefined) await completeIdempotencyKey(trx, merchantAccount, idempotencyKey, reply);
    return reply;
  });
}

const sendReply = (res: Response, reply: StoredReply) => res.status(reply.status).type('application/json').send(reply.body);

/** A lost reply: whatever was done stays done, but the client hears only a dropped connection. */
const deliver = (req: Request, res: Response, reply: StoredReply, fault: FaultKind | undefined) =>
  fault === 'lost_reply' ? req.socket.destroy() : sendReply(res, reply);

function createChargeHandler(ctx: ServiceApiContext) {
  return async (req: Request, res: Response) => {
    const merchantAccount = merchantOf(res);
    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
      return sendError(res, httpError(400, 'invalid_request', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`));
    }
    const raw = rawBodyOf(req);
    if (req.body === undefined || raw === undefined) {
      return sendError(res, httpError(400, 'invalid_request', 'the request body must be JSON (Content-Type: application/json)'));
    }
    // Requests that fail validation never ran, so (as at Stripe) they are not
    // recorded against the key: the client may fix the body and retry with it.
    const parsed = ChargeRequest.safeParse(req.body);
    if (!parsed.success) return sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));

    const fault = ctx.faults.pick(req);
    if (!fault.ok) return sendError(res, fault.error);
    // Before the idempotency claim: nothing was processed, so a retry with the key runs once.
    if (fault.value === 'error') return sendError(res, httpError(500, 'service_error', 'injected fault: the service failed before processing the request'));
    if (fault.value === 'reset') return void req.socket.destroy();

    if (idempotencyKey !== undefined) {
      const claim = await claimIdempotencyKey(ctx.db, {
        scope: merchantAccount,
        key: idempotencyKey,
        fingerprint: sha256(raw).toString('hex'),
        now: ctx.now(),
      });
      if (claim.kind === 'mismatch') {
        return sendError(res, httpError(409, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different request body'));
      }
      if (claim.kind === 'in_progress') {
        return sendError(res, httpError(409, 'idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry later'));
      }
      if (claim.kind === 'replay') return deliver(req, res.set('Idempotent-Replayed', 'true'), claim.reply, fault.value);
    }
    try {
      // Held after the claim, as a slow service holds a request it has accepted: a retry meanwhile
      // meets idempotency_key_in_use, and the charge is committed even if the client gave up.
      const reply = await ctx.faults.delayed(fault.value, () => processCharge(ctx, merchantAccount, idempotencyKey, parsed.data));
      deliver(req, res, reply, fault.value);
    } catch (error) {
      if (idempotencyKey !== undefined) await releaseIdempotencyKey(ctx.db, merchantAccount, idempotencyKey);
      throw error;
    }
  };
}

export function serviceRouter(ctx: ServiceApiContext): Router {
  const router = express.Router();
  const auth = authenticate(ctx.keys.serviceSecretKey);

  router.get('/keys', (_req, res) => {
    res.json({
      gateway: ctx.gatewayName,
      recipient_id: `gateway:${ctx.gatewayName}`,
      protocol_version: 'ECv2',
      public_key: publicKeyToUncompressedBase64(ctx.keys.gatewayPublicKey),
    });
  });

  router.post('/api/v1/charges', auth, requireMerchantAccount, jsonBody('64kb'), createChargeHandler(ctx));

  router.get('/faults', auth, (_req, res) => {
    res.json(ctx.faults.plan());
  });

  router.put('/faults', auth, jsonBody('4kb'), (req, res) => {
    const parsed = FaultPlan.safeParse(req.body);
    if (!parsed.success) return sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));
    ctx.faults.setPlan(parsed.data);
    res.json(ctx.faults.plan());
  });

  router.get('/api/v1/charges/:id', auth, requireMerchantAccount, async (req, res) => {
    const charge = await findCharge(ctx.db, merchantOf(res), String(req.params.id));
    if (!charge) return sendError(res, httpError(404, 'resource_missing', 'no such charge for this merchant'));
    res.json(charge);
  });

  router.get('/api/v1/charges', auth, requireMerchantAccount, async (req, res) => {
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
