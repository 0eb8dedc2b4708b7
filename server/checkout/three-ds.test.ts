/**
 * 3-D Secure for PAN_ONLY cards over real HTTP: the charge the issuer refuses
 * for want of authentication leads to an Authentication Session; frictionless
 * ones pay at once, challenges are completed, failed, cancelled or left to
 * expire at the sandbox's challenge page; CRYPTOGRAM_3DS cards need none; an
 * app may require it for every PAN_ONLY card.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, PaymentOutcome, PayReply } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

const SHOP = 'https://shop.example';
let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'threeds', allowed_origins: [SHOP] }));
});
afterAll(() => server.close());

/** The widget paying from the merchant's page with a sandbox wallet card. */
async function payWith(on: TestServer, session: CreatedSession, cardId: string): Promise<PaymentOutcome> {
  const reply = await on.pay(session, { payment_data: await on.walletPaymentData(session, cardId) }, { origin: SHOP });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as PayReply).outcome;
}

/** The shopper's answer at the challenge page, as its form posts it. */
const answerChallenge = (url: string, action: 'complete' | 'fail') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}`, redirect: 'manual' });

async function authenticated(on: TestServer, session: CreatedSession, body?: { cancel: true }): Promise<PaymentOutcome> {
  const reply = await on.authenticate(session, body);
  expect(reply.status).toBe(200);
  return ((await reply.json()) as PayReply).outcome;
}

const chargesOf = async (on: TestServer, session: CreatedSession) =>
  (await on.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`)).map((entry) => entry.charge);

describe('a PAN_ONLY card that needs 3-D Secure', () => {
  it('frictionless: authenticated at once and paid with the payment method, no challenge', async () => {
    const session = await server.createSession(secretKey);
    const outcome = await payWith(server, session, 'visa-3ds-frictionless-pan');
    expect(outcome).toMatchObject({ status: 'succeeded', card: { last4: '3155', auth_method: 'PAN_ONLY' } });
    expect(outcome.challenge_url).toBeUndefined();
    const [refused, paid] = await chargesOf(server, session);
    expect(refused).toMatchObject({ status: 'failed', failure_code: 'authentication_required', source_type: 'walletpay' });
    expect(paid).toMatchObject({ status: 'succeeded', source_type: 'payment_method', payment_method: refused?.payment_method, amount: 2400 });
    expect(outcome.charge_id).toBe(paid?.id);
  });

  it('iframe mode: the challenge reports to our checkout frame, and may be framed under the merchant page around it', async () => {
    const session = await server.createSession(secretKey);
    // Our frame's POST: our origin, naming the page that embeds it.
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-3ds-required-pan') }, { origin: server.url, 'checkout-embedder-origin': SHOP });
    const { challenge_url } = ((await reply.json()) as PayReply).outcome;
    const page = await fetch(challenge_url ?? '');
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${server.url} ${SHOP}`);
    expect(await page.text()).toContain(`data-return-origin="${server.url}"`);
  });

  it('challenge completed: the shopper is sent to the challenge, then the payment goes through', async () => {
    const session = await server.createSession(secretKey);
    const challenge = await payWith(server, session, 'visa-3ds-required-pan');
    expect(challenge).toMatchObject({ status: 'requires_authentication', failure_code: 'authentication_required', challenge_url: expect.stringContaining('/challenge/as_') });
    const url = challenge.challenge_url ?? '';

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${SHOP}`);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const html = await page.text();
    expect(html).toContain('Sandbox 3-D Secure');
    expect(html).toContain('Complete authentication');
    expect(html).toContain(`data-return-origin="${SHOP}"`);

    const early = await server.authenticate(session);
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('authentication_pending');

    expect((await answerChallenge(url, 'complete')).status).toBe(303);
    const outcome = await authenticated(server, session);
    expect(outcome).toMatchObject({ status: 'succeeded', card: { last4: '3184', auth_method: 'PAN_ONLY' } });
    const charges = await chargesOf(server, session);
    expect(charges.map((charge) => [charge.source_type, charge.status])).toEqual([
      ['walletpay', 'failed'],
      ['payment_method', 'succeeded'],
    ]);

    // Done is done: neither the widget nor the challenge page can make it pay twice.
    const again = await server.authenticate(session);
    expect((await again.json()).error.code).toBe('session_completed');
    expect(await (await fetch(url)).text()).toContain('Authentication complete');
    expect(await chargesOf(server, session)).toHaveLength(2);
  });

  it('challenge failed: declined (authentication_failed), and the shopper may pay again', async () => {
    const session = await server.createSession(secretKey);
    const challenge = await payWith(server, session, 'visa-3ds-required-pan');
    await answerChallenge(challenge.challenge_url ?? '', 'fail');
    expect(await authenticated(server, session)).toMatchObject({ status: 'declined', failure_code: 'authentication_failed' });
    expect(await payWith(server, session, 'visa-success-3ds')).toMatchObject({ status: 'succeeded' });
    expect((await chargesOf(server, session)).map((charge) => charge.status)).toEqual(['failed', 'succeeded']);
  });

  it('cancelled by the shopper: declined (authentication_abandoned), nothing charged; a late completion cannot pay', async () => {
    const session = await server.createSession(secretKey);
    const challenge = await payWith(server, session, 'visa-3ds-required-pan');
    expect(await authenticated(server, session, { cancel: true })).toMatchObject({ status: 'declined', failure_code: 'authentication_abandoned' });
    await answerChallenge(challenge.challenge_url ?? '', 'complete');
    const late = await server.authenticate(session);
    expect(late.status).toBe(409);
    expect((await late.json()).error.code).toBe('invalid_state');
    expect((await chargesOf(server, session)).map((charge) => charge.status)).toEqual(['failed']);
  });

  it('refuses an authenticate body with anything else in it', async () => {
    const session = await server.createSession(secretKey);
    const reply = await server.authenticate(session, { cancel: true, amount: 1 } as never);
    expect(reply.status).toBe(400);
  });

  it('holds work the same way: a challenged hold ends authorized', async () => {
    const session = await server.createSession(secretKey, { intent: 'hold' });
    const challenge = await payWith(server, session, 'visa-3ds-required-pan');
    await answerChallenge(challenge.challenge_url ?? '', 'complete');
    expect(await authenticated(server, session)).toMatchObject({ status: 'authorized' });
    expect((await chargesOf(server, session)).at(-1)).toMatchObject({ status: 'held', source_type: 'payment_method' });
  });
});

