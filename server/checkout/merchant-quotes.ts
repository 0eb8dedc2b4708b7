/**
 * The call to a merchant's quote endpoint (docs/express-checkout.md#the-merchants-quote-endpoint): a
 * QuoteRequest POSTed as JSON, signed as webhook deliveries are (contracts/webhook-signature.ts, with the
 * endpoint's own secret), under the webhooks' outbound rules (webhooks/outbound.ts: the address policy
 * checked in the connection's own DNS lookup, no redirect followed, no connection pooled). The whole call,
 * from the address check to the answer's last byte, has `timeoutMs`; the answer must be a 200 with a JSON
 * body of at most MAX_ANSWER_BYTES that is a QuoteAnswer, read strictly. Anything else is a failure,
 * described and logged by its kind only: never the address, the codes, or what the merchant sent.
 */
import type { z } from 'zod';
import { type QuoteAddress, QuoteAnswer, type QuoteRequest } from '../../contracts';
import { SIGNATURE_HEADER, signatureHeader } from '../../contracts/webhook-signature';
import type { Logger } from '../../common/logging';
import { type Result, err, ok } from '../../common/result';
import type { WebhookAddressPolicy } from '../config';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { findQuoteEndpoint } from '../store/quote-endpoints';
import type { SessionRow } from '../store/sessions';
import { lineItemsOf } from './sessions';
import { checkEndpointUrl, type Resolve, systemResolve } from '../webhooks/address-policy';
import { type OutboundError, type OutboundOptions, requestOutbound } from '../webhooks/outbound';

/** How the backend reaches quote endpoints (the composition root sets it from the configuration). */
export interface MerchantQuoteOptions {
  /** The webhooks' address rule (NODE_ENV=production: https to public addresses only). */
  addressPolicy: WebhookAddressPolicy;
  /** QUOTE_ENDPOINT_TIMEOUT_MS: the whole call. */
  timeoutMs: number;
  /** Where failures are logged, by their kind. */
  logger: Logger;
  /** DNS, replaceable in tests. */
  resolve?: Resolve;
}

export interface MerchantQuoteDependencies {
  store: Store;
  /** Opens the endpoint's signing secret. */
  cipher: DataCipher;
  merchantQuotes: MerchantQuoteOptions;
}

/** What one request asks the endpoint to price: the address (null for a session that asks none), the option shown (null: none yet), the codes entered. */
export interface QuoteQuestion {
  address: QuoteAddress | null;
  option: string | null;
  codes: readonly string[];
}

/** An address as the endpoint receives it: the fields the wallet gave, blank ones left out (Google gives a missing part as ""). */
export function quoteAddressOf(country: string, fields: Partial<Record<Exclude<keyof QuoteAddress, 'country'>, string | undefined>>): QuoteAddress {
  return { ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== '')), country };
}

/** The QuoteRequest for the session at `stage`; `id` names the quote it asks for (the sheet's is stored under it when priced). */
export const quoteRequest = (session: SessionRow, stage: QuoteRequest['stage'], id: string, question: QuoteQuestion): QuoteRequest => ({
  object: 'quote_request',
  id,
  stage,
  session: session.id,
  reference: session.reference,
  amount: session.amount,
  currency: session.currency.toLowerCase(),
  line_items: lineItemsOf(session),
  shipping_address: question.address,
  shipping_option: question.option,
  promotion_codes: [...question.codes],
  created: Date.now(),
});

/** The most of an answer read: a quote of ten options and twenty codes is a few kB; anything longer is not one. */
export const MAX_ANSWER_BYTES = 64 * 1024;

const USER_AGENT = 'WalletCheckout-Quotes/1.0';

