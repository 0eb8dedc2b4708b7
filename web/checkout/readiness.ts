/**
 * The wallet's API, and which readiness it reported. `isReadyToPay` says the browser can pay with
 * Google Pay; with `existingPaymentMethodRequired` the wallet also says whether the shopper already
 * has a card in it. Google answers that in PRODUCTION only (TEST always says yes), and the sandbox
 * wallet as Google would; elsewhere the answer is null, "not known".
 */
/// <reference types="googlepay" />
import type { PaymentDataRequest } from '../../server/contracts';

export type PaymentsApi = Partial<Pick<typeof google.payments.api, 'PaymentsClient'>>;

/** The wallet's API (Google's pay.js, or the sandbox wallet), once a script has defined it. */
export const paymentsApi = (): PaymentsApi | undefined => (window as { google?: { payments?: { api?: PaymentsApi } } }).google?.payments?.api;

export interface Readiness {
  ready: boolean;
  paymentMethodPresent: boolean | null;
}

/**
 * One question for both: the button shows on `result` alone (a shopper without a card adds one in
 * the sheet), and `paymentMethodPresent` is only asked where the wallet can answer it.
 */
export async function readiness(client: google.payments.api.PaymentsClient, request: PaymentDataRequest, knowsPaymentMethods: boolean): Promise<Readiness> {
  const { apiVersion, apiVersionMinor, allowedPaymentMethods } = request;
  const answer = await client.isReadyToPay({
    apiVersion,
    apiVersionMinor,
    allowedPaymentMethods,
    existingPaymentMethodRequired: knowsPaymentMethods,
  } as google.payments.api.IsReadyToPayRequest);
  return { ready: answer.result, paymentMethodPresent: knowsPaymentMethods ? (answer.paymentMethodPresent ?? null) : null };
}
