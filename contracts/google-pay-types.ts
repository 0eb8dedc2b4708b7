/// <reference types="googlepay" />
/**
 * Google's own TypeScript definitions of the objects we exchange with its client, from the
 * maintained `@types/googlepay` package (a devDependency: declarations only, nothing at run time;
 * referenced here because tsconfig's `types` names only node). The request builder
 * (payment-data-request.ts), the widget's calls to `google.payments.api` (web/checkout) and the
 * sandbox's PaymentData (sandbox/wallet-api.ts) are checked against them at compile time, beside
 * the zod contracts of google-pay.ts: a field or a value Google does not define fails the typecheck.
 *
 * Where the package and Google's reference differ, the reference wins, in three places only:
 * - `MerchantInfo.merchantId` is required in PRODUCTION only (the package makes it always required);
 * - `MerchantInfo.merchantOrigin` and `authJwt`, Google Pay for platforms' (docs/platform.md), are
 *   not in the package;
 * - a billing address of format MIN holds the name, country, postal code and phone only, while the
 *   package's `Address` requires a locality and an administrative area (its own MIN note says otherwise).
 *
 * Not exported by contracts/index.ts: the Node library bundles the contracts, and the types it
 * publishes must not need this package.
 */
import type { PaymentData } from './google-pay';

export type GoogleMerchantInfo = Omit<google.payments.api.MerchantInfo, 'merchantId'> & { merchantId?: string; merchantOrigin?: string; authJwt?: string };

export type GooglePaymentDataRequest = Omit<google.payments.api.PaymentDataRequest, 'merchantInfo'> & { merchantInfo: GoogleMerchantInfo };

export type GoogleMinAddress = Pick<google.payments.api.Address, 'countryCode' | 'postalCode'> & Partial<Pick<google.payments.api.Address, 'name' | 'phoneNumber'>>;

/** The PaymentData Google returns for a CARD: its billing address FULL (every field, blank where the address has none) or MIN. */
export type GooglePaymentData = Omit<google.payments.api.PaymentData, 'paymentMethodData'> & {
  paymentMethodData: Omit<google.payments.api.PaymentMethodData, 'info'> & {
    info: Omit<google.payments.api.CardInfo, 'billingAddress'> & { billingAddress?: google.payments.api.Address | GoogleMinAddress };
  };
};

export interface GooglePaymentOptions extends Omit<google.payments.api.PaymentOptions, 'merchantInfo' | 'paymentDataCallbacks'> {
  merchantInfo?: GoogleMerchantInfo;
  paymentDataCallbacks?: GooglePaymentCallbacks;
}

/**
 * The widget's answer is the charge's outcome; Google's PaymentData is read as the contract's (the backend parses it again).
 * onPaymentDataChanged: a change in the sheet, answered with the server's price for it.
 */
export interface GooglePaymentCallbacks {
  onPaymentAuthorized?: (paymentData: PaymentData) => Promise<google.payments.api.PaymentAuthorizationResult>;
  onPaymentDataChanged?: (change: google.payments.api.IntermediatePaymentData) => Promise<google.payments.api.PaymentDataRequestUpdate>;
}

/** Google's PaymentsClient as the widget uses it: every method Google's, its requests as the reference has them (above). */
export interface GooglePaymentsClient {
  isReadyToPay(request: google.payments.api.IsReadyToPayRequest): Promise<google.payments.api.IsReadyToPayResponse>;
  loadPaymentData(request: GooglePaymentDataRequest): Promise<google.payments.api.PaymentData>;
  prefetchPaymentData(request: GooglePaymentDataRequest): void;
  createButton(options: google.payments.api.ButtonOptions): HTMLElement;
}

export type GooglePaymentsClientConstructor = new (options: GooglePaymentOptions) => GooglePaymentsClient;
