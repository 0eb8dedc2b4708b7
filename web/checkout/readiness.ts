/**
 * The wallet's API, and which readiness it reported. `isReadyToPay` says the browser can pay with
 * Google Pay; with `existingPaymentMethodRequired` the wallet also says whether the shopper already
 * has a card in it. Google answers that in PRODUCTION only (TEST always says yes), and the sandbox
 * wallet as Google would; elsewhere the answer is null, "not known".
 */
import type { PaymentDataRequest } from '../../contracts';
import type { GooglePaymentsClient, GooglePaymentsClientConstructor } from '../../contracts/google-pay-types';

export interface PaymentsApi {
  PaymentsClient?: GooglePaymentsClientConstructor;
}

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
export async function readiness(client: GooglePaymentsClient, request: PaymentDataRequest, knowsPaymentMethods: boolean): Promise<Readiness> {
  const { apiVersion, apiVersionMinor, allowedPaymentMethods } = request;
  const answer = await client.isReadyToPay({ apiVersion, apiVersionMinor, allowedPaymentMethods, existingPaymentMethodRequired: knowsPaymentMethods });
  return { ready: answer.result, paymentMethodPresent: knowsPaymentMethods ? (answer.paymentMethodPresent ?? null) : null };
}
