/**
 * Checking a body the backend signed, with the very recipe it signs with
 * (contracts/webhook-signature.ts, bundled into this package): webhook deliveries and quote
 * requests are signed alike, each with its own endpoint's secret.
 */
import { checkSignature, SIGNATURE_HEADER } from '../../../contracts/webhook-signature';
import type { SignatureVerificationFailure } from './errors';

export interface VerifyOptions {
  /** How far the signed time may be from your clock, in seconds: 300 (5 minutes) by default. Keep your clock on NTP rather than raising it. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (for a receiver that replays stored deliveries on purpose). */
  now?: number;
}

/** What one kind of signed body is called in refusals, and the error it is refused with. */
export interface SignedBodyKind {
  /** The method, for a misuse's TypeError: `webhooks.verify`. */
  method: string;
  /** The secret's form, for the same: `whsec_...`. */
  secretForm: string;
  /** What the body is, in a sentence: `The delivery`. */
  subject: string;
  refuse(code: SignatureVerificationFailure, message: string): Error;
}

/**
 * The parsed JSON of `rawBody` once `header` is found to sign it with one of the secrets, within
 * the tolerance; otherwise `kind.refuse` says why.
 */
export function verifySignedBody(kind: SignedBodyKind, rawBody: string | Uint8Array, header: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyOptions): unknown {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  const headerValue = typeof header === 'string' ? header : (header ?? []).join(',');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((candidate) => typeof candidate !== 'string' || candidate === '')) throw new TypeError(`${kind.method}: the endpoint secret (${kind.secretForm}) is required`);
  const checks = secrets.map((candidate) => checkSignature(headerValue, body, candidate, options));
  // A malformed header or a stale time fails alike for every secret; otherwise none matched.
  const failure = checks.every((check) => check !== 'verified') ? checks[0] : undefined;
  if (failure === 'malformed_header') throw kind.refuse(failure, `The ${SIGNATURE_HEADER} header is missing or is not t=<seconds>,v1=<hex>[,v1=<hex>]`);
  if (failure === 'stale_timestamp') throw kind.refuse(failure, `${kind.subject} was signed too long ago (or too far ahead): a replay, or a clock out of sync`);
  if (failure === 'no_matching_signature') throw kind.refuse(failure, 'No signature matches the body with this secret: a changed body, a parsed-and-reserialized body, or the wrong secret');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw kind.refuse('invalid_payload', `${kind.subject} verified but its body is not JSON`);
  }
}
