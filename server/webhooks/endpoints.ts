/**
 * An app's webhook endpoints: where its events go, each with a signing secret
 * of its own, shown once and kept sealed with the data cipher (a copy of the
 * database alone cannot forge deliveries).
 */
import type { App } from '../apps';
import { type CreatedWebhookEndpoint, CreateWebhookEndpointBody, MAX_WEBHOOK_ENDPOINTS_PER_APP, type RolledWebhookSecret, type WebhookEndpoint, WebhookEventType } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import type { DataCipher } from '../lib/data-cipher';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { Store } from '../store';
import { countLiveEndpoints, insertEndpoint, replaceEndpointSecret, type WebhookEndpointRow } from '../store/webhooks';
import type { WebhookAddressPolicy } from '../config';
import { checkEndpointUrl, type Resolve } from './address-policy';
import { newWebhookSecret } from './signature';

export interface EndpointDependencies {
  store: Store;
  cipher: DataCipher;
  addressPolicy: WebhookAddressPolicy;
  /** DNS, replaceable in tests. */
  resolve?: Resolve;
}

export function endpointView(row: WebhookEndpointRow): WebhookEndpoint {
  return { id: row.id, object: 'webhook_endpoint', url: row.url, events: row.events === null ? null : WebhookEventType.array().parse(JSON.parse(row.events)), created: row.created };
}

export async function createEndpoint(deps: EndpointDependencies, app: App, body: unknown): Promise<Result<CreatedWebhookEndpoint, Failure>> {
  const parsed = CreateWebhookEndpointBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const allowed = await checkEndpointUrl(parsed.data.url, deps.addressPolicy, deps.resolve);
  if (!allowed.ok) return allowed;
  if ((await countLiveEndpoints(deps.store, app.id)) >= MAX_WEBHOOK_ENDPOINTS_PER_APP) {
    return err({ code: 'too_many_endpoints', message: `An application has at most ${MAX_WEBHOOK_ENDPOINTS_PER_APP} webhook endpoints: delete one first` });
  }
  const secret = newWebhookSecret();
  const events = parsed.data.events === undefined ? null : [...new Set(parsed.data.events)];
  const row = { id: `we_${randomId(16)}`, app_id: app.id, url: parsed.data.url, events: events && JSON.stringify(events), secret_sealed: deps.cipher.seal(secret), created: Date.now() };
  await insertEndpoint(deps.store, row);
  return ok({ id: row.id, object: 'webhook_endpoint', url: row.url, events, created: row.created, secret });
}

/**
 * A new signing secret, used at once; the current one keeps signing too until
 * `expireCurrentInSeconds` from now, so the merchant's receivers can move to
 * the new one without refusing a delivery. A secret still live from an
 * earlier roll stops now: there are at most two.
 */
export async function rollEndpointSecret(deps: EndpointDependencies, endpoint: WebhookEndpointRow, expireCurrentInSeconds: number): Promise<RolledWebhookSecret> {
  const secret = newWebhookSecret();
  const now = Date.now();
  const previousExpires = now + expireCurrentInSeconds * 1000;
  await replaceEndpointSecret(deps.store, endpoint.id, { current: deps.cipher.seal(secret), previous: endpoint.secret_sealed, previousExpires });
  return { object: 'webhook_endpoint_secret', endpoint: endpoint.id, secret, created: now, previous_secret_expires: previousExpires };
}
