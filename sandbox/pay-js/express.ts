/**
 * The express checkout part of the sandbox wallet's sheet, as a pure core: what Google's sheet shows
 * (items, total, the shopper's shipping addresses, the delivery options, the offers), what it hands
 * `onPaymentDataChanged` and when, and what the merchant's PaymentDataRequestUpdate makes of it.
 * The DOM (express-view.ts) only draws a model and reports the shopper's changes.
 *
 * As Google's: the callback is called with INITIALIZE as the sheet opens and once per change of a
 * part whose intent the request declared; it sees the address redacted (country, area, locality, a
 * shortened postal code); only the reply to the latest change applies; Pay waits for it, and for
 * any error it carries to be answered by a new change.
 */
import type { WalletAddress, WalletShippingAddress } from '../../contracts';
import { CHANGE_INTENTS, paymentDataRequestUpdateProblem } from '../../contracts/google-pay-rules';
import { allowedShippingAddresses } from '../../contracts/shipping-countries';

export type Trigger = 'INITIALIZE' | 'SHIPPING_ADDRESS' | 'SHIPPING_OPTION' | 'OFFER';
export interface DisplayItem { label: string; type: string; price: string; status?: string }
export interface ShippingOption { id: string; label: string; description?: string }
export interface Offer { redemptionCode: string; description: string }
export interface SheetError { reason: string; intent: string; message: string }
export interface TransactionView { currencyCode: string; totalPrice?: string; totalPriceStatus: string; totalPriceLabel?: string; displayItems?: DisplayItem[] }

/** The parts of a PaymentDataRequest this core reads, as Google's rules (checked before the sheet opens) let them be. */
export interface ExpressRequest {
  callbackIntents?: readonly string[] | undefined;
  transactionInfo?: TransactionView | undefined;
  shippingAddressRequired?: boolean | undefined;
  shippingAddressParameters?: { allowedCountryCodes?: readonly string[] | undefined } | undefined;
  shippingOptionRequired?: boolean | undefined;
  shippingOptionParameters?: { shippingOptions: readonly ShippingOption[]; defaultSelectedOptionId?: string | undefined } | undefined;
  offerInfo?: { offers: readonly Offer[] } | undefined;
}

export interface ExpressModel {
  transaction: TransactionView;
  /** The shopper's addresses the request allows (allowedCountryCodes); empty when it asks for none. */
  addresses: readonly WalletShippingAddress[];
  addressId: string | undefined;
  options: readonly ShippingOption[];
  optionId: string | undefined;
  /** The offers applied: the request's, then the merchant's latest newOfferInfo. */
  offers: readonly Offer[];
  error: SheetError | undefined;
  /** The number of the change whose reply the sheet waits for. */
  pending: number | undefined;
  /** The number of the latest change. */
  changes: number;
}

/** What Google hands onPaymentDataChanged: the address redacted, never the street or the name. */
export interface IntermediatePaymentData {
  callbackTrigger: Trigger;
  paymentMethodData: { type: 'CARD'; info?: { cardNetwork: string; cardDetails: string } };
  shippingAddress?: { countryCode: string; administrativeArea: string; locality: string; postalCode: string };
  shippingOptionData?: { id: string };
  offerData?: { redemptionCodes: string[] };
}

export type Change = { trigger: 'INITIALIZE' } | { trigger: 'SHIPPING_ADDRESS'; addressId: string } | { trigger: 'SHIPPING_OPTION'; optionId: string } | { trigger: 'OFFER'; code: string };

/** The intents that call onPaymentDataChanged which the request declared. */
export const changeIntents = (request: ExpressRequest): string[] => (request.callbackIntents ?? []).filter((intent) => CHANGE_INTENTS.includes(intent));

export function expressModel(request: ExpressRequest, shippingAddresses: readonly WalletShippingAddress[]): ExpressModel {
  const addresses = request.shippingAddressRequired ? allowedShippingAddresses(shippingAddresses, request.shippingAddressParameters?.allowedCountryCodes) : [];
  const parameters = request.shippingOptionRequired ? request.shippingOptionParameters : undefined;
  return {
    transaction: { currencyCode: '', totalPriceStatus: 'NOT_CURRENTLY_KNOWN', ...request.transactionInfo },
    addresses,
    addressId: addresses[0]?.id,
    options: parameters?.shippingOptions ?? [],
    optionId: parameters ? chosenOption(parameters) : undefined,
    offers: request.offerInfo?.offers ?? [],
    error: undefined,
    pending: undefined,
    changes: 0,
  };
}

/** Google's choice among new options: the default named, else the first. */
function chosenOption(parameters: { shippingOptions: readonly ShippingOption[]; defaultSelectedOptionId?: string | undefined }): string | undefined {
  return parameters.defaultSelectedOptionId ?? parameters.shippingOptions[0]?.id;
}

/**
 * The postal code as Google hands it to the callbacks: for Canada and the United Kingdom the first
 * three characters, for the United States the five-digit ZIP, elsewhere as it is.
 */
export function redactedPostalCode(countryCode: string, postalCode: string): string {
  if (countryCode === 'CA' || countryCode === 'GB') return postalCode.replace(/\s/g, '').slice(0, 3);
  if (countryCode === 'US') return postalCode.slice(0, 5);
  return postalCode;
}

export function redactedAddress(address: WalletAddress): NonNullable<IntermediatePaymentData['shippingAddress']> {
  const { countryCode, administrativeArea = '', locality = '', postalCode = '' } = address;
  return { countryCode, administrativeArea, locality, postalCode: redactedPostalCode(countryCode, postalCode) };
}

