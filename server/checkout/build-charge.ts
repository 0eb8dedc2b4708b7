/**
 * Where a charge is built: the request of the charge API's document, from the session's price and
 * currency (never the browser's), the wallet's token and its billing address;
 * a hold for a session with intent `hold`; for a session that keeps the card, the stored credential
 * it sets up (docs/saved-cards.md).
 */
import { type BillingDetails, type ChargeRequest, SavePaymentMethod, type SourceData, type StoredCredential } from '../../contracts';

export interface ChargeSession {
  id: string;
  amount: number;
  /** What a payment attempt of the session charges, set when it is claimed (with delivery options, the latest quote's total); the amount when absent. */
  amount_charged?: number | null;
  currency: string;
  description: string | null;
  reference: string | null;
  intent: string;
  /** SavePaymentMethod JSON: the session keeps the card, and its payments are the customer-initiated transactions that set that up. */
  save_payment_method?: string | null;
}

/** The wallet's two sources (the charge API's), or, after 3-D Secure, the payment method the service made from one. */
export type ChargeSource = SourceData;

export interface ChargeOptions {
  /** The app's policy asks for 3-D Secure on every PAN_ONLY card. */
  requireAuthentication?: boolean;
  /** Paying a payment method once 3-D Secure authenticated it: that Authentication Session. */
  authenticationSession?: string;
  /** A merchant-initiated charge of a kept card: why, and the first transaction's network reference. */
  merchantInitiated?: Extract<StoredCredential, { initiator: 'merchant' }>;
}

/** What the session's payment charges: the attempt's price (amount_charged), else its amount (sessions paid before prices were recorded). */
export const chargedAmountOf = (session: Pick<ChargeSession, 'amount' | 'amount_charged'>): number => session.amount_charged ?? session.amount;

/** The stored credential a payment of the session sets up: the use the card is kept for, by the customer present; none when it keeps no card. */
function customerInitiated(session: ChargeSession): StoredCredential | undefined {
  if (!session.save_payment_method) return undefined;
  return { initiator: 'customer', usage: SavePaymentMethod.parse(JSON.parse(session.save_payment_method)).usage };
}

export function buildCharge(session: ChargeSession, source: ChargeSource, billing: BillingDetails | undefined, options: ChargeOptions = {}): ChargeRequest {
  const storedCredential = options.merchantInitiated ?? customerInitiated(session);
  return {
    source_data: source,
    amount: chargedAmountOf(session),
    currency: session.currency.toLowerCase(),
    ...(billing && { billing_details: billing }),
    ...(session.description && { description: session.description }),
    metadata: { session_id: session.id, ...(session.reference && { reference: session.reference }) },
    ...(session.intent === 'hold' && { capture: false }),
    ...(options.requireAuthentication && { authentication: 'required' as const }),
    ...(options.authenticationSession && { authentication_session: options.authenticationSession }),
    ...(storedCredential && { stored_credential: storedCredential }),
  };
}
