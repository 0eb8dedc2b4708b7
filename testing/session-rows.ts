/**
 * Sessions written straight into a store, as the payments they stand for would have left them (status,
 * amounts, the outcome's decline code, the refunded amount), for the overview's tests and its bench
 * (scripts/bench/overview.ts): thousands of them at any instant, where going through checkouts would
 * take minutes and could not choose `created`.
 */
import type { PaymentOutcome } from '../contracts';
import { newSessionRow } from '../server/checkout/sessions';
import type { Store } from '../server/store';
import type { SessionRow } from '../server/store/sessions';

export interface PaymentRow {
  id: string;
  appId: string;
  status: string;
  created: number;
  amount: number;
  currency?: string;
  intent?: 'charge' | 'hold';
  /** A charge's amount with its delivery option's; null when none was added. */
  amountCharged?: number | null;
  amountCaptured?: number | null;
  amountRefunded?: number;
  /** A declined payment's reason (the outcome's failure_code). */
  declineCode?: string;
}

function outcomeOf(payment: PaymentRow): PaymentOutcome | null {
  if (payment.status === 'declined') return { status: 'declined', charge_id: null, card: null, failure_code: payment.declineCode ?? null, failure_message: 'Your card was declined.' };
  if (['succeeded', 'captured', 'authorized', 'released'].includes(payment.status)) {
    return { status: payment.status === 'succeeded' ? 'succeeded' : 'authorized', charge_id: `ch_${payment.id}`, card: null, failure_code: null, failure_message: null };
  }
  return null;
}

export function sessionRowOf(payment: PaymentRow): SessionRow {
  const outcome = outcomeOf(payment);
  return {
    ...newSessionRow({
      id: payment.id,
      app_id: payment.appId,
      amount: payment.amount,
      currency: payment.currency ?? 'USD',
      country_code: 'US',
      intent: payment.intent ?? (payment.amountCaptured == null ? 'charge' : 'hold'),
      client_secret_hash: `hash-${payment.id}`,
      created: payment.created,
      expires_at: payment.created + 24 * 60 * 60 * 1000,
    }),
    status: payment.status,
    attempts: outcome ? 1 : 0,
    outcome: outcome && JSON.stringify(outcome),
    amount_captured: payment.amountCaptured ?? null,
    amount_refunded: payment.amountRefunded ?? 0,
    amount_charged: payment.amountCharged ?? null,
  };
}

/** Inserts the payments, 500 a statement (under SQLite's and pg's parameter limits). */
export async function insertPayments(store: Store, payments: readonly PaymentRow[]): Promise<void> {
  for (let i = 0; i < payments.length; i += 500) await store.insertInto('sessions').values(payments.slice(i, i + 500).map(sessionRowOf)).execute();
}
