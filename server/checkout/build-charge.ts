/**
 * Where a charge is built: the seed's request, from the session's amount and
 * currency (never the browser's), the wallet's token and its billing address.
 */
import type { BillingDetails, ChargeRequest, EcV2Token, NetworkToken, SourceData } from '../contracts';

export interface ChargeSession {
  id: string;
  amount: number;
  currency: string;
  description: string | null;
  reference: string | null;
}

export type ChargeSource = { type: 'walletpay'; walletpay: EcV2Token } | { type: 'network_token'; network_token: NetworkToken };

export function buildCharge(session: ChargeSession, source: ChargeSource, billing: BillingDetails | undefined): ChargeRequest {
  const sourceData: SourceData = source;
  return {
    source_data: sourceData,
    amount: session.amount,
    currency: session.currency.toLowerCase(),
    ...(billing && { billing_details: billing }),
    ...(session.description && { description: session.description }),
    metadata: { session_id: session.id, ...(session.reference && { reference: session.reference }) },
  };
}
