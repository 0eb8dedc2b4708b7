/**
 * The bodies of the sandbox wallet's calls to its server, as it sends them: written by the widget's
 * serializer (common/browser/builtins.ts), which reads no `toJSON` of the page's. Under Prototype.js
 * 1.6, JSON.stringify sent `allowedPaymentMethods` as a string of JSON, the server refused the
 * request, and the sheet failed with INTERNAL_ERROR.
 */
import type { PaymentDataRequest } from '../../contracts';
import { toJson } from '../../common/browser/builtins';

export type AnyRequest = Partial<PaymentDataRequest> & Record<string, unknown>;

/** `POST /sandbox/wallet/sheets`: the merchant, checked as the sheet opens, and the page it opens on. */
export const sheetBody = (request: AnyRequest, pageOrigin: string): string => toJson({ merchant_info: request.merchantInfo ?? {}, page_origin: pageOrigin });

/** The shopper's express checkout choices, as POST /sandbox/wallet/tokens names them (express.ts's expressChoices). */
export interface ExpressChoices { shipping_address_id?: string; shipping_option_id?: string; redemption_codes?: string[] }

/** `POST /sandbox/wallet/tokens`: the card and billing address chosen, any express checkout choices, and the request the merchant made. */
export const tokenBody = (cardId: string, billingAddressId: string | undefined, request: AnyRequest, choices: ExpressChoices = {}): string =>
  toJson({ card_id: cardId, ...(billingAddressId !== undefined && { billing_address_id: billingAddressId }), ...choices, payment_data_request: request });