/** `work`'s outcome, or `late` once `ms` have passed without one. */
async function within<T>(ms: number, work: Promise<T>, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** POSTs the signed body; settles with the answer's text when it is a 200 of at most MAX_ANSWER_BYTES. */
const post = (url: URL, body: string, headers: Record<string, string>, options: OutboundOptions) => {
  const tooLarge = { error: `the answer is larger than ${MAX_ANSWER_BYTES} bytes` };
  return requestOutbound<{ text: string }>(
    url,
    {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      body,
      timeoutError: `no complete answer within ${options.timeoutMs} ms`,
      onResponse(response, settle) {
        const status = response.statusCode ?? 0;
        if (status !== 200) return settle({ error: `the endpoint answered HTTP ${status}${status >= 300 && status < 400 ? ' (a redirect, which is not followed)' : ''}` });
        if (Number(response.headers['content-length']) > MAX_ANSWER_BYTES) return settle(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return settle(tooLarge);
          chunks.push(chunk);
        });
        response.on('end', () => settle({ text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => settle({ error: 'the answer was cut off' }));
      },
    },
    options,
  );
};

/** One issue by its field and what was expected, never a value; an unknown field is not named (its name is the merchant's text). */
const issueText = (issue: z.core.$ZodIssue): string => `${issue.path.map(String).join('.') || '(answer)'}: ${issue.code === 'unrecognized_keys' ? 'a field QuoteAnswer does not have' : issue.message}`;

/** Why a body is no QuoteAnswer: of its two forms (a price, a refusal), the issues of the one it came closest to. */
function answerProblem(error: z.ZodError): string {
  const [issue] = error.issues;
  const issues = issue?.code === 'invalid_union' && issue.errors.length > 0 ? issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best)) : error.issues;
  return issues.slice(0, 3).map(issueText).join('; ');
}

/** Reads the answer's text strictly: JSON, then a QuoteAnswer. */
function answerOf(text: string): Result<QuoteAnswer, string> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err('the answer is not JSON');
  }
  const parsed = QuoteAnswer.safeParse(json);
  return parsed.success ? ok(parsed.data) : err(`the answer is not a QuoteAnswer: ${answerProblem(parsed.error)}`);
}

/** Sends `request` to the app's quote endpoint; the failure says what went wrong, by its kind. */
async function call(deps: MerchantQuoteDependencies, appId: string, request: QuoteRequest): Promise<Result<QuoteAnswer, string>> {
  const { addressPolicy, timeoutMs, resolve = systemResolve } = deps.merchantQuotes;
  const endpoint = await findQuoteEndpoint(deps.store, appId);
  if (!endpoint) return err('the application has no quote endpoint');
  const secret = deps.cipher.open(endpoint.secret_sealed);
  if (!secret.ok) return err("the signing secret does not open with this server's DATA_ENCRYPTION_KEY");
  const body = JSON.stringify(request);
  const headers = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, [SIGNATURE_HEADER]: signatureHeader([secret.value], body, Math.floor(Date.now() / 1000)) };
  const late: OutboundError = { error: `no complete answer within ${timeoutMs} ms` };
  // The address check resolves the host too: the deadline covers it, as it covers the connection and the answer.
  const sent = await within(
    timeoutMs,
    (async () => {
      const allowed = await checkEndpointUrl(endpoint.url, addressPolicy, resolve);
      if (!allowed.ok) return { error: `refused: ${allowed.error.message.replace(/^url: /, '')}` };
      return post(new URL(endpoint.url), body, headers, { addressPolicy, timeoutMs, resolve });
    })(),
    late,
  );
  return 'error' in sent ? err(sent.error) : answerOf(sent.text);
}

/** Logs why a call to the quote endpoint priced nothing: its kind, the session and the stage, never what was sent or answered. */
export function logQuoteFailure(deps: MerchantQuoteDependencies, request: QuoteRequest, failure: string): void {
  deps.merchantQuotes.logger.warn({ session: request.session, stage: request.stage, failure }, 'quote endpoint failed');
}

/**
 * Asks the app's quote endpoint to price `request`: its answer, or the failure's kind (logged). The caller
 * turns a failure into what the shopper sees, and logs an answer it cannot use with logQuoteFailure.
 */
export async function askQuoteEndpoint(deps: MerchantQuoteDependencies, appId: string, request: QuoteRequest): Promise<Result<QuoteAnswer, string>> {
  const answered = await call(deps, appId, request);
  if (!answered.ok) logQuoteFailure(deps, request, answered.error);
  return answered;
}
