/** The widget's calls to our backend. Types only from the contracts: no zod in the bundle. */
import type { AuthenticateBody, PaymentData, PaymentOutcome, PublicSession } from '../../contracts';
import { EMBEDDER_ORIGIN_HEADER } from '../../contracts/embedder';
import { builtinFetch, BuiltinPromise, builtinSubtle, toJson } from '../../common/browser/builtins';
import type { RelayedChange } from './quote-decide';
import type { CheckoutErrorCode } from './types';

export class CheckoutApiError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutApiError';
  }
}

/** `cs_abc123_secret_xyz` -> `cs_abc123`; null when the secret isn't shaped like one. */
export function parseClientSecret(clientSecret: unknown): string | null {
  if (typeof clientSecret !== 'string') return null;
  const i = clientSecret.indexOf('_secret_');
  if (i <= 0 || i + '_secret_'.length >= clientSecret.length) return null;
  return clientSecret.slice(0, i);
}

/** Absolute origin/base without a trailing slash. */
export function normalizeApiBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/** Resolves the sandbox wallet script: absolute URL, or a path relative to apiBase. */
export function resolveScriptUrl(script: string, apiBase: string): string {
  return new URL(script, apiBase + '/').href;
}

export interface PayResponse {
  outcome: PaymentOutcome;
  session: PublicSession;
}

/**
 * Iframe mode, in our checkout frame: the origin of the page embedding it,
 * which every call names so that the backend judges that page, not the frame.
 */
let embedderOrigin: string | undefined;

/** Called once by the checkout frame (frame.ts), with the origin its init message came from. */
export function setEmbedderOrigin(origin: string): void {
  embedderOrigin = origin;
}

/** The embedding page's origin in iframe mode, else undefined: handed to the after-click chunk, whose copy of this module names it too. */
export const embedderOriginOf = (): string | undefined => embedderOrigin;

/** The origin of the page the shopper sees: the embedding page's in iframe mode, else this page's. */
export const shopperPageOrigin = (): string => embedderOrigin ?? location.origin;

/** A CheckoutApiError of any copy of this module (the bundle's, or a chunk's). */
export const isApiError = (err: unknown): err is CheckoutApiError => (err as Error | null)?.name === 'CheckoutApiError';

/**
 * `clientSecret` null: the URL carries its credential (the view key), and the request no header a browser would preflight.
 * `sent`: called once the request has left, for work that can wait on the network.
 */
async function call<T>(url: string, clientSecret: string | null, init: RequestInit = {}, signal?: AbortSignal, sent?: () => void): Promise<T> {
  let res: Response;
  try {
    // The page's fetch and JSON are not asked (common/browser/builtins.ts); the response is parsed by the engine's own JSON.
    const sending = builtinFetch(url, {
      ...init,
      signal,
      cache: 'no-store',
      credentials: 'omit',
      headers: {
        Accept: 'application/json',
        ...(clientSecret !== null ? { Authorization: `Bearer ${clientSecret}` } : {}),
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        ...(embedderOrigin ? { [EMBEDDER_ORIGIN_HEADER]: embedderOrigin } : {}),
      },
    });
    sent?.();
    res = await sending;
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new CheckoutApiError(0, 'network_error', `${url} could not be reached`);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    throw new CheckoutApiError(
      res.status,
      typeof e?.code === 'string' ? e.code : `http_${res.status}`,
      typeof e?.message === 'string' ? e.message : `The payment server answered ${res.status}.`,
    );
  }
  if (body === null) throw new CheckoutApiError(res.status, 'bad_response', 'The payment server sent an unreadable answer.');
  return body as T;
}

/**
 * The view the page handed over (MountOptions.sessionView), if it is this session's and shaped like
 * one; else null, and the widget asks the backend. Only a shape check: the page could show anything
 * anyway, and every payment is made at the session's amount on the backend. An `amount_display`
 * not shaped like one (or missing, from a server before it) is dropped: the widget then formats the
 * amount itself.
 */
export function carriedView(value: unknown, sessionId: string): PublicSession | null {
  const v = value as Partial<Record<keyof PublicSession, unknown>> | null;
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
  const shaped =
    isObject(v) && v?.id === sessionId && typeof v.status === 'string' && typeof v.amount === 'number' && typeof v.currency === 'string' &&
    typeof v.currency_exponent === 'number' && typeof v.merchant_name === 'string' && isObject(v.wallet) && isObject(v.payment_data_request);
  if (!shaped) return null;
  const display = v.amount_display;
  const displayShaped = isObject(display) && typeof display.locale === 'string' && typeof display.text === 'string';
  return { ...(v as PublicSession), amount_display: displayShaped ? (display as PublicSession['amount_display']) : null };
}

