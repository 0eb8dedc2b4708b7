/**
 * The sandbox wallet's part of Google Pay for platforms, as Google plays it:
 * a request under the platform's merchant id (or naming a merchantOrigin)
 * must carry an authJwt signed with the key the platform registered, for the
 * merchant's site the sheet is opened on, and not expired.
 */
import type { KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { type MerchantInfo, PlatformAuthClaims } from '../contracts';
import { type Result, err, ok } from '../common/result';

/** What Google would hold after the platform's registration. */
export interface RegisteredPlatform {
  googleMerchantId: string;
  publicKey: KeyObject;
}

/** Why the wallet refuses a platform request: shown as the sheet's DEVELOPER_ERROR. */
export type PlatformRefusal = { code: 'merchant_unauthorized'; message: string };

const refuse = (message: string): Result<never, PlatformRefusal> => err({ code: 'merchant_unauthorized', message });

/**
 * `pageOrigin`: the top-level page the sheet opens over (the wallet sees it;
 * the merchant cannot choose it). A merchant's own request passes untouched.
 */
export async function checkPlatformRequest(
  platform: RegisteredPlatform | undefined,
  merchantInfo: MerchantInfo,
  pageOrigin: string,
  now: () => number,
): Promise<Result<void, PlatformRefusal>> {
  const isPlatformRequest = merchantInfo.authJwt !== undefined || merchantInfo.merchantOrigin !== undefined || (platform !== undefined && merchantInfo.merchantId === platform.googleMerchantId);
  if (!isPlatformRequest) return ok(undefined);
  if (!platform) return refuse('No platform is registered with the sandbox wallet (PLATFORM_GOOGLE_MERCHANT_ID, PLATFORM_SIGNING_KEY)');
  if (!merchantInfo.authJwt) return refuse('merchantInfo.authJwt is required for a platform request');
  let claims: PlatformAuthClaims;
  try {
    const verified = await jwtVerify(merchantInfo.authJwt, platform.publicKey, { algorithms: ['ES256'], currentDate: new Date(now()), requiredClaims: ['iat', 'exp'] });
    const parsed = PlatformAuthClaims.safeParse(verified.payload);
    if (!parsed.success) return refuse('merchantInfo.authJwt lacks merchantId or merchantOrigin');
    claims = parsed.data;
  } catch (error) {
    if (error instanceof errors.JWTExpired) return refuse('merchantInfo.authJwt has expired');
    return refuse('merchantInfo.authJwt is not signed by the registered platform key');
  }
  if (claims.merchantId !== platform.googleMerchantId || merchantInfo.merchantId !== platform.googleMerchantId) {
    return refuse('merchantInfo.authJwt is for another merchant id');
  }
  let pageHost: string;
  try {
    pageHost = new URL(pageOrigin).host;
  } catch {
    return refuse('the page origin is not a URL');
  }
  if (claims.merchantOrigin !== merchantInfo.merchantOrigin || claims.merchantOrigin !== pageHost) {
    return refuse(`merchantInfo.authJwt is for ${claims.merchantOrigin}, not for this site (${pageHost})`);
  }
  return ok(undefined);
}
