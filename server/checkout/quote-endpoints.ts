/**
 * An app's quote endpoint (docs/express-checkout.md#the-merchants-quote-endpoint): where its sessions created
 * with `quote_endpoint` are priced, one per app. Its URL is held to the webhooks' address rules (an https URL
 * of a public address in production); its signing secret is shown once, when it is set, and kept sealed with
 * the data cipher, as a webhook endpoint's is. Setting it again replaces it, with a new secret.
 */
import type { App } from '../apps';
import { type CreatedQuoteEndpoint, type QuoteEndpoint, SetQuoteEndpointBody } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { deleteQuoteEndpoint, findQuoteEndpoint, type QuoteEndpointRow, replaceQuoteEndpoint } from '../store/quote-endpoints';
import type { WebhookAddressPolicy } from '../config';
import { checkEndpointUrl, type Resolve } from '../webhooks/address-policy';

export interface QuoteEndpointDependencies {
  store: Store;
  cipher: DataCipher;
  /** The webhooks' address rule: the merchant chooses this URL as it chooses theirs. */
  addressPolicy: WebhookAddressPolicy;
  /** DNS, replaceable in tests. */
  resolve?: Resolve;
}

const noEndpoint: Failure = { code: 'not_found', message: 'This application has no quote endpoint: set one with PUT /api/quote_endpoint' };

const view = (row: QuoteEndpointRow): QuoteEndpoint => ({ object: 'quote_endpoint', url: row.url, created: row.created });

/** PUT /api/quote_endpoint: the app's endpoint is `url` from now on, signed with a new secret (shown only in this reply). */
export async function setQuoteEndpoint(deps: QuoteEndpointDependencies, app: App, body: unknown): Promise<Result<CreatedQuoteEndpoint, Failure>> {
  const parsed = SetQuoteEndpointBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const allowed = await checkEndpointUrl(parsed.data.url, deps.addressPolicy, deps.resolve);
  if (!allowed.ok) return allowed;
  const secret = `qsec_${randomId(24)}`;
  const row: QuoteEndpointRow = { app_id: app.id, url: parsed.data.url, secret_sealed: deps.cipher.seal(secret), created: Date.now() };
  await replaceQuoteEndpoint(deps.store, row);
  return ok({ ...view(row), secret });
}

/** GET /api/quote_endpoint: without its secret. */
export async function quoteEndpointOf(store: Store, app: App): Promise<Result<QuoteEndpoint, Failure>> {
  const row = await findQuoteEndpoint(store, app.id);
  return row ? ok(view(row)) : err(noEndpoint);
}

/** DELETE /api/quote_endpoint: its sessions' sheets and payments can be priced no more (each is refused as the endpoint's failure). */
export async function removeQuoteEndpoint(store: Store, app: App): Promise<Result<void, Failure>> {
  return (await deleteQuoteEndpoint(store, app.id)) ? ok(undefined) : err(noEndpoint);
}
