/**
 * The issuers' own declines over real HTTP: the merchant reads each code as the service gave it (the
 * session, its `session.payment_failed` event), while the shopper's browser is given the generic
 * decline for those that would tell a fraudster too much (contracts/shopper-declines.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, Event, type PayReply, type Session } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'declines' }));
});
afterAll(() => server.close());

const merchantView = async (session: CreatedSession) => (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
const failedEvents = async (session: CreatedSession) =>
  (await server.store.selectFrom('events').select('body').orderBy('created').execute())
    .map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body))))
    .filter((event) => event.type === 'session.payment_failed' && event.data.object.id === session.id);

async function declinedWith(card: string) {
  const session = await server.createSession(secretKey);
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  expect(reply.status).toBe(200);
  return { session, shopper: (await reply.json()) as PayReply };
}

describe("an issuer's decline", () => {
  it.each([
    ['visa-fraudulent-3ds', 'fraudulent'],
    ['visa-lost-card-3ds', 'lost_card'],
    ['visa-stolen-card-3ds', 'stolen_card'],
  ])('%s: the merchant reads %s; the shopper is given the generic decline, without the reason', async (card, code) => {
    const { session, shopper } = await declinedWith(card);
    const generic = { status: 'declined', failure_code: 'card_declined', failure_message: null };
    expect(shopper.outcome).toMatchObject(generic);
    expect(shopper.session.outcome).toMatchObject(generic);
    expect((await server.publicSession(session)).outcome).toMatchObject(generic);
    expect(JSON.stringify(await server.publicSession(session))).not.toMatch(/fraud|lost|stolen/);

    const merchant = await merchantView(session);
    expect(merchant).toMatchObject({ status: 'declined', outcome: { status: 'declined', failure_code: code, failure_message: expect.stringMatching(/fraud|lost|stolen/) } });
    const events = await failedEvents(session);
    expect(events.map((event) => (event.data.object as Session).outcome?.failure_code)).toEqual([code]);
  });

  it.each([
    ['visa-incorrect-cvc-3ds', 'incorrect_cvc'],
    ['visa-do-not-honor-3ds', 'do_not_honor'],
  ])('%s: the merchant and the shopper both read %s (the widget words it as the generic decline)', async (card, code) => {
    const { session, shopper } = await declinedWith(card);
    expect(shopper.outcome).toMatchObject({ status: 'declined', failure_code: code });
    expect((await merchantView(session)).outcome).toMatchObject({ failure_code: code });
    expect((await failedEvents(session)).map((event) => (event.data.object as Session).outcome?.failure_code)).toEqual([code]);
  });

  it('leaves the session payable again: the shopper pays with another card', async () => {
    const { session } = await declinedWith('visa-stolen-card-3ds');
    const paid = (await (await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') })).json()) as PayReply;
    expect(paid.outcome.status).toBe('succeeded');
    expect((await merchantView(session)).attempts).toBe(2);
  });
});
