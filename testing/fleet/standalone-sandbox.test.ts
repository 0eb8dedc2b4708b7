/**
 * The sandbox as a service of its own, with a backend pointed at it
 * (SANDBOX_URL, SANDBOX_SERVICE_KEY) that embeds nothing and reaches it over
 * HTTP only: PAN_ONLY and 3-D Secure payments, direct mode with the sandbox's
 * root keys, fault injection and the ledger; and `npm run sandbox`'s entry as a
 * process, printing its URL and service key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, PaymentOutcome, PayReply } from '../../contracts';
import { startTestServer, type TestServer } from '../harness';
import { type StandaloneSandbox, startStandaloneSandbox } from '../sandbox';
import { type SandboxProcess, startSandboxProcess } from './sandbox-process';

const SHOP = 'https://shop.example';
let sandbox: StandaloneSandbox;
let backend: TestServer;
let secretKey: string;

beforeAll(async () => {
  sandbox = await startStandaloneSandbox();
  backend = await startTestServer({ SANDBOX_URL: sandbox.url, SANDBOX_SERVICE_KEY: sandbox.serviceSecretKey });
  ({ secretKey } = await backend.merchant({ merchant_id: 'standalone', allowed_origins: [SHOP] }));
});
afterAll(async () => {
  await backend?.close();
  await sandbox?.close();
});

async function payWith(session: CreatedSession, cardId: string): Promise<{ status: number; outcome: PaymentOutcome }> {
  const reply = await backend.pay(session, { payment_data: await backend.walletPaymentData(session, cardId) }, { origin: SHOP });
  return { status: reply.status, outcome: ((await reply.json()) as PayReply).outcome };
}

const ledgerOf = async (session: CreatedSession) => (await sandbox.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));

describe('a backend pointed at a standalone sandbox', () => {
  it('embeds no sandbox, and sends the widget to the sandbox for the wallet script', async () => {
    expect(backend.sandbox).toBeUndefined();
    expect((await fetch(`${backend.url}/sandbox/service/keys`)).status).toBe(404);
    expect((await fetch(`${backend.url}/sandbox/wallet/cards`)).status).toBe(404);
    const view = await backend.publicSession(await backend.createSession(secretKey));
    expect(view.wallet).toEqual({ environment: 'SANDBOX', sandbox_script: `${sandbox.url}/sandbox/wallet.js` });
  });

  it("allows the sandbox's origin in the demo pages' and the checkout frame's policy", async () => {
    const frame = await fetch(`${backend.url}/frame`);
    const policy = frame.headers.get('content-security-policy') ?? '';
    for (const directive of ['script-src', 'connect-src', 'frame-src']) expect(policy).toMatch(new RegExp(`${directive} [^;]*${sandbox.url.replace(/[.:/]/g, '\\$&')}`));
  });

  it('a PAN_ONLY payment goes through, charged at the sandbox under its ledger', async () => {
    const session = await backend.createSession(secretKey);
    const { status, outcome } = await payWith(session, 'visa-success-pan');
    expect(status).toBe(200);
    expect(outcome).toMatchObject({ status: 'succeeded', card: { auth_method: 'PAN_ONLY' } });
    const ledger = await ledgerOf(session);
    expect(ledger.map((entry) => [entry.operation, entry.charge.id, entry.charge.status])).toEqual([['charge', outcome.charge_id, 'succeeded']]);
  });

  it('3-D Secure: the challenge is at the sandbox, and once completed the payment goes through', async () => {
    const session = await backend.createSession(secretKey);
    const { outcome: challenge } = await payWith(session, 'visa-3ds-required-pan');
    expect(challenge).toMatchObject({ status: 'requires_authentication', challenge_url: expect.stringContaining(`${sandbox.url}/sandbox/service/challenge/as_`) });
    const page = await fetch(challenge.challenge_url ?? '');
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${SHOP}`);
    const answered = await fetch(challenge.challenge_url ?? '', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=complete', redirect: 'manual' });
    expect(answered.status).toBeLessThan(400);
    const reply = await backend.authenticate(session);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as PayReply).outcome).toMatchObject({ status: 'succeeded' });
    expect((await ledgerOf(session)).map((entry) => entry.charge.status)).toEqual(['failed', 'succeeded']);
  });

  it("direct mode: the token is verified with the sandbox's root keys, fetched from it", async () => {
    const direct = await backend.merchant({ merchant_id: 'standalone_direct', google_merchant_id: '01234567890123456789', allowed_origins: [SHOP], decryption_mode: 'direct' });
    const session = await backend.createSession(direct.secretKey);
    const reply = await backend.pay(session, { payment_data: await backend.walletPaymentData(session, 'visa-success-3ds') }, { origin: SHOP });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as PayReply).outcome).toMatchObject({ status: 'succeeded' });
    expect((await ledgerOf(session)).map((entry) => entry.charge.source_type)).toEqual(['network_token']);
  });

  it('faults injected at the sandbox leave the attempt pending; reconciliation makes exactly one charge', async () => {
    const session = await backend.createSession(secretKey);
    const paymentData = await backend.walletPaymentData(session, 'visa-success-3ds');
    await sandbox.setFaults({ rate: 1, kinds: ['error'] });
    const reply = await backend.pay(session, { payment_data: paymentData }, { origin: SHOP });
    await sandbox.setFaults({ rate: 0 });
    expect(((await reply.json()) as PayReply).outcome).toMatchObject({ status: 'pending', charge_id: null });
    expect(await ledgerOf(session)).toEqual([]);
    await backend.reconcile();
    const ledger = await ledgerOf(session);
    expect(ledger.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  });

  it('keeps its ledger and faults behind the service key', async () => {
    expect((await fetch(`${sandbox.url}/sandbox/service/ledger`)).status).toBe(401);
    expect((await fetch(`${sandbox.url}/sandbox/service/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"rate":1}' })).status).toBe(401);
  });
});

describe('npm run sandbox (sandbox/main.ts) as a process', () => {
  let dataDir: string;
  let running: SandboxProcess | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-process-'));
  });
  afterAll(() => {
    running?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints its URL and service key, answers with that key, and stops on SIGTERM', async () => {
    running = await startSandboxProcess({ SANDBOX_DATA_DIR: dataDir });
    const ledger = await fetch(`${running.url}/sandbox/service/ledger`, { headers: { authorization: `Bearer ${running.serviceKey}` } });
    expect(ledger.status).toBe(200);
    expect(await ledger.json()).toEqual({ entries: [] });
    expect(await running.stop()).toBe(0);
  });
});
