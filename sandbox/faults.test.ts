/**
 * Fault injection over real HTTP: what each fault does to the client (a raw
 * fetch that gives up like the service client does) and to the ledger, and
 * that idempotency stays exact whatever the fault.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiErrorBody, Charge } from '../contracts';
import { faultKinds } from './index';
import { networkTokenCharge, serviceHeaders, startSandbox } from '../testing/sandbox';

const LATENCY_MS = 150;
const TIMEOUT_MS = 300;
/** Shorter than TIMEOUT_MS: the client gives up while the service still holds the request. */
const CLIENT_GIVES_UP_MS = 60;

const sandbox = await startSandbox();
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.service.setFaults({ rate: 0, latencyMs: LATENCY_MS, timeoutMs: TIMEOUT_MS });
});

type Outcome = { status: number; text: string; replayed: boolean } | { failed: 'timeout' | 'connection' };

/** A charge request as the service client makes it: it stops waiting after `clientTimeoutMs`. */
async function charge(key: string | undefined, extra: Record<string, string> = {}, clientTimeoutMs = 5_000): Promise<Outcome> {
  const headers = serviceHeaders(sandbox, { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }), ...extra });
  try {
    const response = await fetch(`${sandbox.baseUrl}/service/api/v1/charges`, {
      method: 'POST',
      headers,
      body: JSON.stringify(networkTokenCharge('4111111111111111')),
      signal: AbortSignal.timeout(clientTimeoutMs),
    });
    return { status: response.status, text: await response.text(), replayed: response.headers.get('idempotent-replayed') === 'true' };
  } catch (error) {
    return { failed: error instanceof DOMException && error.name === 'TimeoutError' ? 'timeout' : 'connection' };
  }
}

const chargesWith = async (key: string) => (await sandbox.service.ledger()).filter((entry) => entry.idempotency_key === key);
const ledgerLength = async () => (await sandbox.service.ledger()).length;
const chargeIdOf = (outcome: Outcome) => ('text' in outcome ? Charge.parse(JSON.parse(outcome.text)).id : undefined);
const errorCodeOf = (outcome: Outcome) => ('text' in outcome ? ApiErrorBody.parse(JSON.parse(outcome.text)).error.code : undefined);

const faultsUrl = () => `${sandbox.baseUrl}/service/faults`;
const bearer = () => ({ authorization: `Bearer ${sandbox.service.serviceSecretKey}` });
const putFaults = (body: string, headers: Record<string, string> = bearer()) =>
  fetch(faultsUrl(), { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body });

