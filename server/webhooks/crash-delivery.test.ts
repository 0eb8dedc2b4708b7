/**
 * Deliveries survive kill -9: the server (its own process) is killed after
 * the payments' state changes and before their webhooks are delivered, while
 * a delivery is in flight; started again on the same DATA_DIR, it delivers
 * every event once the lapsed lease makes the delivery due again.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, CreatedWebhookEndpoint } from '../../contracts';
import { type ChildServer, shopClient, startChildServer } from '../../testing/child-server';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';

let server: ChildServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // A receiver's 2xx is due within a second, so the lease of a send cut by kill -9 lapses within two.
  server = await startChildServer({ env: { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '1000' } });
  receiver = await startWebhookReceiver();
}, 30_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

describe('a server killed between a payment and its webhook', () => {
  it('delivers every event after it is started again', async () => {
    const registered = await fetch(`${server.url}/api/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.demoSecretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    const endpoint = (await registered.json()) as CreatedWebhookEndpoint;
    receiver.secrets = [endpoint.secret];
    // The receiver reads each delivery and never answers: the sends are in flight when the process dies.
    receiver.hang = true;
    const shop = shopClient(server);
    const sessions: CreatedSession[] = [];
    for (let i = 0; i < 5; i++) {
      const session = await shop.createSession();
      expect((await shop.pay(session, await shop.walletPaymentData(session, 'visa-success-3ds'))).status).toBe(200);
      sessions.push(session);
    }
    await expect.poll(() => receiver.held, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await server.kill();
    expect(receiver.deliveries).toEqual([]);

    receiver.hang = false;
    await server.restart();
    const events = await receiver.waitFor((got) => sessions.every((session) => got.some((event) => event.data.object.id === session.id)), 20_000);
    expect(sessions.map((session) => events.filter((event) => event.data.object.id === session.id).map((event) => event.type))).toEqual(sessions.map(() => ['session.succeeded']));
    expect(receiver.forged).toBe(0);
  }, 30_000);
});
