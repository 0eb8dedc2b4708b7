/**
 * Which URLs the widget may put in a frame on the merchant's page: a 3-D
 * Secure challenge page comes from the payment service, and a `javascript:` or
 * `data:` URL there would run in, or impersonate, the merchant's page. Plain
 * code, no zod: the widget's bundle imports it too.
 */

/** Hosts a browser only reaches on its own machine: the embedded sandbox serves its challenge over http there. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

export function isFrameableUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOST.test(parsed.hostname));
}

export const FRAMEABLE_URL_MESSAGE = 'must be an https URL (http only on a loopback host)';

/**
 * An http(s) origin exactly as a browser writes it; not `null` (a sandboxed
 * frame, a file), which names no page to answer or to check.
 */
export function isWebOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    return false;
  }
}

/** A host name of letters, digits, hyphens (and underscores, which browsers accept), an IPv4 address or a bracketed IPv6 one: no wildcard, no empty label. */
const ORIGIN_HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*|\[[0-9a-f:.]+\])$/;

export const ALLOWED_ORIGIN_MESSAGE = 'must be an http(s) origin, such as https://shop.example: no path, query, fragment, user, password or wildcard';

/**
 * An origin a merchant may allow (docs/dashboard.md, "Allowed origins"): an
 * http or https origin written alone, with at most a trailing `/`, and nothing
 * else: no path, query, fragment, user or password, and no wildcard (list each
 * site: a `*` would let any subdomain, a stranger's included, embed the checkout).
 * Returns it as browsers send it (lower case, the default port dropped), or
 * undefined. `javascript:`, `file:` and `data:` URLs have no origin (theirs is
 * `"null"`): refused, not stored as `"null"`.
 */
export function allowedOriginOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // href normalises case and the default port; anything besides the origin and "/" (a path, `?`, `#`, credentials) makes them differ.
  if (url.href !== `${url.origin}/` || !text.includes('://')) return undefined;
  if (!ORIGIN_HOST.test(url.hostname)) return undefined;
  return url.origin;
}