describe('an abandoned challenge', () => {
  let quick: TestServer;
  let key: string;
  beforeAll(async () => {
    quick = await startTestServer({ SANDBOX_AUTHENTICATION_TTL_MS: '300' });
    ({ secretKey: key } = await quick.merchant({ merchant_id: 'threeds-expiry', allowed_origins: [SHOP] }));
  });
  afterAll(() => quick.close());

  it('expires: the page says so, a completion comes too late, and the payment is declined (authentication_abandoned)', async () => {
    const session = await quick.createSession(key);
    const challenge = await payWith(quick, session, 'visa-3ds-required-pan');
    await sleep(400);
    const url = challenge.challenge_url ?? '';
    expect(await (await fetch(url)).text()).toContain('data-status="expired"');
    await answerChallenge(url, 'complete');
    expect(await authenticated(quick, session)).toMatchObject({ status: 'declined', failure_code: 'authentication_abandoned' });
    expect(await chargesOf(quick, session)).toHaveLength(1);
  });
});

describe('cards that need no authentication session', () => {
  it('CRYPTOGRAM_3DS: the same card pays at once, its cryptogram being the 3-D Secure', async () => {
    const session = await server.createSession(secretKey);
    expect(await payWith(server, session, 'visa-3ds-required-3ds')).toMatchObject({ status: 'succeeded', card: { auth_method: 'CRYPTOGRAM_3DS' } });
    expect(await chargesOf(server, session)).toHaveLength(1);
  });

  it('an ordinary PAN_ONLY card under the default policy (if_required) pays at once', async () => {
    const session = await server.createSession(secretKey);
    expect(await payWith(server, session, 'visa-success-pan')).toMatchObject({ status: 'succeeded' });
  });
});

describe('an app that requires 3-D Secure for every PAN_ONLY payment', () => {
  it('challenges an ordinary PAN_ONLY card, and lets a CRYPTOGRAM_3DS card through', async () => {
    const strict = await server.merchant({ merchant_id: 'threeds-always', allowed_origins: [SHOP], three_ds: 'always_for_pan_only' });
    const pan = await server.createSession(strict.secretKey);
    const challenge = await payWith(server, pan, 'visa-success-pan');
    expect(challenge.status).toBe('requires_authentication');
    await answerChallenge(challenge.challenge_url ?? '', 'complete');
    expect(await authenticated(server, pan)).toMatchObject({ status: 'succeeded' });

    const device = await server.createSession(strict.secretKey);
    expect(await payWith(server, device, 'visa-success-3ds')).toMatchObject({ status: 'succeeded' });
    expect(await chargesOf(server, device)).toHaveLength(1);
  });
});
