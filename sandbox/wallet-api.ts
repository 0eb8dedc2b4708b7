/**
 * The sandbox wallet's server side: it plays Google, turning a test card and a
 * PaymentDataRequest into the PaymentData the real wallet would return, with a
 * real ECv2 token signed by the sandbox root. Called from shoppers' browsers
 * on any origin, hence CORS for everyone and no credentials.
 */
import { googleMerchantIdPattern } from '../contracts/google-merchant-id';
import { randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import cors from 'cors';
import express from 'express';
import type { Router } from 'express';
import { z } from 'zod';
import { MerchantInfo, WalletTokenRequest } from '../contracts';
import type { DecryptedMessage, PaymentData, RootSigningKey, WalletAddress, WalletCardsReply } from '../contracts';
import { err, ok } from '../common/result';
import type { Result } from '../common/result';
import { createIntermediateSigningKey, importUncompressedPoint, sealToken } from '../common/ecv2';
import type { IntermediateSigningKey } from '../common/ecv2';
import { clientErrors, describeIssues, httpError, sendError } from '../common/http/errors';
import { bodyEdge, type BodyRules, KB } from '../common/http/body';
import type { HttpError } from '../common/http/errors';
import type { SandboxKeys } from './keys';
import { walletBillingAddresses } from './billing-addresses';
import { walletShippingAddresses } from './shipping-addresses';
import { allowedShippingAddresses } from '../contracts/shipping-countries';
import { cardDescription, walletCards } from './test-cards';
import { checkPlatformRequest, type RegisteredPlatform } from './platform-check';
import type { GoogleMinAddress, GooglePaymentData } from '../contracts/google-pay-types';

export interface WalletApiContext {
  keys: SandboxKeys;
  gatewayName: string;
  rootKeys: RootSigningKey[];
  now: () => number;
  /** The platform registered with "Google" (the sandbox wallet); absent: every platform request is refused. */
  platform: RegisteredPlatform | undefined;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERMEDIATE_LIFETIME = 7 * DAY;
/** Renewed this long before it expires, so no token is minted that would expire in flight. */
const INTERMEDIATE_RENEWAL_MARGIN = DAY;
const MESSAGE_LIFETIME = HOUR;
/** Wallet cards stay this many years from expiring, so only the expired-card test card ever is. */
const CARD_VALIDITY_YEARS = 5;

/** The sheet, as it opens: may this merchant ask for a payment on this page? */
const SheetRequest = z.strictObject({
  merchant_info: MerchantInfo,
  /** The top-level page's origin, as the wallet's script sees it. */
  page_origin: z.string().max(2048),
});


/** The shopper's e-mail, when the request asks for it (`emailRequired`): fictional, as every sandbox shopper's detail. */
const SANDBOX_SHOPPER_EMAIL = 'shopper@sandbox.example';

/**
 * The billing address as Google returns it (its Address and BillingAddressFormat): only when asked;
 * MIN (Google's default) the name, country and postal code; FULL every field, blank where the address
 * has none; the phone only when asked.
 */
function billingAddressFor(
  chosen: WalletAddress,
  parameters: WalletTokenRequest['payment_data_request']['allowedPaymentMethods'][number]['parameters'],
): (WalletAddress & (google.payments.api.Address | GoogleMinAddress)) | undefined {
  if (!parameters.billingAddressRequired) return undefined;
  const { name, countryCode, postalCode = '', phoneNumber } = chosen;
  const withPhone = parameters.billingAddressParameters?.phoneNumberRequired && phoneNumber !== undefined ? { phoneNumber } : {};
  if (parameters.billingAddressParameters?.format !== 'FULL') return { ...(name !== undefined && { name }), countryCode, postalCode, ...withPhone };
  return fullAddress(chosen, parameters.billingAddressParameters.phoneNumberRequired);
}

/** An address as Google gives it in format FULL: every field, blank where the address has none; the phone only when asked. */
function fullAddress(chosen: WalletAddress, phoneNumberRequired: boolean | undefined): WalletAddress & google.payments.api.Address {
  const { name, countryCode, postalCode = '', phoneNumber, address1 = '', address2 = '', address3 = '', locality = '', administrativeArea = '', sortingCode = '' } = chosen;
  const withPhone = phoneNumberRequired && phoneNumber !== undefined ? { phoneNumber } : {};
  return { ...(name !== undefined && { name }), address1, address2, address3, locality, administrativeArea, postalCode, sortingCode, countryCode, ...withPhone };
}

/**
 * What an express checkout asked for, as Google gives it once the shopper paid: the full shipping
 * address (the callbacks saw it redacted), with its phone only when asked; the option chosen; the
 * offers applied.
 */
function expressDataFor(request: WalletTokenRequest): Result<Pick<GooglePaymentData, 'shippingAddress' | 'shippingOptionData' | 'offerData'> & Pick<PaymentData, 'shippingAddress'>, HttpError> {
  const paymentRequest = request.payment_data_request;
  let shippingAddress: (WalletAddress & google.payments.api.Address) | undefined;
  if (paymentRequest.shippingAddressRequired) {
    const allowed = allowedShippingAddresses(walletShippingAddresses, paymentRequest.shippingAddressParameters?.allowedCountryCodes);
    const chosen = request.shipping_address_id === undefined ? allowed[0] : allowed.find((candidate) => candidate.id === request.shipping_address_id);
    if (!chosen) return err(httpError(400, 'unknown_shipping_address', "shipping_address_id is not one of GET /sandbox/wallet/cards' shipping_addresses that the request's allowedCountryCodes allow"));
    shippingAddress = fullAddress(chosen.address, paymentRequest.shippingAddressParameters?.phoneNumberRequired);
  }
  if (paymentRequest.shippingOptionRequired && request.shipping_option_id === undefined) {
    return err(httpError(400, 'shipping_option_required', 'shipping_option_id is required when the request has shippingOptionRequired'));
  }
  const offers = paymentRequest.callbackIntents?.includes('OFFER');
  return ok({
    ...(shippingAddress && { shippingAddress }),
    ...(paymentRequest.shippingOptionRequired && request.shipping_option_id !== undefined && { shippingOptionData: { id: request.shipping_option_id } }),
    ...(offers && { offerData: { redemptionCodes: request.redemption_codes ?? [] } }),
  });
}

function mintPaymentData(
  ctx: WalletApiContext,
  intermediate: IntermediateSigningKey,
  request: WalletTokenRequest,
): Result<PaymentData, HttpError> {
  const card = walletCards.find((candidate) => candidate.id === request.card_id);
  if (!card) return err(httpError(400, 'unknown_card', 'card_id is not one of GET /sandbox/wallet/cards'));
  const chosenAddress = request.billing_address_id === undefined ? walletBillingAddresses[0] : walletBillingAddresses.find((candidate) => candidate.id === request.billing_address_id);
  if (!chosenAddress) return err(httpError(400, 'unknown_billing_address', 'billing_address_id is not one of GET /sandbox/wallet/cards\' billing_addresses'));
  const paymentRequest = request.payment_data_request;
  const method = paymentRequest.allowedPaymentMethods[0];
  if (!method) return err(httpError(400, 'invalid_request', 'allowedPaymentMethods is empty'));
  if (!method.parameters.allowedCardNetworks.includes(card.network)) {
    return err(httpError(400, 'card_network_not_allowed', `the request does not allow ${card.network} cards`));
  }
  if (!method.parameters.allowedAuthMethods.includes(card.auth_method)) {
    return err(httpError(400, 'auth_method_not_allowed', `the request does not allow ${card.auth_method}`));
  }

  const express = expressDataFor(request);
  if (!express.ok) return express;

  const spec = method.tokenizationSpecification;
  let recipient: { id: string; publicKey: KeyObject; gatewayMerchantId?: string };
  if (spec.type === 'PAYMENT_GATEWAY') {
    if (spec.parameters.gateway !== ctx.gatewayName) {
      return err(httpError(400, 'unknown_gateway', `the sandbox wallet tokenizes only for gateway "${ctx.gatewayName}"`));
    }
    recipient = { id: `gateway:${ctx.gatewayName}`, publicKey: ctx.keys.gatewayPublicKey, gatewayMerchantId: spec.parameters.gatewayMerchantId };
  } else {
    const merchantId = paymentRequest.merchantInfo.merchantId;
    if (!merchantId) return err(httpError(400, 'merchant_id_required', 'DIRECT tokenization needs merchantInfo.merchantId'));
    if (!googleMerchantIdPattern.test(merchantId)) return err(httpError(400, 'invalid_merchant_id', 'merchantInfo.merchantId is not a merchant id issued by Google'));
    const publicKey = importUncompressedPoint(Buffer.from(spec.parameters.publicKey, 'base64'));
    if (!publicKey) return err(httpError(400, 'invalid_public_key', 'parameters.publicKey is not a base64 uncompressed P-256 point'));
    recipient = { id: `merchant:${merchantId}`, publicKey };
  }

  const now = ctx.now();
  const message: DecryptedMessage = {
    ...(recipient.gatewayMerchantId === undefined ? {} : { gatewayMerchantId: recipient.gatewayMerchantId }),
    messageExpiration: String(now + MESSAGE_LIFETIME),
    messageId: randomBytes(24).toString('base64url'),
    paymentMethod: 'CARD',
    paymentMethodDetails: {
      pan: card.number,
      expirationMonth: 12,
      expirationYear: new Date(now).getUTCFullYear() + CARD_VALIDITY_YEARS,
      authMethod: card.auth_method,
      ...(card.auth_method === 'CRYPTOGRAM_3DS'
        ? { cryptogram: randomBytes(20).toString('base64'), ...(card.eciIndicator && { eciIndicator: card.eciIndicator }) }
        : {}),
    },
  };
  const token = sealToken(message, { recipientId: recipient.id, recipientPublicKey: recipient.publicKey, intermediate });
  const billingAddress = billingAddressFor(chosenAddress.address, method.parameters);
  const paymentData = {
    apiVersion: 2 as const,
    apiVersionMinor: 0 as const,
    ...(paymentRequest.emailRequired && { email: SANDBOX_SHOPPER_EMAIL }),
    paymentMethodData: {
      type: 'CARD',
      description: cardDescription(card.network, card.last4),
      info: {
        cardNetwork: card.network,
        cardDetails: card.last4,
        // As Google says of its own: a device token's holder was authenticated on the device; a card on file's was not.
        ...(method.parameters.assuranceDetailsRequired && { assuranceDetails: { accountVerified: true, cardHolderAuthenticated: card.auth_method === 'CRYPTOGRAM_3DS' } }),
        ...(billingAddress ? { billingAddress } : {}),
      },
      tokenizationData: { type: spec.type, token: JSON.stringify(token) },
    },
    ...express.value,
  } satisfies GooglePaymentData;
  return ok(paymentData);
}

/** The bodies the wallet's routes take, read at the edge of its router (common/http/body.ts); the others take none. */
export const walletBodies = {
  'POST /sheets': { body: 'required', limit: 16 * KB },
  'POST /tokens': { body: 'required', limit: 64 * KB },
} as const satisfies BodyRules;

export function walletRouter(ctx: WalletApiContext): Router {
  const router = express.Router();
  router.use(cors({ origin: '*', methods: ['GET', 'POST'], allowedHeaders: ['Content-Type'], maxAge: 600 }));
  // After CORS: a page reads the refusal of a body it should not have sent.
  router.use(bodyEdge(walletBodies));

  let intermediateExpiresAt = 0;
  const newIntermediate = () => {
    intermediateExpiresAt = ctx.now() + INTERMEDIATE_LIFETIME;
    return createIntermediateSigningKey(ctx.keys.root.privateKey, intermediateExpiresAt);
  };
  let intermediate = newIntermediate();
  const currentIntermediate = () => {
    if (ctx.now() >= intermediateExpiresAt - INTERMEDIATE_RENEWAL_MARGIN) intermediate = newIntermediate();
    return intermediate;
  };

  router.get('/cards', (_req, res) => {
    const reply: WalletCardsReply = {
      cards: walletCards.map(({ id, label, network, last4, auth_method, outcome, three_ds, group }) => ({ id, label, network, last4, auth_method, outcome, three_ds, group })),
      billing_addresses: [...walletBillingAddresses],
      shipping_addresses: [...walletShippingAddresses],
    };
    res.json(reply);
  });

  router.get('/root-keys.json', (_req, res) => {
    res.json({ keys: ctx.rootKeys });
  });

  router.post('/sheets', async (req, res) => {
    const parsed = SheetRequest.safeParse(req.body);
    if (!parsed.success) return sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));
    const checked = await checkPlatformRequest(ctx.platform, parsed.data.merchant_info, parsed.data.page_origin, ctx.now);
    if (!checked.ok) return sendError(res, httpError(403, checked.error.code, checked.error.message));
    res.json({ open: true });
  });

  router.post('/tokens', (req, res) => {
    const parsed = WalletTokenRequest.safeParse(req.body);
    if (!parsed.success) return sendError(res, httpError(400, 'invalid_request', describeIssues(parsed.error)));
    const minted = mintPaymentData(ctx, currentIntermediate(), parsed.data);
    if (!minted.ok) return sendError(res, minted.error);
    res.json({ payment_data: minted.value });
  });

  router.use(clientErrors);
  return router;
}
