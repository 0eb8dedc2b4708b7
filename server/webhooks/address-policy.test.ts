/**
 * SSRF: in production (policy `public`) a webhook goes over https to public
 * addresses only, checked when the endpoint is created and again when each
 * delivery connects, through the request's own DNS lookup.
 */
import { request } from 'node:http';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { checkedLookup, checkEndpointUrl, isPublicAddress, type Resolve } from './address-policy';

const resolvesTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

const NOT_PUBLIC = [
  '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255',
  '192.0.2.1', '198.18.0.1', '240.0.0.1', '0.1.2.3',
  '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:a00:1::1',
  // IPv4-compatible (::/96): loopback and the metadata service to some stacks.
  '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::10.0.0.1',
  // Outside 2000::/3, or a special block inside it.
  '100::1', '5f00::1', 'fec0::1', '2001:db8::1', '2001:2::1', '3fff::1',
];

/** IPv6 forms that carry an IPv4 address, public ones included: refused as forms, whatever they lead to. */
const EMBEDDED_IPV4 = ['::ffff:8.8.8.8', '::8.8.8.8', '64:ff9b::808:808', '64:ff9b:1::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'];

describe('which addresses a webhook may reach in production', () => {
  it('is a list of what is allowed: IPv4 unicast outside every special range, IPv6 global unicast inside 2000::/3', () => {
    expect(NOT_PUBLIC.filter(isPublicAddress)).toEqual([]);
    expect(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700::6810:84e5', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'].filter((address) => !isPublicAddress(address))).toEqual([]);
    expect(isPublicAddress('not-an-address')).toBe(false);
  });

  it('refuses every IPv6 form that embeds an IPv4 address, even a public one', () => {
    expect(EMBEDDED_IPV4.filter(isPublicAddress)).toEqual([]);
  });

  it('refuses at creation http, an address literal that is not public, and a host resolving to one (any of its addresses)', async () => {
    const refused = async (url: string, resolve: Resolve = resolvesTo('93.184.215.14')) => {
      const checked = await checkEndpointUrl(url, 'public', resolve);
      return checked.ok ? 'allowed' : checked.error.code;
    };
    expect(await refused('https://shop.example/hooks')).toBe('allowed');
    expect(await refused('http://shop.example/hooks')).toBe('url_not_allowed');
    for (const address of NOT_PUBLIC) expect(await refused(`https://${address.includes(':') ? `[${address}]` : address}/hooks`), address).toBe('url_not_allowed');
    expect(await refused('https://internal.shop.example/hooks', resolvesTo('10.1.2.3'))).toBe('url_not_allowed');
    expect(await refused('https://mixed.shop.example/hooks', resolvesTo('93.184.215.14', '::1'))).toBe('url_not_allowed');
    expect(await refused('https://nowhere.shop.example/hooks', async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })))).toBe('url_not_allowed');
    // Development and tests reach their receivers on loopback over http.
    expect((await checkEndpointUrl('http://127.0.0.1:3000/hooks', 'any')).ok).toBe(true);
  });

  it('connects only to the address its own lookup checked: a host that now resolves to loopback (DNS rebinding) is not reached', async () => {
    const receiver = await startWebhookReceiver(['whsec_unused']);
    const { port } = new URL(receiver.url);
    const post = (lookup: ReturnType<typeof checkedLookup>) =>
      new Promise<string>((resolve) => {
        const sent = request(`http://rebound.shop.example:${port}/webhooks`, { method: 'POST', lookup, agent: false }, (reply) => {
          reply.resume();
          resolve(`answered ${reply.statusCode}`);
        });
        sent.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        sent.end('{}');
      });
    try {
      expect(await post(checkedLookup(resolvesTo('127.0.0.1')))).toBe('ADDRESS_NOT_ALLOWED');
      expect(await post(checkedLookup(resolvesTo('::ffff:127.0.0.1')))).toBe('ADDRESS_NOT_ALLOWED');
      expect(await post(checkedLookup(resolvesTo('::7f00:1')))).toBe('ADDRESS_NOT_ALLOWED');
      expect(await post(checkedLookup(resolvesTo('93.184.215.14', '::a9fe:a9fe')))).toBe('ADDRESS_NOT_ALLOWED');
      expect(receiver.forged + receiver.deliveries.length).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('a server in production', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startTestServer({}, { webhookAddressPolicy: 'public' });
    receiver = await startWebhookReceiver(['whsec_unused']);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('refuses to create an endpoint on http, on loopback or on a private address', async () => {
    const { secretKey } = await server.merchant();
    for (const url of [
      receiver.url, 'https://127.0.0.1/hooks', 'https://localhost/hooks', 'https://[::ffff:7f00:1]/hooks', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.8/hooks',
      'https://[::127.0.0.1]/hook', 'https://[::a9fe:a9fe]/latest/meta-data', 'https://[64:ff9b::a9fe:a9fe]/hooks', 'https://[2002:7f00:1::1]/hooks', 'https://[::ffff:8.8.8.8]/hooks',
    ]) {
      const reply = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url });
      expect([url, reply.status, (await reply.json()).error.code]).toEqual([url, 400, 'url_not_allowed']);
    }
  });

  it('refuses at delivery an endpoint that has come to resolve to loopback, and says why', async () => {
    const { appId, secretKey } = await server.merchant();
    // As if the host had resolved to a public address at creation: the row is written as creation would.
    const endpointId = 'we_rebound00000000000000';
    await server.store
      .insertInto('webhook_endpoints')
      .values({ id: endpointId, app_id: appId, url: `https://localhost:${new URL(receiver.url).port}/webhooks`, events: null, secret_sealed: 'sealed', previous_secret_sealed: null, previous_secret_expires: null, created: Date.now(), deleted: null })
      .execute();
    const session = await server.createSession(secretKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const delivery = () => server.store.selectFrom('webhook_deliveries').select(['status', 'last_error', 'attempts']).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
    await expect.poll(async () => (await delivery()).attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect((await delivery()).last_error).toMatch(/^refused: url: localhost resolves to .*, which is not a public address$/);
    expect(receiver.forged + receiver.deliveries.length).toBe(0);
  });
});
