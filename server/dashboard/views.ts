/**
 * What the dashboard's page reads, built from the merchant API's views and the
 * stores: a payment with its card cut down to network and last four, its
 * timeline (timeline.ts), and an endpoint with its recent deliveries.
 */
import type { DashboardEndpoint, DashboardPayment, DeliveryView, Session, TimelineEntry } from '../../contracts';
import { EventType } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import type { Store } from '../store';
import { attemptsOfSession, type DeliveryRow, deliveriesOfEvents, eventsOfSession, recentDeliveries } from '../store/dashboard';
import type { WebhookEndpointRow } from '../store/webhooks';
import { endpointView } from '../webhooks/endpoints';
import { refundIdOfEvent, timelineLines } from './timeline';

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

/** Everything that happened to the payment, one line per fact, oldest first (timeline.ts). */
export async function timelineOf(store: Store, session: Session): Promise<TimelineEntry[]> {
  const [attempts, events] = await Promise.all([attemptsOfSession(store, session.id), eventsOfSession(store, session.app_id, session.id)]);
  const worded = events.filter((event) => wordedByPage(event.type));
  const deliveries = await deliveriesOfEvents(store, worded.map((event) => event.id));
  const timelineEvents = worded.map((event) => ({ id: event.id, type: EventType.parse(event.type), created: event.created, refund_id: event.refund_body === null ? null : refundIdOfEvent(event.type, event.refund_body) }));
  return timelineLines(session.created, attempts, timelineEvents, session.refunds, deliveries.map(deliveryView));
}

export async function endpointWithDeliveries(store: Store, row: WebhookEndpointRow): Promise<DashboardEndpoint> {
  const { id, url, events, created } = endpointView(row);
  const deliveries = (await recentDeliveries(store, row.id, RECENT_DELIVERIES)).filter((delivery) => wordedByPage(delivery.event_type));
  return { id, url, events: events && events.filter(wordedByPage), created, recent_deliveries: deliveries.map(deliveryView) };
}
