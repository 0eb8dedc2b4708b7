/**
 * What the dashboard's page reads, built from the merchant API's views and the
 * stores: a payment with its card cut down to network and last four, its
 * timeline, and an endpoint with its recent deliveries.
 */
import type { DashboardEndpoint, DashboardPayment, DeliveryView, Session, TimelineEntry } from '../../contracts';
import { EventType, PaymentOutcome } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import type { Store } from '../store';
import { attemptsOfSession, type DeliveryRow, deliveriesOfEvents, eventsOfSession, recentDeliveries } from '../store/dashboard';
import type { WebhookEndpointRow } from '../store/webhooks';
import { endpointView } from '../webhooks/endpoints';

/**
 * Whether the dashboard's page words this event type: a payment's events (its locales name each EventType).
 * A kept card's events (payment_method.*) are the API's and the webhooks' for now: the page neither lists
 * their deliveries nor names them among an endpoint's types (docs/saved-cards.md).
 */
const wordedByPage = (type: string): type is EventType => EventType.safeParse(type).success;

/** How many of an endpoint's latest deliveries the Developers page shows. */
export const RECENT_DELIVERIES = 10;

export function paymentView(session: Session): DashboardPayment {
  const card = session.outcome?.card;
  return { ...session, outcome: session.outcome && { ...session.outcome, card: card ? { network: card.network, last4: card.last4 } : null }, currency_exponent: exponentOf(session.currency) };
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: EventType.parse(row.event_type),
    endpoint_id: row.endpoint_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    updated: row.updated,
  };
}

/** Everything that happened to the payment, oldest first: its attempts and 3-D Secure, its events (outcome, capture, release, refunds), its refunds and their webhook deliveries. */
export async function timelineOf(store: Store, session: Session): Promise<TimelineEntry[]> {
  const [attempts, events] = await Promise.all([attemptsOfSession(store, session.id), eventsOfSession(store, session.app_id, session.id)]);
  const deliveries = await deliveriesOfEvents(store, events.map((event) => event.id));
  const entries: TimelineEntry[] = [{ kind: 'created', at: session.created }];
  for (const attempt of attempts) {
    const outcome = attempt.outcome ? PaymentOutcome.safeParse(JSON.parse(attempt.outcome)) : undefined;
    entries.push({ kind: 'attempt', at: attempt.created, attempt_no: attempt.attempt_no, status: outcome?.success ? outcome.data.status : attempt.status, failure_message: outcome?.success ? outcome.data.failure_message : null });
    if (attempt.authentication_session) entries.push({ kind: 'three_ds', at: attempt.updated, attempt_no: attempt.attempt_no });
  }
  for (const event of events) entries.push({ kind: 'event', at: event.created, type: EventType.parse(event.type), event_id: event.id });
  for (const refund of session.refunds) entries.push({ kind: 'refund', at: refund.created, amount: refund.amount, status: refund.status, failure_message: refund.failure_message });
  for (const delivery of deliveries) entries.push({ kind: 'delivery', at: delivery.updated, delivery: deliveryView(delivery) });
  return entries.sort((a, b) => a.at - b.at);
}

export async function endpointWithDeliveries(store: Store, row: WebhookEndpointRow): Promise<DashboardEndpoint> {
  const { id, url, events, created } = endpointView(row);
  const deliveries = (await recentDeliveries(store, row.id, RECENT_DELIVERIES)).filter((delivery) => wordedByPage(delivery.event_type));
  return { id, url, events: events && events.filter(wordedByPage), created, recent_deliveries: deliveries.map(deliveryView) };
}
