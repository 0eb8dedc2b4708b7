import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  releaseIdempotencyKey,
} from '../../common/store/idempotency';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import type { Failure, Result } from '../../common/result';
import { errorBody, httpError, sendError, sendFailure, statusFor } from '../../common/http/errors';
import { rawBodyOf } from '../../common/http/body';

export interface HandlerReply {
  status: number;
  body: unknown;
  /** False for a request that never ran (it failed validation): like Stripe, it is not kept against the key. */
  record: boolean;
}

/**
 * A handler's result as its reply: `status` when it worked, else the failure's
 * status and body, kept against the key unless `record` says the request never ran.
 */
export function replyOf<T>(result: Result<T, Failure>, status: number, record: (failure: Failure) => boolean = () => true): HandlerReply {
  return result.ok ? { status, body: result.value, record: true } : { status: statusFor(result.error), body: errorBody(result.error), record: record(result.error) };
}

/** A request that never ran (its body did not validate): refused, and not kept against the key. */
export const refusal = (failure: Failure): HandlerReply => ({ status: statusFor(failure), body: errorBody(failure), record: false });

/**
 * Answers a merchant's request under its `Idempotency-Key` header, if it sent
 * one: runs `handle` once per key and replays its reply to every retry. Replies
 * can hold secrets (a session's client secret), so they are kept sealed.
 */
export async function respondIdempotently(
  store: { db: Store; cipher: DataCipher; abandonedAfterMs?: number },
  scope: string,
  req: Request,
  res: Response,
  handle: () => Promise<HandlerReply>,
): Promise<void> {
  const { db, cipher, abandonedAfterMs } = store;
  const key = req.get('idempotency-key');
  if (key === undefined) {
    const reply = await handle();
    res.status(reply.status).json(reply.body);
    return;
  }
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return sendError(res, httpError(400, 'invalid_request', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`));
  }
  const fingerprint = createHash('sha256').update(rawBodyOf(req) ?? '').digest('hex');
  const claim = await claimIdempotencyKey(db, { scope, key, fingerprint, now: Date.now(), abandonedAfterMs });
  if (claim.kind === 'mismatch') return sendFailure(res, { code: 'idempotency_key_reused', message: 'This Idempotency-Key was already used with a different request body' });
  if (claim.kind === 'in_progress') return sendFailure(res, { code: 'idempotency_key_in_use', message: 'A request with this Idempotency-Key is still being processed; retry later' });
  if (claim.kind === 'replay') {
    const body = cipher.open(claim.reply.body);
    if (!body.ok) throw new Error('a stored idempotent reply does not open with the data key');
    res.status(claim.reply.status).set('Idempotent-Replayed', 'true').type('application/json').send(body.value);
    return;
  }
  let reply: HandlerReply;
  try {
    reply = await handle();
  } catch (error) {
    await releaseIdempotencyKey(db, scope, key);
    throw error;
  }
  const body = JSON.stringify(reply.body);
  if (reply.record) await completeIdempotencyKey(db, scope, key, { status: reply.status, body: cipher.seal(body) });
  else await releaseIdempotencyKey(db, scope, key);
  res.status(reply.status).type('application/json').send(body);
}
