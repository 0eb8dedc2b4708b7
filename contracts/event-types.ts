/**
 * The event types as plain lists, without zod: `events.ts` makes its enums of them, and the Node
 * library's command line (`wallet-checkout trigger --help`), which bundles no zod, names them.
 */

/** A payment's events: its session's and its refunds'. */
export const PAYMENT_EVENT_TYPES = [
  'session.succeeded',
  'session.authorized',
  'session.captured',
  'session.released',
  'session.payment_failed',
  'session.expired',
  'refund.succeeded',
  'refund.failed',
] as const;

/** A kept card's events (docs/saved-cards.md). */
export const PAYMENT_METHOD_EVENT_TYPES = ['payment_method.attached', 'payment_method.updated', 'payment_method.detached'] as const;

/** A dispute's events (docs/disputes.md): opened, changed (evidence submitted), closed (won or lost). */
export const DISPUTE_EVENT_TYPES = ['dispute.created', 'dispute.updated', 'dispute.closed'] as const;

/** Every event an endpoint can listen to. */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...PAYMENT_METHOD_EVENT_TYPES, ...DISPUTE_EVENT_TYPES] as const;
export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number];
