/**
 * What the contract fuzz sends its requests to: the real server in a process of its own
 * (child-server.ts: a request that kills it fails the fuzz, not the test runner), with the demo
 * merchant, the embedded sandbox and the development token issuer, and the objects a fuzzed
 * request can name: sessions in each state (unpaid, paid, a hold, waiting on 3-D Secure), webhook
 * endpoints, events, the sandbox service's charges, the app. Requests go out with node:http, byte
 * for byte as generated (fetch would resolve `..` in a path and refuses a body on GET).
 */
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { loadDevIssuer } from '../../server/apps-api/dev-issuer';
import { scopeUrl } from '../../server/apps-api/scopes';
import type { CreatedSession, CreatedWebhookEndpoint, PublicSession } from '../../contracts';
import { type ChildServer, shopClient, startChildServer } from '../child-server';
import { GOOGLE_SCOPE_BASE } from '../apps-api';
import { mintPaymentData, sandboxWalletUrl } from '../sandbox';
import type { Credential, Example, FuzzKnowledge, FuzzRequest, Operation, Param, ParamValue } from './requests';
import { encodeSegment } from './requests';

/** A reply as it came: a status and the bytes (undefined: the connection ended without a whole reply). */
export interface WireReply {
  status: number;
  contentType: string | undefined;
  body: string;
  ms: number;
}

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  pathValues: Record<string, string | undefined>;
  query: [string, string][];
  /** Whether the credential sent is the one the operation needs. */
  authorized: boolean;
}

/** Stands for the payment minted for the session a pay names (`fresh:session.payable`), until the request is sent. */
const FRESH_PAYMENT = '\u0001fresh-payment\u0001';
const FRESH_PAYMENT_TEXT = JSON.stringify(FRESH_PAYMENT);

/** The demo merchant's account at the sandbox service (demo). */
const DEMO_MERCHANT_ACCOUNT = 'demo';
/** A reply larger than this is cut (no declared reply comes near it). */
const MAX_REPLY_BYTES = 4 << 20;
const REQUEST_TIMEOUT_MS = 20_000;

export interface FuzzTarget {
  readonly url: string;
  readonly knowledge: FuzzKnowledge;
  /** The request as the wire carries it, its placeholders filled in from what the target knows now (a `fresh:` pool's object is made for it). */
  materialize(operation: Operation, request: FuzzRequest): Promise<WireRequest>;
  /** The reply; throws when the connection ended without one. */
  send(wire: WireRequest): Promise<WireReply>;
  /** What the target learns from a reply it accepted: a rolled key, a new endpoint, a new session. */
  learn(operation: Operation, wire: WireRequest, reply: WireReply): void;
  /** Whether /healthz answers 200 within a few seconds. */
  alive(): Promise<boolean>;
  /** The V8 heap in use, from /metrics (prom-client's default metrics). */
  heapUsedBytes(): Promise<number>;
  /** The server's latest output (its logs at warn, and a crash's stack). */
  output(): string;
  /** After a crash: the server again, on the same data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface Pools {
  [pool: string]: string[];
}

/** Which of the target's objects each path parameter names, by operation. */
const PATH_POOLS: Record<string, string[]> = {
  getSession: ['session.unpaid', 'session.paid', 'session.hold', 'session.challenge', 'session.captured'],
  getPublicSession: ['session.unpaid', 'session.paid', 'session.hold'],
  paySession: ['session.unpaid', 'session.paid'],
  quoteSession: ['session.quotable', 'session.unpaid', 'session.paid'],
  authenticateSession: ['fresh:session.challenge', 'session.challenge', 'session.unpaid'],
  captureSession: ['fresh:session.hold', 'session.hold', 'session.captured'],
  releaseSession: ['fresh:session.hold', 'session.hold'],
  refundSession: ['fresh:session.paid', 'session.paid', 'session.captured'],
  deleteWebhookEndpoint: ['webhook_endpoint', 'fresh:webhook_endpoint'],
  rollWebhookSecret: ['webhook_endpoint', 'fresh:webhook_endpoint'],
  getEvent: ['event'],
  redeliverEvent: ['event'],
  getApp: ['app'],
};

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const child = await startChildServer({
    env: {
      LOG_LEVEL: 'warn',
      // The fuzz registers webhook URLs it makes up: nothing may ever be posted to them.
      WEBHOOK_DELIVERY: 'on-demand',
    },
    startTimeoutMs: 60_000,
  });
  try {
    return await prepare(child);
  } catch (error) {
    await child.kill();
    throw error;
  }
}

