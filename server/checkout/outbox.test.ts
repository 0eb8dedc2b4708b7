/**
 * The outbox: every change of a session the merchant can act on writes its
 * event in the change's own transaction; the steps in between write none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Event } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { moveSession } from './states';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;
let appId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey, appId } = await server.merchant({ merchant_id: 'outbox' }));
});
afterAll(() => server.close());

const eventsAbout = async (sessionId: string) =>
  (await server.store.selectFrom('events').select('body').orderBy('created').execute()).map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body)))).filter((event) => event.data.object.id === sessionId);

describe('the outbox', () => {
  it('records one event per outcome, with the session as the API returns it', async () => {
    const paid = await server.createSession(secretKey);
    await server.pay(paid, { payment_data: await server.walletPaymentData(paid, 'visa-success-3ds') });
    const declined = await server.createSession(secretKey);
    await server.pay(declined, { payment_data: await server.walletPaymentData(declined, 'visa-decline-3ds') });
    const hold = await server.createSession(secretKey, { intent: 'hold' });
    await server.pay(hold, { payment_data: await server.walletPaymentData(hold, 'visa-success-3ds') });
    await server.merchantPost(secretKey, `/api/sessions/${hold.id}/capture`, { amount: 100 });

    expect((await eventsAbout(paid.id)).map((event) => [event.type, event.app_id, event.data.object.status])).toEqual([['session.succeeded', appId, 'succeeded']]);
    expect((await eventsAbout(declined.id)).map((event) => event.type)).toEqual(['session.payment_failed']);
    const holdEvents = await eventsAbout(hold.id);
    expect(holdEvents.map((event) => event.type)).toEqual(['session.authorized', 'session.captured']);
    const read = await (await fetch(`${server.url}/api/sessions/${hold.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json();
    expect(holdEvents[1]?.data.object).toEqual(read);
  });

  it('records nothing for a change that rolled back', async () => {
    const session = await server.createSession(secretKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const before = await eventsAbout(session.id);
    await expect(
      server.store.transaction().execute(async (trx) => {
        await moveSession(trx, server.cipher, session.id, ['succeeded'], 'succeeded');
        await trx.updateTable('sessions').set({ status: 'open' }).where('id', '=', session.id).execute();
        await moveSession(trx, server.cipher, session.id, ['open'], 'processing');
        await moveSession(trx, server.cipher, session.id, ['processing'], 'succeeded');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await eventsAbout(session.id)).toEqual(before);
  });
});
