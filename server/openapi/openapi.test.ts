/**
 * The OpenAPI document served at /openapi.json: a valid OpenAPI 3.1 document
 * shaped for client generators, checked with ajv (JSON Schema 2020-12, OpenAPI
 * 3.1's dialect) against real replies of a running server for each status
 * these tests provoke (every other test's replies are held against it too:
 * testing/api-contract.ts).
 */
import { validate } from '@hyperjump/json-schema/openapi-3-1';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDevIssuer } from '../apps-api/dev-issuer';
import { type CreatedSession, WebhookEventType } from '../../contracts';
import { scopeUrl } from '../apps-api/scopes';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
let appId: string;
/** As much of the document as the tests read. */
interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, unknown> } | undefined> | undefined>;
  components: { schemas: Record<string, object> };
}
let document: OpenApiDocument;
interface FullOperation {
  tags?: string[];
  description?: string;
  parameters?: { in: string; name: string }[];
  responses: Record<string, { description: string } | undefined>;
}
/** The rest of the document, for the checks of its shape. */
interface FullDocument {
  info: { license?: object; contact?: object };
  paths: Record<string, Record<string, FullOperation | undefined>>;
  webhooks: Record<string, Record<string, FullOperation>>;
  components: { schemas: Record<string, object> };
}
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const DOCUMENT_ID = 'https://wallet-checkout.invalid/openapi.json';

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey, appId } = await server.merchant());
  const reply = await fetch(`${server.url}/openapi.json`);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  document = (await reply.json()) as OpenApiDocument;
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
});
afterAll(() => server.close());

/** JSON pointer segment, as a URI fragment: `~` and `/` escaped, then `{` `}` percent-encoded. */
const segment = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

