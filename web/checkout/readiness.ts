/**
 * Which readiness the wallet reported. `isReadyToPay` says the browser can
 * pay with Google Pay; with `existingPaymentMethodRequired` the wallet also
 * says whether the shopper already has a card in it. Google answers that in
 * PRODUCTION only (TEST always says yes), and the sandbox wallet as Google
 * would; elsewhere the answer is null, "not known".
 */
import type { PaymentDataRequest } from '../../server/contracts';

interface ReadinessClient {
  isReadyToPay(request: object): Promise<{ result: boolean; paymentMethodPresent?: boolean }>;
}
type PaymentsApi = { PaymentsClient?: new (options: { environment: string }) => ReadinessClient };

/** The wallet's API (Google's pay.js, or the sandbox wallet), once a script has defined it. */
export const paymentsApi = (): PaymentsApi | undefined => (window as { google?: { payments?: { api?: PaymentsApi } } }).google?.payments?.api;

export async function paymentMethodPresent(environment: string, request: PaymentDataRequest): Promise<boolean | null> {
  const api = paymentsApi();
  if (!api?.PaymentsClient) return null;
  try {
    const { apiVersion, apiVersionMinor, allowedPaymentMethods } = request;
    const answer = await new api.PaymentsClient({ environment }).isReadyToPay({ apiVersion, apiVersionMinor, allowedPaymentMethods, existingPaymentMethodRequired: true });
    return answer.paymentMethodPresent ?? null;
  } catch {
    return null;
  }
}