/**
 * The session's view, asked for with the client secret's view key in the URL: a CORS-simple GET (no
 * Authorization header), so a browser sends no preflight before it, a round trip the plain tag's
 * button would otherwise wait for. The key reads the view and nothing else; the secret itself stays
 * out of every URL (docs/decisions.md). Without WebCrypto (a page not in a secure context), with the
 * secret in the Authorization header, preflighted. The digest answers in a later task, once the
 * main thread is free: `sent` is where the caller's work that can wait goes, so it does not hold the request back.
 */
export async function fetchPublicSession(apiBase: string, sessionId: string, clientSecret: string, signal?: AbortSignal, sent?: () => void) {
  const url = `${apiBase}/api/sessions/${encodeURIComponent(sessionId)}/public`;
  const key = await viewKeyOf(clientSecret);
  return key === null ? call<PublicSession>(url, clientSecret, {}, signal, sent) : call<PublicSession>(`${url}?view_key=${key}`, null, {}, signal, sent);
}

/** The client secret's view key (the backend's viewKeyOpens): its SHA-256 in unpadded base64url; null without WebCrypto. */
export async function viewKeyOf(clientSecret: string): Promise<string | null> {
  if (!builtinSubtle) return null;
  let digest: Uint8Array;
  try {
    digest = new Uint8Array(await builtinSubtle.digest('SHA-256', new TextEncoder().encode(clientSecret)));
  } catch {
    return null;
  }
  let binary = '';
  for (let i = 0; i < digest.length; i++) binary += String.fromCharCode(digest[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * `quoteId`: the latest quote of a session with delivery options (quote-relay.ts), which the backend charges;
 * `agreementId`: the agreement the widget showed for a session that keeps the card (agreement-words.ts).
 */
export function postPayment(apiBase: string, sessionId: string, clientSecret: string, paymentData: PaymentData, quoteId?: string, agreementId?: string, signal?: AbortSignal) {
  return call<PayResponse>(
    `${apiBase}/api/sessions/${encodeURIComponent(sessionId)}/pay`,
    clientSecret,
    // An undefined quote_id or agreement is left out, as JSON leaves it out.
    { method: 'POST', body: toJson({ payment_data: paymentData, quote_id: quoteId, agreement: agreementId === undefined ? undefined : { id: agreementId } }) },
    signal,
  );
}

/** The shopper changed the address or the delivery option in the sheet: the backend prices it (a QuoteReply, quote-decide.ts). */
export function postQuote(apiBase: string, sessionId: string, clientSecret: string, change: RelayedChange, signal?: AbortSignal) {
  return call<unknown>(`${apiBase}/api/sessions/${encodeURIComponent(sessionId)}/quote`, clientSecret, { method: 'POST', body: toJson({ intermediate_payment_data: change }) }, signal);
}

/** After the 3-D Secure challenge: the backend asks the service how it went and finishes (or declines) the payment. */
export function postAuthentication(apiBase: string, sessionId: string, clientSecret: string, body: AuthenticateBody, signal?: AbortSignal) {
  return call<PayResponse>(`${apiBase}/api/sessions/${encodeURIComponent(sessionId)}/authenticate`, clientSecret, { method: 'POST', body: toJson(body) }, signal);
}

/**
 * The widget's error code for a failed call. `otherwise`: what any other
 * refusal means for this call (a refused load is our problem, a refused
 * payment means nothing was charged).
 */
export function errorCodeOf(err: CheckoutApiError, otherwise: CheckoutErrorCode): CheckoutErrorCode {
  if (err.status === 0) return 'network_error';
  if (err.code === 'origin_not_allowed') return 'origin_not_allowed';
  if (err.status === 401 || err.status === 403) return 'session_unauthorized';
  if (err.status === 404) return 'session_not_found';
  // Retryable, and said so: the shopper's "Try again" after a few seconds will be answered.
  if (err.status === 503 && err.code === 'store_unavailable') return 'store_unavailable';
  return err.status >= 500 ? 'server_error' : otherwise;
}

/**
 * Loads a script once per page (shared across widgets and across copies of this
 * bundle), under the page's CSP nonce when it has one; with `integrity`, only
 * if its bytes match (fetched with CORS, as SRI requires).
 */
export function loadScriptOnce(src: string, nonce: string | undefined, integrity?: string): Promise<void> {
  const w = window as unknown as { __walletCheckoutScripts?: Map<string, Promise<void>> };
  const cache = (w.__walletCheckoutScripts ??= new Map());
  let p = cache.get(src);
  if (!p) {
    p = new BuiltinPromise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      if (nonce) s.nonce = nonce;
      if (integrity) {
        s.integrity = integrity;
        s.crossOrigin = 'anonymous';
      }
      s.onload = () => resolve();
      s.onerror = () => {
        cache.delete(src);
        s.remove();
        reject(new Error(`Failed to load ${src}`));
      };
      document.head.appendChild(s);
    });
    cache.set(src, p);
  }
  return p;
}
