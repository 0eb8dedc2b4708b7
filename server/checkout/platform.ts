/**
 * Google Pay for platforms: we ask Google for payments under our own Google
 * merchant id, for a merchant's site we vouch for with a short-lived JWT
 * (`merchantInfo.authJwt`) signed with the key whose public half we
 * registered with Google. See docs/platform.md.
 */
import { SignJWT } from 'jose';
import type { PlatformAuthClaims } from '../../contracts';
import type { PlatformAuthorization } from '../../contracts/payment-data-request';
import type { PlatformConfig } from '../config';

/**
 * How long an authJwt is good for. Signed when the widget reads the session,
 * it must outlive a shopper's pause before pressing the button; a page left
 * open longer gets a fresh one from "Try again" (docs/platform.md).
 */
export const AUTH_JWT_LIFETIME_SECONDS = 30 * 60;

/**
 * Google's merchantOrigin is the site's fully qualified domain name, without a
 * scheme: the origin's host (its port only when it is not the default one,
 * which only a development address has).
 */
export const merchantOriginOf = (pageOrigin: string): string => new URL(pageOrigin).host;

export type PlatformSigner = (pageOrigin: string) => Promise<PlatformAuthorization>;

export function createPlatformSigner(platform: PlatformConfig, now: () => number = Date.now): PlatformSigner {
  return async (pageOrigin) => {
    const iat = Math.floor(now() / 1000);
    const claims: PlatformAuthClaims = { merchantId: platform.googleMerchantId, merchantOrigin: merchantOriginOf(pageOrigin), iat, exp: iat + AUTH_JWT_LIFETIME_SECONDS };
    const authJwt = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(platform.signingKey);
    return { merchantId: claims.merchantId, merchantOrigin: claims.merchantOrigin, authJwt };
  };
}
