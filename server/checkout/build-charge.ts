/**
 * Where a charge is built: the request of the charge API's document, from the session's price and
 * currency (never the browser's), the wallet's token and its billing address;
 * a hold for a session with intent `hold`.
 */
import type { BillingDetails, ChargeRequest, SourceData } from '../../contracts';

export interface ChargeSession {
  id: string;
  amount: number;
  /** What a payment attempt of the session charges, set when it is claimed (with delivery options, the latest quote's total); the amount when absent. */
  amount_charged?: number | null;
  currency: string;
  description: string | null;
  reference: string | null;
  intent: string;
}

/** The wallet's two sources (the charge API's), or, after 3-D Secure, the payment method the service made from one. */
export type ChargeSource = SourceData;

export interface ChargeOptions {
  /** The app's policy asks for 3-D Secure on every PAN_ONLY card. */
  requireAuthentication?: boolean;
  /** Paying a payment method once 3-D Secure authenticated it: that Authentication Session. */
  authenticationSession?: string;
}

/** What the session's payment charges: the attempt's price (amount_charged), else its amount (sessions paid before prices were recorded). */
export const chargedAmountOf = (session: Pick<ChargeSession, 'amount' | 'amount_charged'>): number => session.amount_charged ?? session.amount;

export function buildCharge(session: ChargeSession, source: ChargeSource, billing: BillingDetails | undefined, options: ChargeOptions = {}): ChargeRequest {
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
  };
}
