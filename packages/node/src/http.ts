/**
 * The one place the library speaks HTTP: the secret key on every request, an idempotency key
 * on every POST, retries on the same key, a timeout per attempt, and errors as classes.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WalletCheckoutApiError, WalletCheckoutConnectionError, type WalletCheckoutError } from './errors';

export interface ClientOptions {
  /** Where your Wallet Checkout backend is, e.g. `https://checkout.example.com` (no default: it is yours). */
  baseUrl: string;
  /** How many times a failed request is sent again (network error, timeout, 5xx, 429, an idempotency key still in use). 2 by default; 0 never retries. */
  maxRetries?: number;
  /** How long one attempt may take before it is abandoned and retried, in ms. 30 000 by default. */
  timeoutMs?: number;
  /**
   * The first retry's wait ceiling in ms, doubled for each retry after it (capped at 8 s); each wait is
   * random below its ceiling (full jitter). 500 by default. A reply's `Retry-After` is honoured instead (up to a minute).
   */
  retryBaseDelayMs?: number;
  /** The `fetch` to send requests with (a proxy agent's, a test's); the global one by default. */
  fetch?: typeof fetch;
}

/** What any single call may override. */
export interface RequestOptions {
  /** For a POST: the key that makes its retries (the library's and yours) take effect once. A random UUID by default. */
  idempotencyKey?: string;
  /** Cancels the call, retries included; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: object;
  options?: RequestOptions;
}

const MAX_BACKOFF_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** What one attempt came to: a parsed reply, or an error and whether sending again may help. */
type Attempt = { ok: true; body: unknown } | { ok: false; error: WalletCheckoutError; retry: boolean; retryAfterMs?: number };

export class HttpClient {
  // A private field: util.inspect and console.log of the client never show the key.
  readonly #secretKey: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #retryBaseDelayMs: number;

  constructor(secretKey: string, options: ClientOptions) {
    // The message never repeats the value: it may be a live key pasted in the wrong place.
    if (typeof secretKey !== 'string' || !/^sk_(test|live)_\S+$/.test(secretKey)) throw new TypeError('WalletCheckout: the first argument must be your secret key (sk_test_... or sk_live_...), not a client secret');
    const baseUrl = URL.canParse(options?.baseUrl ?? '') ? new URL(options.baseUrl) : undefined;
    if (!baseUrl || !/^https?:$/.test(baseUrl.protocol)) throw new TypeError('WalletCheckout: options.baseUrl must be the http(s) URL of your Wallet Checkout backend');
    this.#secretKey = secretKey;
    this.#baseUrl = baseUrl.href.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  }

  async request<T>({ method, path, query, body, options = {} }: HttpRequest): Promise<T> {
    const url = new URL(`${this.#baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.#secretKey}`, accept: 'application/json' };
    const sendsBody = method === 'POST' || method === 'PUT';
    if (sendsBody) headers['content-type'] = 'application/json';
    // Made once, before the first attempt: every retry carries the same key, so the API runs the request once.
    // A PUT needs none: sent again, it replaces what the first set, and the reply that arrives is the one in force.
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    const payload = sendsBody ? JSON.stringify(body ?? {}) : undefined;
    const maxRetries = options.maxRetries ?? this.#maxRetries;
    for (let retry = 0; ; retry++) {
      const attempt = await this.#attempt(url, { method, headers, body: payload }, options);
      if (attempt.ok) return attempt.body as T;
      if (!attempt.retry || retry >= maxRetries) throw attempt.error;
      try {
        await sleep(attempt.retryAfterMs ?? this.#backoff(retry), undefined, { signal: options.signal });
      } catch {
        // Only the caller's signal interrupts the wait: the call ends with its reason, as during an attempt.
        throw options.signal?.reason;
      }
    }
  }

  /** Full jitter: random below base x 2^retry, capped, so many clients failing at once do not come back in step. */
  #backoff(retry: number): number {
    return Math.random() * Math.min(MAX_BACKOFF_MS, this.#retryBaseDelayMs * 2 ** retry);
  }

  async #attempt(url: URL, init: RequestInit, options: RequestOptions): Promise<Attempt> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, { ...init, signal });
      text = await response.text();
    } catch (cause) {
      // The caller's own cancellation is not ours to retry or to rename.
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) return { ok: false, retry: true, error: new WalletCheckoutConnectionError('timeout', `No reply from ${url.origin} within ${options.timeoutMs ?? this.#timeoutMs} ms`, { cause }) };
      return { ok: false, retry: true, error: new WalletCheckoutConnectionError('connection_error', `Could not reach ${url.origin}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause }) };
    }
    // 204: done, and nothing to say (a DELETE).
    if (response.status === 204) return { ok: true, body: undefined };
    const parsed = parseJson(text);
    if (response.ok && parsed !== undefined) return { ok: true, body: parsed };
    const requestId = response.headers.get('request-id');
    const error = apiErrorOf(parsed);
    return {
      ok: false,
      error: error
        ? new WalletCheckoutApiError(response.status, error.code, error.message, requestId)
        : new WalletCheckoutApiError(response.status, 'unexpected_response', `${url.origin} answered ${response.status} with a body that is not the API's JSON`, requestId),
      // 5xx: our bug or a dependency down; 429: rate limited; idempotency_key_in_use: the first attempt is still running.
      retry: response.status >= 500 || response.status === 429 || error?.code === 'idempotency_key_in_use',
      retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function apiErrorOf(body: unknown): { code: string; message: string } | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string' ? { code: error.code, message: error.message } : undefined;
}

/** `Retry-After` in seconds (the API sends no dates), capped so that a bad header cannot stall a call for hours. */
function retryAfterMs(header: string | null): number | undefined {
  return header !== null && /^\d+$/.test(header) ? Math.min(Number(header) * 1000, MAX_RETRY_AFTER_MS) : undefined;
}