/** The reply's status and JSON body, checked against the document's schema for it. */
async function conforms(path: string, method: string, reply: Response): Promise<unknown> {
  const status = String(reply.status);
  expect(document.paths[path]?.[method]?.responses?.[status], `${method.toUpperCase()} ${path} ${status} is documented`).toBeDefined();
  const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'].map(segment).join('/');
  const validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
  const body: unknown = await reply.json();
  expect(validate(body) ? [] : validate.errors, `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  return body;
}

const merchant = (init: RequestInit = {}) => ({ ...init, headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...init.headers } });

describe('/openapi.json', () => {
  it('is an OpenAPI 3.1 document of every public endpoint, its component schemas valid JSON Schema 2020-12', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/api/sessions',
        '/api/sessions/{id}',
        '/api/sessions/{id}/public',
        '/api/sessions/{id}/pay',
        '/api/sessions/{id}/quote',
        '/api/sessions/{id}/authenticate',
        '/api/sessions/{id}/capture',
        '/api/sessions/{id}/release',
        '/api/sessions/{id}/refunds',
        '/api/keys/roll',
        '/api/origin_verifications',
        '/api/origin_verifications/verify',
        '/api/quote_endpoint',
        '/api/payment_methods',
        '/api/payment_methods/{paymentMethodId}',
        '/api/payment_methods/{paymentMethodId}/detach',
        '/api/payment_methods/{paymentMethodId}/charges',
        '/api/disputes',
        '/api/disputes/{disputeId}',
        '/api/disputes/{disputeId}/evidence',
        '/api/webhook_endpoints',
        '/api/webhook_endpoints/{id}',
        '/api/webhook_endpoints/{id}/roll_secret',
        '/api/events',
        '/api/events/{id}',
        '/api/events/{id}/redeliver',
        '/api/test_helpers/clock',
        '/api/test_helpers/advance_clock',
        '/v3/apps/{appId}',
        '/sandbox/service/api/v1/charges',
        '/sandbox/service/api/v1/refunds',
        '/sandbox/wallet/cards',
        '/sandbox/wallet/tokens',
      ].sort(),
    );
    expect(document.servers).toEqual([{ url: server.url, description: 'This server' }]);
    for (const [name, schema] of Object.entries(document.components.schemas)) expect(ajv.validateSchema(schema), name).toBe(true);
  });

  it('is what a generator needs: each shared schema one component, used; tags, descriptions and info complete; the statuses the server sends', async () => {
    const full = document as unknown as FullDocument;
    expect((await validate('https://spec.openapis.org/oas/3.1/schema-base', full as never)).valid).toBe(true);
    const text = JSON.stringify(full);
    const referenced = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]));
    expect(Object.keys(full.components.schemas).filter((name) => !referenced.has(name)), 'unused components').toEqual([]);
    expect(Object.keys(full.components.schemas).filter((name) => name.endsWith('Output')), 'components twice, as input and output').toEqual([]);
    expect(Object.keys(full.components.schemas)).toEqual(expect.arrayContaining(['PaymentOutcome', 'Card', 'SessionStatus', 'PaymentOutcomeStatus', 'ApiErrorBody', 'SessionList']));

    expect(full.info.license).toBeDefined();
    expect(full.info.contact).toBeDefined();
    const operations = [...Object.entries(full.paths), ...Object.entries(full.webhooks)].flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ at: `${method} ${path}`, ...operation })));
    expect(operations.filter((operation) => !operation.tags?.length || !operation.description).map((operation) => operation.at), 'untagged or undescribed').toEqual([]);
    // Every event, a payment's, a kept card's and a dispute's, and the merchant's quote endpoint's request (docs/express-checkout.md).
    expect(Object.keys(full.webhooks).sort()).toEqual([...WebhookEventType.options, 'quoteRequest'].sort());

    const statuses = (path: string, method = 'post') => Object.keys(full.paths[path]![method]!.responses);
    for (const widgetRoute of ['/api/sessions/{id}/public', '/api/sessions/{id}/pay', '/api/sessions/{id}/quote', '/api/sessions/{id}/authenticate']) {
      const method = widgetRoute.endsWith('public') ? 'get' : 'post';
      expect(full.paths[widgetRoute]![method]!.parameters?.map((parameter) => `${parameter.in} ${parameter.name}`), widgetRoute).toContain('header origin');
      expect(statuses(widgetRoute, method), widgetRoute).toContain('429');
    }
    for (const jsonRoute of ['/api/sessions', '/api/sessions/{id}/pay']) expect(statuses(jsonRoute), jsonRoute).toEqual(expect.arrayContaining(['413', '415']));
    for (const serviceRoute of ['/api/sessions/{id}/capture', '/api/sessions/{id}/release', '/api/sessions/{id}/authenticate']) {
      expect(statuses(serviceRoute), serviceRoute).toContain('502');
      expect(full.paths[serviceRoute]!.post!.responses['503']?.description ?? '', serviceRoute).not.toContain('service_unavailable');
    }
    expect(full.paths['/api/sessions/{id}/pay']!.post!.responses['200']!.description).toEqual(expect.stringContaining('`authorized`'));
    expect(full.paths['/api/sessions/{id}/pay']!.post!.responses['200']!.description).toEqual(expect.stringContaining('`requires_authentication`'));
  });

  it('describes the checkout API as it answers', async () => {
    const session = (await conforms('/api/sessions', 'post', await fetch(`${server.url}/api/sessions`, merchant({ method: 'POST', body: JSON.stringify({ amount: 1250, currency: 'usd', country_code: 'us', description: 'Beans' }) })))) as CreatedSession;
    await conforms('/api/sessions', 'post', await fetch(`${server.url}/api/sessions`, merchant({ method: 'POST', body: JSON.stringify({ amount: -1 }) })));
    await conforms('/api/sessions', 'post', await fetch(`${server.url}/api/sessions`, { method: 'POST', body: '{}' }));

    await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/${session.id}`, merchant()));
    await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/cs_nope`, merchant()));

    const listed = (await conforms('/api/sessions', 'get', await fetch(`${server.url}/api/sessions?limit=1&status=open`, merchant()))) as { data: { id: string }[] };
    expect(listed.data.map((listedSession) => listedSession.id)).toEqual([session.id]);
    await conforms('/api/sessions', 'get', await fetch(`${server.url}/api/sessions?starting_after=${session.id}&reference=none`, merchant()));
    await conforms('/api/sessions', 'get', await fetch(`${server.url}/api/sessions?limit=0`, merchant()));
    await conforms('/api/sessions', 'get', await fetch(`${server.url}/api/sessions`));

    const widget = { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' };
    await conforms('/api/sessions/{id}/public', 'get', await fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: widget }));
    await conforms('/api/sessions/{id}/public', 'get', await fetch(`${server.url}/api/sessions/${session.id}/public`));

    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    await conforms('/api/sessions/{id}/pay', 'post', await server.pay(session, { payment_data: paymentData, amount: 1 }));
    const paid = (await conforms('/api/sessions/{id}/pay', 'post', await server.pay(session, { payment_data: paymentData }))) as { outcome: { status: string } };
    expect(paid.outcome.status).toBe('succeeded');
    await conforms('/api/sessions/{id}/pay', 'post', await server.pay(session, { payment_data: paymentData }));
    await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/${session.id}`, merchant()));
  });

  it("describes the billing address check and the issuer's address verification: the address on file in, the addresses, the check and the verification out to the secret key only", async () => {
    const properties = (name: string) => Object.keys((document.components.schemas[name] as { properties?: object }).properties ?? {});
    for (const name of ['Session', 'CreatedSession']) expect(properties(name)).toEqual(expect.arrayContaining(['billing_address_on_file', 'billing_address', 'billing_address_check', 'address_verification']));
    for (const name of ['PublicSession', 'PayReply']) expect(JSON.stringify(document.components.schemas[name])).not.toMatch(/billing_address|address_verification/);
    // What each says it is: the on-file check compares what the shopper's browser supplied; the issuer's is the card's own.
    const described = (name: string) => JSON.stringify((document.components.schemas['Session'] as { properties: Record<string, unknown> }).properties[name]);
    expect(described('billing_address_check')).toContain("supplied by the shopper's browser");
    expect(described('billing_address_check')).toContain('not proof');
    expect(described('address_verification')).toContain('card issuer');
    expect(JSON.stringify(document.paths['/api/sessions']?.post)).toContain('#/components/schemas/CreateSessionBody');
    expect(properties('CreateSessionBody')).toContain('billing_address_on_file');

    const onFile = { name: 'Sandbox Shopper', address: { line1: '1 Sandbox Way', postal_code: '94105', country: 'US' } };
    const session = (await conforms('/api/sessions', 'post', await fetch(`${server.url}/api/sessions`, merchant({ method: 'POST', body: JSON.stringify({ amount: 1250, currency: 'usd', country_code: 'us', billing_address_on_file: onFile }) })))) as CreatedSession;
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds', 'mismatching') });
    const paid = (await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/${session.id}`, merchant()))) as { billing_address_check: { verdict: string }; address_verification: unknown };
    expect(paid.billing_address_check.verdict).toBe('mismatch');
    expect(paid.address_verification).toEqual({ line1: 'mismatch', postal_code: 'mismatch' });
  });

  it('describes holds and 3-D Secure as they answer', async () => {
    const create = async (body: object) => (await (await fetch(`${server.url}/api/sessions`, merchant({ method: 'POST', body: JSON.stringify(body) }))).json()) as CreatedSession;
    const hold = await create({ amount: 4000, currency: 'usd', country_code: 'us', intent: 'hold' });
    const operate = (operation: string, body: object) => fetch(`${server.url}/api/sessions/${hold.id}/${operation}`, merchant({ method: 'POST', body: JSON.stringify(body) }));
    await conforms('/api/sessions/{id}/capture', 'post', await operate('capture', {}));
    await server.pay(hold, { payment_data: await server.walletPaymentData(hold, 'visa-success-3ds') });
    await conforms('/api/sessions/{id}/capture', 'post', await operate('capture', { amount: 99_999 }));
    const captured = (await conforms('/api/sessions/{id}/capture', 'post', await operate('capture', { amount: 2500 }))) as { status: string };
    expect(captured.status).toBe('captured');
    await conforms('/api/sessions/{id}/release', 'post', await operate('release', {}));

    const challenged = await create({ amount: 1800, currency: 'usd', country_code: 'us' });
    const authenticate = (body: object) => fetch(`${server.url}/api/sessions/${challenged.id}/authenticate`, { method: 'POST', headers: { authorization: `Bearer ${challenged.client_secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const paid = (await conforms('/api/sessions/{id}/pay', 'post', await server.pay(challenged, { payment_data: await server.walletPaymentData(challenged, 'visa-3ds-required-pan') }))) as { outcome: { status: string } };
    expect(paid.outcome.status).toBe('requires_authentication');
    await conforms('/api/sessions/{id}/authenticate', 'post', await authenticate({ cancel: false }));
    await conforms('/api/sessions/{id}/authenticate', 'post', await authenticate({}));
    const abandoned = (await conforms('/api/sessions/{id}/authenticate', 'post', await authenticate({ cancel: true }))) as { outcome: { status: string } };
    expect(abandoned.outcome.status).toBe('declined');
    await conforms('/api/sessions/{id}/authenticate', 'post', await authenticate({ cancel: true }));

    // Expired: every widget route answers 410, the merchant reads the session as expired.
    await server.pay(challenged, { payment_data: await server.walletPaymentData(challenged, 'visa-3ds-required-pan') });
    const anotherCard = await server.walletPaymentData(challenged, 'visa-success-3ds');
    await server.store.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('id', '=', challenged.id).execute();
    await conforms('/api/sessions/{id}/authenticate', 'post', await authenticate({}));
    await conforms('/api/sessions/{id}/pay', 'post', await server.pay(challenged, { payment_data: anotherCard }));
    await conforms('/api/sessions/{id}/public', 'get', await fetch(`${server.url}/api/sessions/${challenged.id}/public`, { headers: { authorization: `Bearer ${challenged.client_secret}` } }));
    const expired = (await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/${challenged.id}`, merchant()))) as { status: string };
    expect(expired.status).toBe('expired');
  });

  it('describes refunds as they answer, and a session with its refunds', async () => {
    const create = async (body: object) => (await (await fetch(`${server.url}/api/sessions`, merchant({ method: 'POST', body: JSON.stringify(body) }))).json()) as CreatedSession;
    const session = await create({ amount: 3000, currency: 'usd', country_code: 'us' });
    const refund = (body: object, key = secretKey) => fetch(`${server.url}/api/sessions/${session.id}/refunds`, merchant({ method: 'POST', body: JSON.stringify(body), headers: { authorization: `Bearer ${key}` } }));
    await conforms('/api/sessions/{id}/refunds', 'post', await refund({}));
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const partial = (await conforms('/api/sessions/{id}/refunds', 'post', await refund({ amount: 1000, reason: 'duplicate' }))) as { status: string };
    expect(partial.status).toBe('succeeded');
    await conforms('/api/sessions/{id}/refunds', 'post', await refund({ amount: 2001 }));
    await conforms('/api/sessions/{id}/refunds', 'post', await refund({ amount: -1 }));
    await conforms('/api/sessions/{id}/refunds', 'post', await refund({}, 'sk_test_nope'));
    const read = (await conforms('/api/sessions/{id}', 'get', await fetch(`${server.url}/api/sessions/${session.id}`, merchant()))) as { amount_refunded: number };
    expect(read.amount_refunded).toBe(1000);
    await conforms('/api/sessions', 'get', await fetch(`${server.url}/api/sessions?limit=1`, merchant()));

    const refunds = `${server.url}/sandbox/service/api/v1/refunds`;
    const headers = { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'content-type': 'application/json', 'merchant-account': 'm_test' };
    await conforms('/sandbox/service/api/v1/refunds', 'post', await fetch(refunds, { method: 'POST', headers, body: JSON.stringify({ charge: 'ch_0', amount: 1 }) }));
    await conforms('/sandbox/service/api/v1/refunds', 'post', await fetch(refunds, { method: 'POST', headers, body: JSON.stringify({ charge: 'nope', amount: 1 }) }));
  });

  it('describes key rotation as it answers', async () => {
    const { secretKey: rolledKey } = await server.merchant();
    const roll = (body: unknown, key = rolledKey) => fetch(`${server.url}/api/keys/roll`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await conforms('/api/keys/roll', 'post', await roll({ expire_current_in_seconds: 604_801 }));
    const rolled = (await conforms('/api/keys/roll', 'post', await roll({ expire_current_in_seconds: 0 }))) as { secret: string };
    await conforms('/api/keys/roll', 'post', await roll({}));
    await conforms('/api/keys/roll', 'post', await roll({}, rolled.secret));
  });

  it("describes platform mode's origin verification as it answers", async () => {
    const { secretKey: platformKey } = await server.merchant({ allowed_origins: ['http://127.0.0.1:9', 'https://shop.example'], google_pay_mode: 'platform' });
    const call = (path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${platformKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    await conforms('/api/origin_verifications', 'get', await call('/api/origin_verifications'));
    await conforms('/api/origin_verifications', 'get', await fetch(`${server.url}/api/origin_verifications`));
    await conforms('/api/origin_verifications/verify', 'post', await call('/api/origin_verifications/verify', { origin: 'http://127.0.0.1:9' }));
    await conforms('/api/origin_verifications/verify', 'post', await call('/api/origin_verifications/verify', { origin: 'https://elsewhere.example' }));
    await conforms('/api/origin_verifications/verify', 'post', await call('/api/origin_verifications/verify', {}));
  });

  it('describes webhook endpoints and events as they answer', async () => {
    const { secretKey: shopKey } = await server.merchant();
    const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${shopKey}`, 'content-type': 'application/json' } });
    const endpoint = (await conforms('/api/webhook_endpoints', 'post', await call('/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['session.succeeded'] }) }))) as { id: string };
    await conforms('/api/webhook_endpoints', 'post', await call('/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['nope'] }) }));
    await conforms('/api/webhook_endpoints', 'post', await fetch(`${server.url}/api/webhook_endpoints`, { method: 'POST', body: '{}' }));
    await conforms('/api/webhook_endpoints', 'get', await call('/api/webhook_endpoints'));
    await conforms('/api/webhook_endpoints', 'get', await fetch(`${server.url}/api/webhook_endpoints`));
    await conforms('/api/webhook_endpoints/{id}/roll_secret', 'post', await call(`/api/webhook_endpoints/${endpoint.id}/roll_secret`, { method: 'POST', body: JSON.stringify({ expire_current_in_seconds: 60 }) }));
    await conforms('/api/webhook_endpoints/{id}/roll_secret', 'post', await call(`/api/webhook_endpoints/${endpoint.id}/roll_secret`, { method: 'POST', body: JSON.stringify({ expire_current_in_seconds: -1 }) }));

    const session = await server.createSession(shopKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const listed = (await conforms('/api/events', 'get', await call('/api/events?limit=1&type=session.succeeded'))) as { data: { id: string }[] };
    const eventId = listed.data[0]!.id;
    await conforms('/api/events', 'get', await call('/api/events?limit=0'));
    await conforms('/api/events/{id}', 'get', await call(`/api/events/${eventId}`));
    await conforms('/api/events/{id}', 'get', await call('/api/events/evt_nope'));
    await conforms('/api/events/{id}/redeliver', 'post', await call(`/api/events/${eventId}/redeliver`, { method: 'POST' }));
    await conforms('/api/events/{id}/redeliver', 'post', await call('/api/events/evt_nope/redeliver', { method: 'POST' }));

    await conforms('/api/webhook_endpoints/{id}', 'delete', await call(`/api/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' }));
    await conforms('/api/webhook_endpoints/{id}', 'delete', await call(`/api/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' }));
    await conforms('/api/webhook_endpoints/{id}/roll_secret', 'post', await call(`/api/webhook_endpoints/${endpoint.id}/roll_secret`, { method: 'POST', body: '{}' }));
  });

  it('describes the apps API and the sandbox charge API as they answer', async () => {
    const token = await loadDevIssuer(server.dataDir).sign({ scopes: [scopeUrl('https://www.googleapis.com/auth', 'storage.file')], clientId: 'openapi-test', subject: 'tester', lifetimeSeconds: 60 });
    await conforms('/v3/apps/{appId}', 'get', await fetch(`${server.url}/v3/apps/${appId}`, { headers: { authorization: `Bearer ${token}` } }));
    await conforms('/v3/apps/{appId}', 'get', await fetch(`${server.url}/v3/apps/${appId}`));
    await conforms('/v3/apps/{appId}', 'get', await fetch(`${server.url}/v3/apps/app_missing000`, { headers: { authorization: `Bearer ${token}` } }));

    const charges = `${server.url}/sandbox/service/api/v1/charges`;
    const headers = { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'content-type': 'application/json', 'merchant-account': 'm_test' };
    const body = { source_data: { type: 'network_token', network_token: { token: '4111111111111111', token_type: 'walletpay', expiry_month: '12', expiry_year: '2099' } }, amount: 500, currency: 'eur' };
    await conforms('/sandbox/service/api/v1/charges', 'post', await fetch(charges, { method: 'POST', headers, body: JSON.stringify(body) }));
    await conforms('/sandbox/service/api/v1/charges', 'post', await fetch(charges, { method: 'POST', headers, body: JSON.stringify({ ...body, amount: 0 }) }));
    await conforms('/sandbox/service/api/v1/charges', 'post', await fetch(charges, { method: 'POST', headers: { ...headers, authorization: 'Bearer sk_sandbox_wrong' }, body: JSON.stringify(body) }));
  });
});
