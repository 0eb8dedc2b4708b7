/**
 * The checkout session's statuses and the moves between them, as plain data
 * (no zod): the server's state machine (server/checkout/states.ts) enforces
 * this table, and the widget (web/checkout/states.ts) derives from it which
 * sessions need no button, so neither writes the list of statuses twice.
 */
export const SESSION_STATUSES = ['open', 'processing', 'requires_authentication', 'succeeded', 'authorized', 'captured', 'released', 'declined', 'failed', 'pending', 'expired'] as const;
type Status = (typeof SESSION_STATUSES)[number];

/** From each status, the statuses a session may move to. */
export const sessionTransitions: Readonly<Record<Status, readonly Status[]>> = {
  // A payment attempt is claimed (pay); declined and failed sessions may be paid again. Any of them,
  // unpaid and with no attempt in flight, expires once its expires_at has passed (checkout/expiry.ts).
  open: ['processing', 'expired'],
  declined: ['processing', 'expired'],
  failed: ['processing', 'expired'],
  // The attempt's outcome; pending until an unknown one is known (reconciliation). Never expired while
  // in flight: the card may have been charged, so the attempt settles first, and expires after if unpaid.
  processing: ['succeeded', 'authorized', 'requires_authentication', 'declined', 'failed', 'pending'],
  pending: ['succeeded', 'authorized', 'requires_authentication', 'declined', 'failed', 'pending'],
  // The shopper completes the challenge (a new attempt charges the payment method), or it ends without:
  // failed, cancelled or expired. Paying again (another card) abandons it too.
  requires_authentication: ['processing', 'declined', 'expired'],
  // A hold: the merchant captures (all or part) or releases it.
  authorized: ['captured', 'released'],
  succeeded: [],
  captured: [],
  released: [],
  expired: [],
};

/** The statuses a session can be in and still move to `to`, in the table's order (the server's expiry and its index, server/store/session-expiry.ts). */
export const statusesLeadingTo = (to: Status): Status[] => SESSION_STATUSES.filter((from) => sessionTransitions[from].includes(to));

/** `from` and every status a session can reach from one of them. */
function reachableFrom(from: readonly Status[]): Status[] {
  const seen = new Set<Status>(from);
  for (const status of seen) for (const next of sessionTransitions[status]) seen.add(next);
  return SESSION_STATUSES.filter((status) => seen.has(status));
}

/**
 * Sessions a payment went through for (a charge, or a hold whatever the merchant did with it since):
 * the two successful outcomes and all that follows them. They can never be paid again.
 */
// Pure: a bundle that does not ask for the list (the widget's first script) does not carry the table either.
export const PAID_STATUSES: readonly Status[] = /* @__PURE__ */ reachableFrom(['succeeded', 'authorized']);
