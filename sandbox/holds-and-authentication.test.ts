/**
 * The sandbox service's own conventions for holds, payment methods and
 * Authentication Sessions, called as a payment service client would: the
 * refusals the backend's flows never provoke.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationSession, Charge, HOLD_LIFETIME_MS } from '../contracts';
import { networkTokenCharge, postCharge, postJson, serviceHeaders, startSandbox } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const CRYPTOGRAM = { eci: '05', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' };
const api = (path: string) => `${sandbox.baseUrl}/service/api/v1${path}`;
const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;

async function charge(body: unknown, headers: Record<string, string> = {}): Promise<Charge> {
  const reply = await postCharge(sandbox, body, serviceHeaders(sandbox, headers));
  expect(reply.status).toBe(201);
  return Charge.parse(reply.body);
}

async function authenticationSession(paymentMethod: string, amount = 500) {
  return postJson(api('/authentication_sessions'), { payment_method: paymentMethod, amount, currency: 'eur', return_origin: 'https://shop.example/page' }, serviceHeaders(sandbox));
}

describe('holds', () => {
  it('capture more than held is refused; capture, then anything else, is invalid_state', async () => {
    const held = await charge({ ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), capture: false });
    expect(held).toMatchObject({ status: 'held', amount_captured: 0, payment_method: expect.stringMatching(/^pm_/) });
    expect(errorCode((await postJson(api(`/charges/${held.id}/capture`), { amount: 501 }, serviceHeaders(sandbox))).body)).toBe('invalid_request');
    expect((await postJson(api(`/charges/${held.id}/capture`), { amount: 200 }, serviceHeaders(sandbox))).body).toMatchObject({ status: 'succeeded', amount_captured: 200 });
    for (const path of ['capture', 'release']) {
      const reply = await postJson(api(`/charges/${held.id}/${path}`), {}, serviceHeaders(sandbox));
      expect([reply.status, errorCode(reply.body)]).toEqual([409, 'invalid_state']);
    }
  });

  it('binds an Idempotency-Key to its path: the same key on release after capture is a reused key', async () => {
    const held = await charge({ ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), capture: false });
    const key = { 'idempotency-key': `hold-${held.id}` };
    expect((await postJson(api(`/charges/${held.id}/capture`), {}, serviceHeaders(sandbox, key))).status).toBe(200);
    const replay = await postJson(api(`/charges/${held.id}/capture`), {}, serviceHeaders(sandbox, key));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(errorCode((await postJson(api(`/charges/${held.id}/release`), {}, serviceHeaders(sandbox, key))).body)).toBe('idempotency_key_reused');
    expect((await sandbox.service.ledger()).filter((entry) => entry.charge.id === held.id).map((entry) => entry.operation)).toEqual(['charge', 'capture']);
  });

  it('lapses 7 days after it is placed: a capture is refused with hold_expired, a release still ends it', async () => {
    let now = Date.now();
    const clocked = await startSandbox({ now: () => now });
    try {
      const place = async () => Charge.parse((await postCharge(clocked, { ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), capture: false }, serviceHeaders(clocked))).body);
      const operate = (held: Charge, path: string) => postJson(`${clocked.baseUrl}/service/api/v1/charges/${held.id}/${path}`, {}, serviceHeaders(clocked));
      const young = await place();
      const old = await place();
      now += HOLD_LIFETIME_MS - 1000;
      expect((await operate(young, 'capture')).body).toMatchObject({ status: 'succeeded', amount_captured: young.amount });
      now += 1000;
      const refused = await operate(old, 'capture');
      expect([refused.status, errorCode(refused.body)]).toEqual([409, 'hold_expired']);
      expect((await operate(old, 'release')).body).toMatchObject({ status: 'released', amount_captured: 0 });
      expect((await clocked.service.ledger()).filter((entry) => entry.charge.id === old.id).map((entry) => entry.operation)).toEqual(['charge', 'release']);
    } finally {
      await clocked.close();
    }
  });

  it("lapses as much earlier once a test clock backdates it (test_helpers/charges/backdate), and only the merchant's own charges move", async () => {
    const place = async () => charge({ ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), capture: false });
    const [young, old] = [await place(), await place()];
    const backdate = (body: unknown, merchant?: string) =>
      postJson(`${sandbox.baseUrl}/service/test_helpers/charges/backdate`, body, serviceHeaders(sandbox, merchant ? { 'merchant-account': merchant } : {}));
    const strangers = await backdate({ seconds: HOLD_LIFETIME_MS / 1000, charges: [old.id] }, 'someone_else');
    expect(strangers.body).toEqual({ object: 'backdated_charges', backdated: 0 });
    expect((await backdate({ seconds: HOLD_LIFETIME_MS / 1000 - 60, charges: [young.id] })).body).toEqual({ object: 'backdated_charges', backdated: 1 });
    expect((await backdate({ seconds: HOLD_LIFETIME_MS / 1000, charges: [old.id, 'ch_unknown'] })).body).toEqual({ object: 'backdated_charges', backdated: 1 });
    for (const refused of [{ seconds: 0, charges: [old.id] }, { seconds: 60, charges: [] }, { seconds: 60 }]) expect((await backdate(refused)).status).toBe(400);
    const operate = (held: Charge, path: string) => postJson(api(`/charges/${held.id}/${path}`), {}, serviceHeaders(sandbox));
    expect((await operate(young, 'capture')).body).toMatchObject({ status: 'succeeded', created: young.created - (HOLD_LIFETIME_MS / 1000 - 60) });
    const refused = await operate(old, 'capture');
    expect([refused.status, errorCode(refused.body)]).toEqual([409, 'hold_expired']);
  });

  it('answers 404 for another merchant\'s charge', async () => {
    const held = await charge({ ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), capture: false });
    const reply = await postJson(api(`/charges/${held.id}/release`), {}, serviceHeaders(sandbox, { 'merchant-account': 'someone_else' }));
    expect(reply.status).toBe(404);
  });
});

describe('authentication sessions', () => {
  it('are only for PAN_ONLY payment methods of this merchant', async () => {
    const device = await charge(networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }));
    expect(errorCode((await authenticationSession(device.payment_method ?? '')).body)).toBe('invalid_request');
    expect(errorCode((await authenticationSession('pm_nope')).body)).toBe('resource_missing');
  });

  it('make one charge of the authenticated amount, on the authenticated card', async () => {
    const refused = await charge(networkTokenCharge('4000002500003155'));
    expect(refused).toMatchObject({ status: 'failed', failure_code: 'authentication_required', card: { auth_method: 'PAN_ONLY' } });
    const pm = refused.payment_method ?? '';
    const session = AuthenticationSession.parse((await authenticationSession(pm)).body);
    expect(session).toMatchObject({ status: 'authenticated', challenge_url: null });

    const paying = { source_data: { type: 'payment_method', payment_method: pm }, amount: 500, currency: 'eur', authentication_session: session.id };
    expect(errorCode((await postCharge(sandbox, { ...paying, amount: 499 })).body)).toBe('invalid_authentication_session');
    expect(errorCode((await postCharge(sandbox, { ...paying, source_data: { type: 'payment_method', payment_method: 'pm_other' } })).body)).toBe('resource_missing');
    expect(errorCode((await postCharge(sandbox, { ...networkTokenCharge('4000002500003155'), authentication_session: session.id })).body)).toBe('invalid_authentication_session');
    expect(await charge(paying)).toMatchObject({ status: 'succeeded', source_type: 'payment_method', payment_method: pm, card: refused.card });
    expect(errorCode((await postCharge(sandbox, paying)).body)).toBe('invalid_authentication_session');
    // Without an authentication the payment method is as refused as its card.
    const { authentication_session: _unused, ...unauthenticated } = paying;
    expect(await charge(unauthenticated)).toMatchObject({ status: 'failed', failure_code: 'authentication_required' });
  });

  it('is read back, and its challenge cannot pay before it is completed', async () => {
    const refused = await charge(networkTokenCharge('4000002760003184'));
    const created = AuthenticationSession.parse((await authenticationSession(refused.payment_method ?? '')).body);
    expect(created).toMatchObject({ status: 'challenge_required', challenge_url: expect.stringContaining(`/service/challenge/${created.id}`) });
    const read = await fetch(api(`/authentication_sessions/${created.id}`), { headers: serviceHeaders(sandbox) });
    expect(await read.json()).toEqual(created);
    const paying = { source_data: { type: 'payment_method', payment_method: refused.payment_method }, amount: 500, currency: 'eur', authentication_session: created.id };
    expect(errorCode((await postCharge(sandbox, paying)).body)).toBe('invalid_authentication_session');
  });
});