/** Which intent a trigger answers; INITIALIZE answers them all, so its failure is shown against the first declared. */
const intentOf = (trigger: Trigger, request: ExpressRequest): string => (trigger === 'INITIALIZE' ? (changeIntents(request)[0] ?? 'SHIPPING_ADDRESS') : trigger);

/**
 * The shopper's change, applied to the sheet, and what the merchant is told of it: `data` is
 * undefined when the request declared no intent for that part (Google then calls nobody).
 */
export function change(model: ExpressModel, request: ExpressRequest, what: Change, card?: { cardNetwork: string; cardDetails: string }): { model: ExpressModel; data: IntermediatePaymentData | undefined } {
  const offers = what.trigger === 'OFFER' ? [...model.offers.map((offer) => offer.redemptionCode), what.code] : model.offers.map((offer) => offer.redemptionCode);
  const next: ExpressModel = {
    ...model,
    ...(what.trigger === 'SHIPPING_ADDRESS' && { addressId: what.addressId }),
    ...(what.trigger === 'SHIPPING_OPTION' && { optionId: what.optionId }),
  };
  const declared = changeIntents(request);
  if (what.trigger === 'INITIALIZE' ? declared.length === 0 : !declared.includes(what.trigger)) return { model: next, data: undefined };
  const address = next.addresses.find((choice) => choice.id === next.addressId)?.address;
  const data: IntermediatePaymentData = {
    callbackTrigger: what.trigger,
    paymentMethodData: { type: 'CARD', ...(card && { info: card }) },
    ...(address && { shippingAddress: redactedAddress(address) }),
    ...(next.optionId !== undefined && { shippingOptionData: { id: next.optionId } }),
    ...(declared.includes('OFFER') && { offerData: { redemptionCodes: offers } }),
  };
  const changes = model.changes + 1;
  return { model: { ...next, changes, pending: changes }, data };
}

export type Reply = { update: unknown } | { failed: 'rejected' | 'timed out' };

/** The shopper is told this when the merchant's callback throws, rejects or does not answer in time. */
export const MERCHANT_FAILED = 'The merchant could not update your order. Try again, or choose another option.';

/**
 * The merchant's reply to change number `changeNumber`: dropped when a newer change is pending,
 * a developer error (`problem`) when it breaks Google's rules, else the sheet redrawn from it.
 */
export function settle(model: ExpressModel, request: ExpressRequest, changeNumber: number, trigger: Trigger, reply: Reply): { model: ExpressModel } | { problem: string } {
  if (changeNumber !== model.pending) return { model };
  if ('failed' in reply) return { model: { ...model, pending: undefined, error: { reason: 'OTHER_ERROR', intent: intentOf(trigger, request), message: MERCHANT_FAILED } } };
  const problem = paymentDataRequestUpdateProblem(reply.update, request);
  if (problem) return { problem };
  const { newTransactionInfo, newShippingOptionParameters, newOfferInfo, error } = reply.update as {
    newTransactionInfo?: Partial<TransactionView>;
    newShippingOptionParameters?: { shippingOptions: ShippingOption[]; defaultSelectedOptionId?: string };
    newOfferInfo?: { offers: Offer[] };
    error?: SheetError;
  };
  return {
    model: {
      ...model,
      pending: undefined,
      error,
      transaction: newTransactionInfo ? { ...model.transaction, ...newTransactionInfo } : model.transaction,
      ...(newShippingOptionParameters && { options: newShippingOptionParameters.shippingOptions, optionId: chosenOption(newShippingOptionParameters) }),
      ...(newOfferInfo && { offers: newOfferInfo.offers }),
    },
  };
}

/**
 * onPaymentAuthorized's error, as Google's sheet shows it: one that names a part of the sheet (the
 * address, the option, the codes) stands against that part as a reply's error does, Pay disabled until
 * a change is answered without one; undefined for the payment's own (PAYMENT_AUTHORIZATION), which the
 * sheet shows beside Pay.
 */
export function authorizationRefused(model: ExpressModel, error: SheetError): ExpressModel | undefined {
  return errorPart(error) === 'sheet' ? undefined : { ...model, error };
}

/** Pay waits for the merchant's reply, for an error to be answered, and for every part the request asks for. */
export function mayPay(model: ExpressModel, request: ExpressRequest): boolean {
  if (model.pending !== undefined || model.error) return false;
  if (request.shippingAddressRequired && model.addressId === undefined) return false;
  if (request.shippingOptionRequired && model.optionId === undefined) return false;
  return true;
}

/** Which part of the sheet an error is shown against. */
export const errorPart = (error: SheetError): 'address' | 'option' | 'offer' | 'sheet' =>
  ({ SHIPPING_ADDRESS: 'address', SHIPPING_OPTION: 'option', OFFER: 'offer' } as const)[error.intent as 'OFFER'] ?? 'sheet';

/** What the sheet sends the wallet's server on Pay, so the PaymentData carries the shopper's choices. */
export const expressChoices = (model: ExpressModel, request: ExpressRequest) => ({
  ...(request.shippingAddressRequired && model.addressId !== undefined && { shipping_address_id: model.addressId }),
  ...(request.shippingOptionRequired && model.optionId !== undefined && { shipping_option_id: model.optionId }),
  ...(changeIntents(request).includes('OFFER') && { redemption_codes: model.offers.map((offer) => offer.redemptionCode) }),
});