describe('each fault, asked for by the Sandbox-Fault header', () => {
  it('latency: answers normally, late', async () => {
    const key = randomUUID();
    const started = performance.now();
    const outcome = await charge(key, { 'sandbox-fault': 'latency' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 10);
    expect(outcome).toMatchObject({ status: 201, replayed: false });
    expect((await chargesWith(key)).map((entry) => entry.charge.id)).toEqual([chargeIdOf(outcome)]);
  });

  it('timeout: the client gives up, the charge is committed anyway, and a retry replays it', async () => {
    const key = randomUUID();
    expect(await charge(key, { 'sandbox-fault': 'timeout' }, CLIENT_GIVES_UP_MS)).toEqual({ failed: 'timeout' });

    // Still held: the retry must not run it a second time.
    const early = await charge(key);
    expect(early).toMatchObject({ status: 409 });
    expect(errorCodeOf(early)).toBe('idempotency_key_in_use');

    await vi.waitFor(async () => expect(await chargesWith(key)).toHaveLength(1), { timeout: 2_000, interval: 20 });
    const retry = await charge(key);
    expect(retry).toMatchObject({ status: 201, replayed: true });
    expect((await chargesWith(key)).map((entry) => entry.charge.id)).toEqual([chargeIdOf(retry)]);
  });

  it('error: 500 service_error without processing, so a retry charges once', async () => {
    const key = randomUUID();
    const before = await ledgerLength();
    const failed = await charge(key, { 'sandbox-fault': 'error' });
    expect(failed).toMatchObject({ status: 500 });
    expect(errorCodeOf(failed)).toBe('service_error');
    expect(await ledgerLength()).toBe(before);

    expect(await charge(key)).toMatchObject({ status: 201, replayed: false });
    expect(await charge(key)).toMatchObject({ status: 201, replayed: true });
    expect(await chargesWith(key)).toHaveLength(1);
  });

  it('reset: the connection drops without processing, so a retry charges once', async () => {
    const key = randomUUID();
    const before = await ledgerLength();
    expect(await charge(key, { 'sandbox-fault': 'reset' })).toEqual({ failed: 'connection' });
    expect(await ledgerLength()).toBe(before);

    expect(await charge(key)).toMatchObject({ status: 201, replayed: false });
    expect(await chargesWith(key)).toHaveLength(1);
  });

  it('lost_reply: the charge is committed but the connection drops; a retry replays it', async () => {
    const key = randomUUID();
    expect(await charge(key, { 'sandbox-fault': 'lost_reply' })).toEqual({ failed: 'connection' });
    const [committed] = await chargesWith(key);
    expect(committed).toBeDefined();

    const retry = await charge(key);
    expect(retry).toMatchObject({ status: 201, replayed: true });
    expect(chargeIdOf(retry)).toBe(committed?.charge.id);
    expect(await chargesWith(key)).toHaveLength(1);
  });

  it('lost_reply without an Idempotency-Key still charges: the client cannot know', async () => {
    const before = await ledgerLength();
    expect(await charge(undefined, { 'sandbox-fault': 'lost_reply' })).toEqual({ failed: 'connection' });
    expect(await ledgerLength()).toBe(before + 1);
  });

  it('refuses an unknown fault with 400 before processing', async () => {
    const key = randomUUID();
    const reply = await charge(key, { 'sandbox-fault': 'meteor' });
    expect(reply).toMatchObject({ status: 400 });
    expect(errorCodeOf(reply)).toBe('invalid_request');
    expect(await chargesWith(key)).toHaveLength(0);
  });

  it('applies only after authentication and validation', async () => {
    const unauthenticated = await charge(undefined, { 'sandbox-fault': 'error', authorization: 'Bearer sk_sandbox_wrong' });
    expect(unauthenticated).toMatchObject({ status: 401 });
  });
});

describe('a fault plan (by rate)', () => {
  it('rate 1 faults every request with one of its kinds', async () => {
    sandbox.service.setFaults({ rate: 1, kinds: ['error'] });
    const before = await ledgerLength();
    const replies = await Promise.all([1, 2, 3, 4, 5].map(() => charge(randomUUID())));
    expect(replies.map(errorCodeOf)).toEqual(Array(5).fill('service_error'));
    expect(await ledgerLength()).toBe(before);
  });

  it('picks among its kinds', async () => {
    sandbox.service.setFaults({ rate: 1, kinds: ['error', 'reset'] });
    const replies = await Promise.all(Array.from({ length: 40 }, () => charge(randomUUID())));
    expect(new Set(replies.map((reply) => ('failed' in reply ? reply.failed : errorCodeOf(reply))))).toEqual(new Set(['service_error', 'connection']));
  });

  it('rate 0 faults nothing', async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () => charge(randomUUID())));
    expect(replies.every((reply) => 'status' in reply && reply.status === 201)).toBe(true);
  });

  it('the header wins over the plan, so a test stays deterministic', async () => {
    sandbox.service.setFaults({ rate: 1, kinds: ['error'], latencyMs: LATENCY_MS });
    expect(await charge(randomUUID(), { 'sandbox-fault': 'latency' })).toMatchObject({ status: 201 });
  });

  it('can be given at start', async () => {
    const faulty = await startSandbox({ faults: { rate: 1, kinds: ['error'] } });
    try {
      const response = await fetch(`${faulty.baseUrl}/service/faults`, { headers: { authorization: `Bearer ${faulty.service.serviceSecretKey}` } });
      expect(await response.json()).toMatchObject({ rate: 1, kinds: ['error'] });
    } finally {
      await faulty.close();
    }
  });

  it('refuses an invalid plan in process too', () => {
    expect(() => sandbox.service.setFaults({ rate: 2 })).toThrow();
  });
});

