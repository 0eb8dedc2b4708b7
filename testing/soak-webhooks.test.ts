/**
 * The soak's webhook audit: an event the store recorded after the soak first read it (the reconciler keeps
 * working while the soak drains: a card kept late, a network's card update) and that reached the receiver is
 * no problem; an event the receiver got that the store does not hold at all is one, and so is an event recorded
 * and never received. The soaks themselves run in server/store/store-outage.test.ts and the fleet's tests.
 */
import { describe, expect, it } from 'vitest';
import type { Event, Session } from '../contracts';
import { auditWebhooks } from './soak';

const event = (id: string, type: Event['type'], object: string) => ({ id, object: 'event', type, created: 1, data: { object: { id: object } } }) as unknown as Event;
const paid = { id: 'cs_1', status: 'succeeded', refunds: [] } as unknown as Session;
const succeeded = event('evt_1', 'session.succeeded', 'cs_1');
const keptLate = event('evt_2', 'payment_method.attached', 'pm_1');

function receiverOf(events: Event[]) {
  return { events: () => events, waitFor: async () => events, deliveries: events.map((got) => ({ event: got, body: '', headers: {} })), forged: 0 };
}

describe('the soak webhook audit', () => {
  it('takes an event recorded after the first read, and received, as recorded', async () => {
    const audit = await auditWebhooks([paid], [succeeded], receiverOf([succeeded, keptLate]), 10, async () => [keptLate, succeeded]);
    expect(audit).toMatchObject({ recorded: 1, received: 2, missing: [], unrecorded: [] });
  });

  it('names an event received that the store does not hold', async () => {
    const audit = await auditWebhooks([paid], [succeeded], receiverOf([succeeded, keptLate]), 10, async () => [succeeded]);
    expect(audit.unrecorded).toEqual(['evt_2 (payment_method.attached of pm_1)']);
  });

  it('names an event recorded and never received, and an outcome without its event', async () => {
    const refunded = { ...paid, refunds: [{ id: 're_1', status: 'succeeded' }] } as unknown as Session;
    const audit = await auditWebhooks([refunded], [succeeded], receiverOf([]), 10, async () => [succeeded]);
    expect(audit.missing).toEqual(['re_1 is succeeded, and no event was recorded', 'evt_1 (session.succeeded) was recorded and never received']);
  });
});
