/**
 * The wallet's API, and which readiness it reported. `isReadyToPay` says the browser can pay with
 * Google Pay; with `existingPaymentMethodRequired` the wallet also says whether the shopper already
 * has a card in it. Google answers that in PRODUCTION only (TEST always says yes), and the sandbox
 * wallet as Google would; elsewhere the answer is null, "not known".
 */
import type { CardPaymentMethod } from '../../contracts';
import type { GooglePaymentsClient, GooglePaymentsClientConstructor } from '../../contracts/google-pay-types';

export interface PaymentsApi {
  PaymentsClient?: GooglePaymentsClientConstructor;
}

/** The wallet's API (Google's pay.js, or the sandbox wallet), once a script has defined it. */
export const paymentsApi = (): PaymentsApi | undefined => (window as { google?: { payments?: { api?: PaymentsApi } } }).google?.payments?.api;

/** Whether a wallet is on the page already (the page's own pay.js, or the sandbox's), so none needs loading. */
export const walletHere = (): boolean => !!paymentsApi()?.PaymentsClient;

export interface Readiness {
  ready: boolean;
  paymentMethodPresent: boolean | null;
}

/** A payment method as isReadyToPay and createButton take it (the tokenization is the sheet's alone), its lists as the contracts' constants have them. */
export interface AskedMethod {
  type: CardPaymentMethod['type'];
  parameters: Omit<CardPaymentMethod['parameters'], 'allowedAuthMethods' | 'allowedCardNetworks'> & {
    allowedAuthMethods: readonly CardPaymentMethod['parameters']['allowedAuthMethods'][number][];
    allowedCardNetworks: readonly CardPaymentMethod['parameters']['allowedCardNetworks'][number][];
  };
}

/**
 * One question for both: the button shows on `result` alone (a shopper without a card adds one in
 * the sheet), and `paymentMethodPresent` is only asked where the wallet can answer it.
 */
export async function readiness(client: GooglePaymentsClient, allowedPaymentMethods: readonly AskedMethod[], knowsPaymentMethods: boolean): Promise<Readiness> {
  // Google's types take mutable lists; none is changed.
  const answer = await client.isReadyToPay({ apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: allowedPaymentMethods as google.payments.api.IsReadyToPayPaymentMethodSpecification[], existingPaymentMethodRequired: knowsPaymentMethods });
  return { ready: answer.result, paymentMethodPresent: knowsPaymentMethods ? (answer.paymentMethodPresent ?? null) : null };
}