describe('GET and PUT /service/faults', () => {
  it('need the service key, but no Merchant-Account', async () => {
    for (const authorization of [undefined, 'Bearer sk_sandbox_wrong', sandbox.service.serviceSecretKey]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const read = await fetch(faultsUrl(), { headers });
      const write = await putFaults('{"rate":1}', headers);
      for (const response of [read, write]) {
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    }
    expect((await fetch(faultsUrl(), { headers: bearer() })).status).toBe(200);
  });

  it('PUT replaces the plan, filling defaults; GET reads it; rate 0 turns it off', async () => {
    const put = await putFaults(JSON.stringify({ rate: 1, kinds: ['error'] }));
    expect(put.status).toBe(200);
    const plan = { rate: 1, kinds: ['error'], latencyMs: 1_000, timeoutMs: 15_000 };
    expect(await put.json()).toEqual(plan);
    expect(await (await fetch(faultsUrl(), { headers: bearer() })).json()).toEqual(plan);
    expect(errorCodeOf(await charge(randomUUID()))).toBe('service_error');

    expect((await putFaults('{"rate":0}')).status).toBe(200);
    expect(await charge(randomUUID())).toMatchObject({ status: 201 });
  });

  it.each([
    ['a rate over 1', '{"rate":1.5}'],
    ['a negative rate', '{"rate":-0.1}'],
    ['no rate', '{"kinds":["error"]}'],
    ['an unknown kind', '{"rate":0.5,"kinds":["meteor"]}'],
    ['no kinds at all', '{"rate":0.5,"kinds":[]}'],
    ['a fractional latency', '{"rate":0.5,"latencyMs":1.5}'],
    ['a negative timeout', '{"rate":0.5,"timeoutMs":-1}'],
    ['an unknown field', '{"rate":0.5,"seed":42}'],
    ['a body that is not an object', '[0.5]'],
  ])('PUT refuses %s with 400 invalid_request and keeps the plan', async (_name, body) => {
    const response = await putFaults(body);
    expect(response.status).toBe(400);
    expect((ApiErrorBody.parse(await response.json())).error.code).toBe('invalid_request');
    expect((await (await fetch(faultsUrl(), { headers: bearer() })).json()).rate).toBe(0);
  });

  it('PUT refuses malformed JSON with 400 invalid_json', async () => {
    const response = await putFaults('{"rate":');
    expect(response.status).toBe(400);
    expect((ApiErrorBody.parse(await response.json())).error.code).toBe('invalid_json');
  });

  it('knows every documented kind', async () => {
    const response = await putFaults(JSON.stringify({ rate: 0, kinds: faultKinds }));
    expect((await response.json()).kinds).toEqual([...faultKinds]);
  });
});

describe('shutting down', () => {
  it('commits a charge still held by a timeout fault instead of losing it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-faults-test-'));
    try {
      const held = await startSandbox({ dataDir, faults: { rate: 1, kinds: ['timeout'], timeoutMs: 60_000 } });
      const key = randomUUID();
      const response = fetch(`${held.baseUrl}/service/api/v1/charges`, {
        method: 'POST',
        headers: serviceHeaders(held, { 'content-type': 'application/json', 'idempotency-key': key }),
        body: JSON.stringify(networkTokenCharge('4111111111111111')),
        signal: AbortSignal.timeout(CLIENT_GIVES_UP_MS),
      });
      await expect(response).rejects.toThrow();
      await held.close();

      const restarted = await startSandbox({ dataDir });
      try {
        expect((await restarted.service.ledger()).filter((entry) => entry.idempotency_key === key)).toHaveLength(1);
      } finally {
        await restarted.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
