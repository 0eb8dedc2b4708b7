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
