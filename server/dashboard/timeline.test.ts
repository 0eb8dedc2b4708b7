/** A payment's timeline lines: one per fact, each event on the line of the fact it reports, with its deliveries. */
import { describe, expect, it } from 'vitest';
import type { DeliveryView, EventType, Refund } from '../../contracts';
import { refundIdOfEvent, type TimelineAttempt, type TimelineEvent, timelineLines } from './timeline';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

const attempt = (attempt_no: number, seconds: number, status: string, failure_message: string | null = null): TimelineAttempt => ({
  attempt_no,
  status,
  outcome: JSON.stringify({ status, charge_id: `ch_${attempt_no}`, failure_code: failure_message && 'card_declined', failure_message, card: null }),
  authentication_session: null,
  created: at(seconds),
  updated: at(seconds),
});

const event = (id: string, type: EventType, seconds: number, refund_id: string | null = null): TimelineEvent => ({ id, type, created: at(seconds), refund_id });

const refund = (id: string, seconds: number, amount: number, status: Refund['status'] = 'succeeded', reason: Refund['reason'] = null): Refund => ({
  id,
  object: 'refund',
  session_id: 'cs_1',
  amount,
  currency: 'USD',
  reason,
  status,
  failure_code: null,
  failure_message: null,
  created: at(seconds),
  updated: at(seconds),
});

const delivery = (id: string, event_id: string, event_type: EventType, seconds: number, status = 'delivered'): DeliveryView => ({
  id,
  event_id,
  event_type,
  endpoint_id: 'we_1',
  url: 'https://shop.example/hooks',
  status,
  attempts: 1,
  last_status_code: status === 'delivered' ? 200 : 500,
  last_error: null,
  updated: at(seconds),
});

describe("a payment's timeline", () => {
  it('is one line per fact: a refund and the refund.succeeded event that reports it are one line, with that event\'s deliveries', () => {
    const refunds = [refund('re_a', 20, 1000, 'succeeded', 'requested_by_customer')];
    const events = [event('evt_paid', 'session.succeeded', 1), event('evt_refunded', 'refund.succeeded', 21, 're_a')];
    const deliveries = [delivery('whd_1', 'evt_paid', 'session.succeeded', 2), delivery('whd_2', 'evt_refunded', 'refund.succeeded', 22, 'failed'), delivery('whd_3', 'evt_refunded', 'refund.succeeded', 23)];
    const lines = timelineLines(at(0), [attempt(1, 1, 'succeeded')], events, refunds, deliveries);

    expect(lines.map((line) => line.kind)).toEqual(['created', 'attempt', 'refund']);
    expect(lines[1]).toMatchObject({ kind: 'attempt', at: at(1), status: 'succeeded', deliveries: [{ id: 'whd_1' }] });
    expect(lines[2]).toMatchObject({ kind: 'refund', at: at(20), amount: 1000, reason: 'requested_by_customer', status: 'succeeded', deliveries: [{ id: 'whd_2', status: 'failed' }, { id: 'whd_3' }] });
  });

  it("puts each outcome event on the attempt it reports: a declined attempt, then a succeeded one, a second apart", () => {
    const attempts = [attempt(1, 10, 'declined', 'The card was declined'), attempt(2, 11, 'succeeded')];
    const events = [event('evt_failed', 'session.payment_failed', 10), event('evt_paid', 'session.succeeded', 11)];
    const deliveries = [delivery('whd_f', 'evt_failed', 'session.payment_failed', 10), delivery('whd_p', 'evt_paid', 'session.succeeded', 12)];
    const lines = timelineLines(at(0), attempts, events, [], deliveries);

    expect(lines).toEqual([
      { kind: 'created', at: at(0) },
      { kind: 'attempt', at: at(10), attempt_no: 1, status: 'declined', failure_message: 'The card was declined', deliveries: [expect.objectContaining({ id: 'whd_f' })] },
      { kind: 'attempt', at: at(11), attempt_no: 2, status: 'succeeded', failure_message: null, deliveries: [expect.objectContaining({ id: 'whd_p' })] },
    ]);
  });

  it('keeps an event that reports no other line as a line of its own: a hold authorized on its attempt, then captured', () => {
    const events = [event('evt_held', 'session.authorized', 1), event('evt_captured', 'session.captured', 30)];
    const lines = timelineLines(at(0), [attempt(1, 1, 'authorized')], events, [], [delivery('whd_c', 'evt_captured', 'session.captured', 31)]);
    expect(lines.map((line) => line.kind)).toEqual(['created', 'attempt', 'event']);
    expect(lines[2]).toEqual({ kind: 'event', at: at(30), type: 'session.captured', event_id: 'evt_captured', deliveries: [expect.objectContaining({ id: 'whd_c' })] });
  });

  it('shows two refunds as two lines, each with its own event, whatever order their events came in', () => {
    const refunds = [refund('re_a', 20, 500), refund('re_b', 21, 700, 'failed')];
    const events = [event('evt_b', 'refund.failed', 22, 're_b'), event('evt_a', 'refund.succeeded', 23, 're_a')];
    const deliveries = [delivery('whd_b', 'evt_b', 'refund.failed', 22), delivery('whd_a', 'evt_a', 'refund.succeeded', 23)];
    const lines = timelineLines(at(0), [attempt(1, 1, 'succeeded')], events, refunds, deliveries);
    expect(lines.filter((line) => line.kind === 'refund')).toEqual([
      expect.objectContaining({ amount: 500, status: 'succeeded', deliveries: [expect.objectContaining({ id: 'whd_a' })] }),
      expect.objectContaining({ amount: 700, status: 'failed', deliveries: [expect.objectContaining({ id: 'whd_b' })] }),
    ]);
    expect(lines.some((line) => line.kind === 'event')).toBe(false);
  });
});

describe('the refund a refund event reports', () => {
  it("is read from the event's body; other events and bodies that are not a refund's name none", () => {
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'refund.succeeded', data: { object: { object: 'refund', id: 're_a' } } });
    expect(refundIdOfEvent('refund.succeeded', body)).toBe('re_a');
    expect(refundIdOfEvent('session.succeeded', body)).toBeNull();
    expect(refundIdOfEvent('refund.failed', 'sealed:not-json')).toBeNull();
  });
});