async function prepare(child: ChildServer): Promise<FuzzTarget> {
  const demo = JSON.parse(readFileSync(join(child.dataDir, 'demo-merchant.json'), 'utf8')) as { app_id: string; secret_key: string };
  let secretKey = demo.secret_key;
  let keyCreated = 0;
  // The demo merchant as it is now: the fuzz rolls its key (and takes the new one, `learn`).
  const shop = () => shopClient({ url: child.url, serviceKey: child.serviceKey, demoSecretKey: secretKey });
  const pools: Pools = { 'session.quotable': [], 'session.unpaid': [], 'session.paid': [], 'session.hold': [], 'session.challenge': [], 'session.captured': [], webhook_endpoint: [], event: [], app: [demo.app_id], charge: [] };
  const clientSecrets = new Map<string, string>();
  const examples: Record<string, Example[]> = {};
  const example = (operationId: string, ...more: Example[]) => (examples[operationId] ??= []).push(...more);

  const session = async (pool: string, body: Record<string, unknown> = {}): Promise<CreatedSession> => {
    const created = await shop().createSession({ reference: `fuzz ${pool}`, ...body });
    clientSecrets.set(created.id, created.client_secret);
    pools[pool]!.push(created.id);
    return created;
  };
  const paid = async (created: CreatedSession, card: string): Promise<void> => {
    const paying = await shop().pay(created, await shop().walletPaymentData(created, card));
    if (paying.status !== 200) throw new Error(`the fuzz's fixture ${created.id} could not pay with ${card}: ${JSON.stringify(paying.body)}`);
  };

  // Unpaid sessions, and for three of them a payment the sandbox wallet minted: a pay that can succeed.
  for (let i = 0; i < 6; i++) {
    const created = await session('session.unpaid', i % 2 ? { amount: 1000, currency: 'EUR', country_code: 'DE' } : {});
    if (i < 3) example('paySession', { params: { id: { value: created.id } }, body: { payment_data: await shop().walletPaymentData(created, 'visa-success-pan') } });
  }
  // Sessions with delivery options, which the relay quotes: one option for every country, one for GB only.
  const options = [{ id: 'standard', label: 'Standard', amount: 500 }, { id: 'express-gb', label: 'Express', detail: 'Next day', amount: 1500, countries: ['GB'] }];
  for (let i = 0; i < 2; i++) await session('session.quotable', { shipping: { countries: ['US', 'GB'], options } });
  example(
    'quoteSession',
    { body: { intermediate_payment_data: { callbackTrigger: 'INITIALIZE', shippingAddress: { countryCode: 'US', postalCode: '94043' } } } },
    { body: { intermediate_payment_data: { callbackTrigger: 'SHIPPING_OPTION', shippingAddress: { countryCode: 'GB' }, shippingOptionData: { id: 'express-gb' } } } },
    { body: { intermediate_payment_data: { callbackTrigger: 'SHIPPING_ADDRESS', shippingAddress: { countryCode: 'FR' } } } },
  );
  for (let i = 0; i < 3; i++) await paid(await session('session.paid'), 'visa-success-3ds');
  for (let i = 0; i < 4; i++) await paid(await session('session.hold', { intent: 'hold' }), 'mastercard-success-3ds');
  for (let i = 0; i < 2; i++) {
    const held = await session('session.captured', { intent: 'hold' });
    await paid(held, 'visa-success-3ds');
    const captured = await fetch(`${child.url}/api/sessions/${held.id}/capture`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: '{}' });
    if (captured.status !== 200) throw new Error(`the fuzz's fixture ${held.id} could not be captured: ${await captured.text()}`);
  }
  for (let i = 0; i < 2; i++) {
    const challenged = await session('session.challenge');
    const paying = await shop().pay(challenged, await shop().walletPaymentData(challenged, 'visa-3ds-required-pan'));
    if (paying.body.outcome?.status !== 'requires_authentication') throw new Error(`the fuzz's fixture ${challenged.id} met no 3-D Secure challenge: ${JSON.stringify(paying.body)}`);
  }
  for (let i = 0; i < 2; i++) {
    const endpoint: CreatedWebhookEndpoint = await shop().createWebhookEndpoint(`http://127.0.0.1:9/fuzz-${i}`);
    pools.webhook_endpoint!.push(endpoint.id);
  }
  pools.event!.push(...(await shop().events()).slice(0, 20).map((event) => event.id));
  // Succeeded charges first: the ones a refund at the service can take money back from.
  const charges = await shop().charges();
  pools.charge!.push(...[...charges.filter((charge) => charge.status === 'succeeded'), ...charges.filter((charge) => charge.status !== 'succeeded')].slice(0, 20).map((charge) => charge.id));

  const unpaid = pools['session.unpaid']![5]!;
  const view = (await (await fetch(`${child.url}/api/sessions/${unpaid}/public`, { headers: { authorization: `Bearer ${clientSecrets.get(unpaid)}` } })).json()) as PublicSession;
  const paymentDataRequest = view.payment_data_request;
  // The sandbox wallet's own route, as the widget's page calls it: the fixture checks it mints.
  await mintPaymentData(sandboxWalletUrl(view.wallet), 'visa-success-pan', paymentDataRequest);

  example('createSession', { body: { amount: 2400, currency: 'USD', country_code: 'US' } }, { body: { amount: 1000, currency: 'JPY', country_code: 'JP', intent: 'hold', reference: 'fuzz', description: 'Fuzz order', locale: 'ja-JP' } }, { body: { amount: 999, currency: 'EUR', country_code: 'FR', billing_address_on_file: { name: 'A', address: { line1: '1 Rue', postal_code: '75001', country: 'FR' } } } });
  // A pay that can succeed, any number of times: a session made for the request and a payment the sandbox wallet minted for it.
  example('paySession', { params: { id: { pool: 'fresh:session.payable', index: 0 } }, body: { payment_data: FRESH_PAYMENT } });
  example('authenticateSession', { body: {} }, { body: { cancel: true } });
  example('captureSession', { body: {} }, { body: { amount: 100 } });
  example('refundSession', { body: {} }, { body: { amount: 1, reason: 'requested_by_customer' } });
  example('rollSecretKey', { body: {} }, { body: { expire_current_in_seconds: 0 } }, { body: { expire_current_in_seconds: 3600 } });
  example('createWebhookEndpoint', { body: { url: 'http://127.0.0.1:9/hook' } }, { body: { url: 'https://127.0.0.1:9/hook', events: ['session.succeeded', 'refund.failed'] } });
  example('rollWebhookSecret', { body: {} }, { body: { expire_current_in_seconds: 60 } });
  example('createSandboxWalletToken', { body: { card_id: 'visa-success-pan', payment_data_request: paymentDataRequest } }, { body: { card_id: 'amex-success-3ds', billing_address_id: 'mismatching', payment_data_request: paymentDataRequest } });
  example('createCharge', { body: { source_data: { type: 'network_token', network_token: { token: '4111111111111111', token_type: 'walletpay', expiry_month: '12', expiry_year: '2099' } }, amount: 500, currency: 'usd' } });
  for (const charge of pools.charge!.slice(0, 4)) example('createRefund', { body: { charge, amount: 1 } });

  const token = await loadDevIssuer(child.dataDir).sign({ scopes: [scopeUrl(GOOGLE_SCOPE_BASE, 'storage.apps.readonly')], clientId: 'contract-fuzz', subject: 'fuzz', lifetimeSeconds: 3600 });
  const origin = new URL(child.url).origin;

  const knowledge: FuzzKnowledge = {
    pools: (operation: Operation, param: Param) => (param.in === 'path' ? (PATH_POOLS[operation.id] ?? []) : []),
    examples: (operation: Operation) => examples[operation.id] ?? [],
    paramExamples(operation: Operation, param: Param) {
      if (param.name === 'fields') return ['name', 'id,name', 'checkout/merchantId', 'checkout(environment,allowedOrigins)', 'checkout/*', 'icons(size)', 'icons', '*', 'kind,productUrl', 'productUrl'];
      if (param.name === 'origin') return [origin, 'https://shop.example'];
      if (param.name === 'merchant-account') return [DEMO_MERCHANT_ACCOUNT];
      if (param.name === 'access_token') return [token];
      if (param.name === 'status') return ['succeeded', 'processing'];
      if (param.name === 'limit') return ['1', '10', '100'];
      if (param.name === 'starting_after' && operation.id === 'listSessions') return pools['session.paid']!.slice(0, 2);
      if (param.name === 'starting_after' && operation.id === 'listEvents') return pools.event!.slice(0, 2);
      if (param.name === 'prettyPrint') return ['true', 'false'];
      return [];
    },
  };

  /** The payment minted for each session made payable (`fresh:session.payable`): what FRESH_PAYMENT becomes in its pay's body. */
  const payable = new Map<string, string>();

  /** An object made for one request: a hold or a paid session no earlier request used up (money moves once per session). */
  const fresh = async (pool: string): Promise<string> => {
    if (pool === 'fresh:session.payable') {
      const created = await session('session.unpaid');
      payable.set(created.id, JSON.stringify(await shop().walletPaymentData(created, 'visa-success-pan')));
      return created.id;
    }
    if (pool === 'fresh:session.challenge') {
      const challenged = await session('session.challenge');
      await shop().pay(challenged, await shop().walletPaymentData(challenged, 'visa-3ds-required-pan'));
      return challenged.id;
    }
    if (pool === 'fresh:session.hold') {
      const held = await session('session.hold', { intent: 'hold' });
      await paid(held, 'mastercard-success-3ds');
      return held.id;
    }
    if (pool === 'fresh:session.paid') {
      const charged = await session('session.paid');
      await paid(charged, 'visa-success-3ds');
      return charged.id;
    }
    if (pool === 'fresh:webhook_endpoint') {
      // An app has at most 16: the oldest the fuzz knows makes room.
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await fetch(`${child.url}/api/webhook_endpoints`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/fresh' }) });
        if (response.status === 201) {
          const { id } = (await response.json()) as { id: string };
          pools.webhook_endpoint!.push(id);
          return id;
        }
        const oldest = pools.webhook_endpoint!.shift();
        if (oldest) await fetch(`${child.url}/api/webhook_endpoints/${oldest}`, { method: 'DELETE', headers: { authorization: `Bearer ${secretKey}` } });
      }
      throw new Error('the fuzz could not make a webhook endpoint');
    }
    throw new Error(`no such pool: ${pool}`);
  };

  let unique = 0;
  const resolve = async (value: ParamValue): Promise<string | undefined> => {
    if ('value' in value) return value.value;
    if ('raw' in value) return value.raw;
    if ('unique' in value) return `fuzz-${process.pid}-${Date.now()}-${unique++}`;
    if (value.pool.startsWith('fresh:')) return fresh(value.pool);
    const pool = pools[value.pool] ?? [];
    return pool.length > 0 ? pool[value.index % pool.length] : `${value.pool}_none`;
  };
  const anySecret = () => clientSecrets.values().next().value ?? 'none';

  function credentialFor(operation: Operation, credential: Credential, sessionId: string | undefined): string | undefined {
    const scheme = operation.schemes[0];
    const valid = (which: string | undefined) => {
      switch (which) {
        case 'merchantSecretKey':
          return secretKey;
        case 'clientSecret':
          return (sessionId && clientSecrets.get(sessionId)) ?? anySecret();
        case 'oauth2AccessToken':
          return token;
        case 'serviceKey':
          return child.serviceKey;
        default:
          return undefined;
      }
    };
    switch (credential) {
      case 'valid':
        return scheme ? `Bearer ${valid(scheme)}` : undefined;
      case 'none':
        return undefined;
      case 'garbage':
        return 'Bearer sk_test_fuzz_not_a_key';
      case 'basic':
        return `Basic ${Buffer.from(`${valid(scheme) ?? 'user'}:`).toString('base64')}`;
      case 'empty':
        return 'Bearer ';
      case 'another':
        return `Bearer ${valid(scheme === 'merchantSecretKey' ? 'clientSecret' : 'merchantSecretKey')}`;
    }
  }

  let agent = new Agent({ keepAlive: true, maxSockets: 4 });

  return {
    url: child.url,
    knowledge,
    async materialize(operation, request) {
      const pathValues: Record<string, string | undefined> = {};
      let path = operation.template;
      for (const param of operation.params.filter((p) => p.in === 'path')) {
        const entry = request.params.find((candidate) => candidate.name === param.name && candidate.in === 'path');
        const value = entry ? await resolve(entry.value) : '';
        const segment = entry && 'raw' in entry.value ? entry.value.raw : encodeSegment(value ?? '');
        try {
          pathValues[param.name] = decodeURIComponent(segment);
        } catch {
          pathValues[param.name] = undefined;
        }
        path = path.replace(`{${param.name}}`, segment);
      }
      const query: [string, string][] = [];
      for (const entry of request.params.filter((candidate) => candidate.in === 'query')) query.push([entry.name, (await resolve(entry.value)) ?? '']);
      if (query.length > 0) path += `?${query.map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`).join('&')}`;
      const headers: Record<string, string> = {};
      for (const entry of request.params.filter((candidate) => candidate.in === 'header')) {
        const name = entry.name.toLowerCase();
        const value = (await resolve(entry.value)) ?? '';
        // A header given twice is sent as one, comma-joined, as HTTP combines them.
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      const sessionId = pathValues.id;
      const authorization = credentialFor(operation, request.credential, sessionId);
      if (authorization !== undefined) headers.authorization = authorization;
      if (request.contentType !== undefined) headers['content-type'] = request.contentType;
      const minted = sessionId === undefined ? undefined : payable.get(sessionId);
      const text = request.body && minted ? request.body.text.replace(FRESH_PAYMENT_TEXT, () => minted) : request.body?.text;
      const body = request.body && text !== undefined ? Buffer.from(text, request.body.encoding === 'bytes' ? 'latin1' : request.body.encoding === 'utf-16le' ? 'utf16le' : 'utf8') : undefined;
      const accessToken = query.find(([name]) => name === 'access_token')?.[1];
      // Google's `access_token` parameter authorizes as the header would, when the header carries no bearer token (both at once is a 400).
      const authorized = operation.schemes.length === 0 || request.credential === 'valid' || (accessToken === token && !/^Bearer\s+\S/i.test(authorization ?? ''));
      return { method: operation.method, path, headers, body, pathValues, query, authorized };
    },
    send(wire) {
      return new Promise<WireReply>((resolvePromise, reject) => {
        const started = performance.now();
        const target = new URL(child.url);
        const req = httpRequest({ host: target.hostname, port: target.port, method: wire.method, path: wire.path, agent, headers: { ...wire.headers, ...(wire.body ? { 'content-length': String(wire.body.length) } : {}) }, timeout: REQUEST_TIMEOUT_MS });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_REPLY_BYTES) chunks.push(chunk);
          });
          res.on('end', () => {
            const contentType = res.headers['content-type'];
            resolvePromise({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started });
          });
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`no reply within ${REQUEST_TIMEOUT_MS} ms`)));
        // A server that answers a large body early (413) may close before the whole body is written: the reply stands.
        req.on('error', (error) => {
          if (!answered) reject(error);
        });
        req.end(wire.body);
      });
    },
    learn(operation, _wire, reply) {
      if (reply.status < 200 || reply.status >= 300) return;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(reply.body) as Record<string, unknown>;
      } catch {
        return;
      }
      // The newest key only: a replay under a reused Idempotency-Key answers an older roll's key, which a later roll may have ended.
      if (operation.id === 'rollSecretKey' && typeof body.secret === 'string' && typeof body.created === 'number' && body.created >= keyCreated) {
        secretKey = body.secret;
        keyCreated = body.created;
      }
      if (operation.id === 'createWebhookEndpoint' && typeof body.id === 'string') pools.webhook_endpoint!.push(body.id);
      if (operation.id === 'createSession' && typeof body.id === 'string' && typeof body.client_secret === 'string') {
        clientSecrets.set(body.id, body.client_secret);
        pools['session.unpaid']!.push(body.id);
      }
      if (operation.id === 'createCharge' && typeof body.id === 'string') pools.charge!.push(body.id);
      // A deleted endpoint is no longer one to roll (its id is still one a hostile request may name: it answers 404).
      if (operation.id === 'deleteWebhookEndpoint' && typeof body.id === 'string') pools.webhook_endpoint = pools.webhook_endpoint!.filter((id) => id !== body.id);
    },
    async alive() {
      try {
        const response = await fetch(`${child.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        return response.status === 200;
      } catch {
        return false;
      }
    },
    async heapUsedBytes() {
      // The least of a few readings a quarter of a second apart: garbage not yet collected is not memory held.
      let least = Number.POSITIVE_INFINITY;
      for (let reading = 0; reading < 5; reading++) {
        if (reading > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        const text = await (await fetch(`${child.url}/metrics`)).text();
        const found = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+?\d+)?)$/m.exec(text);
        if (!found) throw new Error('/metrics has no nodejs_heap_size_used_bytes');
        least = Math.min(least, Number(found[1]));
      }
      return least;
    },
    output: () => child.output(),
    async restart() {
      agent.destroy();
      agent = new Agent({ keepAlive: true, maxSockets: 4 });
      await child.restart();
    },
    async close() {
      agent.destroy();
      await child.stop();
    },
  };
}
