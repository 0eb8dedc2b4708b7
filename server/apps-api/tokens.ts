/**
 * Bearer tokens are JWT access tokens (RFC 9068) from one trusted issuer:
 * signature against its JWKS, `iss`, `aud` and `exp` required and checked.
 * The audience check is what keeps an ID token, or a token for another API, out.
 */
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { OAuthIssuer } from '../config';
import { type Result, err, ok } from '../../common/result';
import { loadDevIssuer } from './dev-issuer';
import type { LookupFailure } from './google-errors';

export interface TrustedIssuer {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
}

export interface AccessToken {
  scopes: string[];
  /** The client application the token was issued to. */
  clientId: string;
}

/** The configured issuer, or else the development issuer of DATA_DIR. */
export function trustedIssuer(configured: OAuthIssuer | undefined, dataDir: string): TrustedIssuer {
  if (!configured) {
    const dev = loadDevIssuer(dataDir);
    return { issuer: dev.issuer, audience: dev.audience, keys: createLocalJWKSet(dev.jwks) };
  }
  // A JWKS file is read once: rotating its keys takes a restart, a JWKS URL does not.
  const keys = /^https?:\/\//.test(configured.jwks) ? createRemoteJWKSet(new URL(configured.jwks)) : createLocalJWKSet(JSON.parse(readFileSync(configured.jwks, 'utf8')));
  return { issuer: configured.issuer, audience: configured.audience, keys };
}

function verificationFailure(error: unknown): LookupFailure {
  // Keys that could not be fetched say nothing about the token: not the client's fault.
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError)) {
    return { code: 'issuer_unavailable', message: 'The token issuer\'s keys are unavailable; try again later' };
  }
  return { code: 'invalid_token', message: error instanceof errors.JWTExpired ? 'The access token expired' : 'The access token is not valid' };
}

/**
 * How far ahead of our clock a token's `iat` may be: issuers' clocks drift a
 * little; a token minted later than that was made with a wrong clock or
 * pre-minted to outlive a key, and `exp` alone would not catch it.
 */
const ISSUED_AT_SKEW_SECONDS = 60;

function claimsOf(payload: JWTPayload): Result<AccessToken, LookupFailure> {
  if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + ISSUED_AT_SKEW_SECONDS) return err({ code: 'invalid_token', message: 'The access token was issued in the future' });
  const scope = payload.scope ?? '';
  // RFC 9068 names the client `client_id`; some issuers only say `azp`.
  const clientId = payload.client_id ?? payload.azp;
  if (typeof scope !== 'string') return err({ code: 'invalid_token', message: 'The access token\'s scope is not a string' });
  if (typeof clientId !== 'string' || clientId === '') return err({ code: 'invalid_token', message: 'The access token names no client (client_id)' });
  return ok({ scopes: scope.split(' ').filter(Boolean), clientId });
}

export async function verifyAccessToken(token: string, trusted: TrustedIssuer): Promise<Result<AccessToken, LookupFailure>> {
  try {
    const { payload } = await jwtVerify(token, trusted.keys, { issuer: trusted.issuer, audience: trusted.audience, requiredClaims: ['exp'] });
    return claimsOf(payload);
  } catch (error) {
    return err(verificationFailure(error));
  }
}
