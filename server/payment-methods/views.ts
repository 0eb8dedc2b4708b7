/** A kept card's row as the API shows it (GET /api/payment_methods..., and the payment_method.* events). */
import { CardNetwork, type PaymentMethod, PaymentMethodAgreement, TokenKind } from '../../contracts';
import type { PaymentMethodRow } from '../store/payment-methods';

/** Whether a card is past its expiry at `now`: it is good through the last day of its expiry month (UTC), as the networks have it. */
export function cardExpired(card: { exp_month: number; exp_year: number }, now: number): boolean {
  const today = new Date(now);
  return card.exp_year * 12 + card.exp_month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
}

/** The API's view at `now`: a live card past its expiry reads `expired` (no write: the card update or a new saving makes it active again). */
export function paymentMethodView(row: PaymentMethodRow, now = Date.now()): PaymentMethod {
  const status = row.detached !== null ? 'detached' : cardExpired(row, now) ? 'expired' : 'active';
  return {
    id: row.id,
    object: 'payment_method',
    app_id: row.app_id,
    customer: row.customer,
    card: { network: CardNetwork.parse(row.network), last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year },
    token_kind: TokenKind.parse(row.token_kind),
    agreement: PaymentMethodAgreement.parse(JSON.parse(row.agreement)),
    network_transaction_reference: row.network_transaction_reference,
    status,
    created: row.created,
    updated: row.updated,
    detached: row.detached,
  };
}
