/**
 * A payment's timeline as the dashboard shows it: one line per fact, oldest first. An event and the fact it
 * reports are one line (the attempt and its `session.succeeded`, the refund and its `refund.succeeded`), with
 * the event's webhook deliveries under it; an event that reports nothing another line shows (a capture, a
 * release, an expiry) is a line of its own. docs/dashboard.md.
 */
import { z } from 'zod';
import { type DeliveryView, EventType, PaymentOutcome, type Refund, type TimelineEntry } from '../../contracts';

/** A charge attempt as the store reads it for the timeline (store/dashboard.ts attemptsOfSession). */
export interface TimelineAttempt {
  attempt_no: number;
  status: string;
  outcome: string | null;
  authentication_session: string | null;
  created: number;
  updated: number;
}

/** An event about the payment; `refund_id`: the refund a `refund.*` event reports. */
export interface TimelineEvent {
  id: string;
  type: EventType;
  created: number;
  refund_id: string | null;
}

/** The events that report an attempt's outcome: the attempt's line is theirs. */
const ATTEMPT_OUTCOMES: ReadonlySet<EventType> = new Set(['session.succeeded', 'session.authorized', 'session.payment_failed']);

/** The refund a `refund.*` event's body is about (its body is the refund, never sealed: it holds no personal data). */
const RefundEventBody = z.object({ data: z.object({ object: z.object({ object: z.literal('refund'), id: z.string() }) }) });

export function refundIdOfEvent(type: string, body: string): string | null {
  if (!type.startsWith('refund.')) return null;
  try {
    const parsed = RefundEventBody.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.data.object.id : null;
  } catch {
    return null;
  }
}

const addTo = <K>(map: Map<K, string[]>, key: K, eventId: string) => map.set(key, [...(map.get(key) ?? []), eventId]);

export function timelineLines(created: number, attempts: readonly TimelineAttempt[], events: readonly TimelineEvent[], refunds: readonly Refund[], deliveries: readonly DeliveryView[]): TimelineEntry[] {
  const deliveriesOf = (eventId: string) => deliveries.filter((delivery) => delivery.event_id === eventId);
  // Which line each event is: the latest attempt before an outcome event (attempts of a session run one at a time), the refund a refund event names.
  const attemptEvents = new Map<number, string[]>();
  const refundEvents = new Map<string, string[]>();
  const ownLines: TimelineEvent[] = [];
  for (const event of events) {
    const attempt = ATTEMPT_OUTCOMES.has(event.type) ? attempts.filter((candidate) => candidate.created <= event.created).at(-1) : undefined;
    const refund = event.refund_id === null ? undefined : refunds.find((candidate) => candidate.id === event.refund_id);
    if (attempt) addTo(attemptEvents, attempt.attempt_no, event.id);
    else if (refund) addTo(refundEvents, refund.id, event.id);
    else ownLines.push(event);
  }

  const lines: TimelineEntry[] = [{ kind: 'created', at: created }];
  for (const attempt of attempts) {
    const outcome = attempt.outcome ? PaymentOutcome.safeParse(JSON.parse(attempt.outcome)) : undefined;
    lines.push({
      kind: 'attempt',
      at: attempt.created,
      attempt_no: attempt.attempt_no,
      status: outcome?.success ? outcome.data.status : attempt.status,
      failure_message: outcome?.success ? outcome.data.failure_message : null,
      deliveries: (attemptEvents.get(attempt.attempt_no) ?? []).flatMap(deliveriesOf),
    });
    if (attempt.authentication_session) lines.push({ kind: 'three_ds', at: attempt.updated, attempt_no: attempt.attempt_no });
  }
  for (const event of ownLines) lines.push({ kind: 'event', at: event.created, type: event.type, event_id: event.id, deliveries: deliveriesOf(event.id) });
  for (const refund of refunds) {
    lines.push({ kind: 'refund', at: refund.created, amount: refund.amount, reason: refund.reason, status: refund.status, failure_message: refund.failure_message, deliveries: (refundEvents.get(refund.id) ?? []).flatMap(deliveriesOf) });
  }
  // A stable sort: lines at the same millisecond keep the order above (an attempt before its 3-D Secure).
  return lines.sort((a, b) => a.at - b.at);
}
