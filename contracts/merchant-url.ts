/** The URLs of a merchant's server that the backend calls: webhook endpoints and the quote endpoint (docs/webhooks.md). */
import { z } from 'zod';

/** The longest URL of a merchant's server we call (webhooks, the quote endpoint): what browsers and proxies reliably carry (docs/webhooks.md). */
export const MAX_MERCHANT_URL_LENGTH = 2048;

/**
 * An absolute http(s) URL of at most 2,048 characters, without user or password (they would be sent
 * to every hop that logs URLs). Anything else (text that is no URL, a relative URL) is a 400
 * invalid_request naming `url`, never a crash: the credentials check runs only on a URL that parses.
 * Production's rules on the host: server/webhooks/address-policy.ts (url_not_allowed).
 */
export const MerchantUrl = z
  .url({ protocol: /^https?$/, error: 'an absolute http:// or https:// URL' })
  .max(MAX_MERCHANT_URL_LENGTH, `at most ${MAX_MERCHANT_URL_LENGTH} characters`)
  .refine((url) => {
    if (!URL.canParse(url)) return true;
    const parsed = new URL(url);
    return parsed.username === '' && parsed.password === '';
  }, 'no user or password in the URL');
