/**
 * Google Pay's own rules for what a page hands its client (pay.js): the request objects of
 * developers.google.com/pay/api/web/reference/request-objects, as the sandbox wallet checks them
 * before it does anything, so that a request Google would refuse fails every test first.
 *
 * Each check carries the id of its row in docs/google-pay-rules.md (`[GP14]`), which names the
 * part of Google's reference it comes from; a refusal's message ends with it. Objects are loose:
 * Google's reference refuses wrong values, not fields it does not list, and a field this module
 * does not model (PayPal's parameters) is left to Google.
 *
 * Written with zod/mini, whose functions tree-shake, because the sandbox wallet's bundle carries it.
 */
import * as z from 'zod/mini';
import { BUTTON_LOCALES } from './google-button';
import { googleMerchantIdPattern } from './google-merchant-id';

type RuleId = `GP${number}`;
const says = (id: RuleId, text: string) => ({ error: `${text} [${id}]` });

/** GP14: TransactionInfo.totalPrice and DisplayItem.price, a whole number or exactly two decimals. */
export const GOOGLE_PRICE_PATTERN = /^[0-9]+(\.[0-9][0-9])?$/;
/** GP14: a DisplayItem's price may also be negative (a discount), as Google's reference allows. */
const DISPLAY_PRICE_PATTERN = /^-?[0-9]+(\.[0-9][0-9])?$/;

const oneOf = <const T extends readonly [string, ...string[]]>(id: RuleId, values: T) => z.enum(values, says(id, `must be one of ${values.join(', ')}`));
const flag = (id: RuleId) => z.optional(z.boolean(says(id, 'must be true or false')));
const text = (id: RuleId) => z.string(says(id, 'must be a string'));
const filled = (id: RuleId) => text(id).check(z.minLength(1, says(id, 'must not be empty')));
const price = (id: RuleId) => text(id).check(z.regex(GOOGLE_PRICE_PATTERN, says(id, 'must be a whole number or have exactly two decimals, as [0-9]+(\\.[0-9][0-9])? says')));
const displayPrice = (id: RuleId) => text(id).check(z.regex(DISPLAY_PRICE_PATTERN, says(id, 'must be a whole number or have exactly two decimals, negative or not, as -?[0-9]+(\\.[0-9][0-9])? says')));
const countryCode = (id: RuleId) => text(id).check(z.regex(/^[A-Z]{2}$/, says(id, 'must be an ISO 3166-1 alpha-2 code')));
const listOf = <T extends z.ZodMiniType>(id: RuleId, item: T, what: string) =>
  z.array(item, says(id, `must be a list of ${what}`)).check(z.minLength(1, says(id, `must name at least one ${what}`)));

const CARD_NETWORKS = ['AMEX', 'DISCOVER', 'ELECTRON', 'ELO', 'ELO_DEBIT', 'INTERAC', 'JCB', 'MAESTRO', 'MASTERCARD', 'VISA'] as const;
const CALLBACK_INTENTS = ['OFFER', 'PAYMENT_AUTHORIZATION', 'PAYMENT_METHOD', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'] as const;

/** GP7: networks Google offers only on another's rails, and only for transactions in Brazil. */
const BRAZIL_ONLY: Partial<Record<string, string>> = { ELECTRON: 'VISA', ELO: undefined, ELO_DEBIT: 'ELO', MAESTRO: 'MASTERCARD' };

const CardParameters = z
  .looseObject({
    allowedAuthMethods: listOf('GP5', oneOf('GP5', ['PAN_ONLY', 'CRYPTOGRAM_3DS']), 'auth method'),
    allowedCardNetworks: listOf('GP6', oneOf('GP6', CARD_NETWORKS), 'card network'),
    allowPrepaidCards: flag('GP8'),
    allowCreditCards: flag('GP8'),
    assuranceDetailsRequired: flag('GP8'),
    billingAddressRequired: flag('GP8'),
    cvcRequired: flag('GP8'),
    billingAddressParameters: z.optional(
      z.looseObject({ format: z.optional(oneOf('GP9', ['MIN', 'FULL', 'FULL-ISO3166'])), phoneNumberRequired: flag('GP9') }, says('GP9', 'must be an object')),
    ),
    allowedIssuerCountryCodes: z.optional(listOf('GP10', countryCode('GP10'), 'country code')),
    blockedIssuerCountryCodes: z.optional(listOf('GP10', countryCode('GP10'), 'country code')),
    cardNetworkParameters: z.optional(
      z.array(z.looseObject({ cardNetwork: oneOf('GP11', ['VISA', 'MASTERCARD']), acquirerBin: z.optional(text('GP11')), acquirerMerchantId: z.optional(text('GP11')) })),
    ),
  }, says('GP4', 'must be an object'))
  .check(
    z.superRefine((parameters, ctx) => {
      if (parameters.allowedIssuerCountryCodes && parameters.blockedIssuerCountryCodes) {
        ctx.addIssue({ code: 'custom', path: ['blockedIssuerCountryCodes'], message: 'cannot be set with allowedIssuerCountryCodes [GP10]', input: parameters });
      }
      for (const network of parameters.allowedCardNetworks) {
        const rail = BRAZIL_ONLY[network];
        if (rail && !(parameters.allowedCardNetworks as readonly string[]).includes(rail)) {
          ctx.addIssue({ code: 'custom', path: ['allowedCardNetworks'], message: `${network} needs ${rail} in the list too [GP7]`, input: parameters });
        }
      }
    }),
  );

const TokenizationSpecification = z.discriminatedUnion(
  'type',
  [
    z.looseObject({
      type: z.literal('PAYMENT_GATEWAY'),
      parameters: z
        .record(z.string(), text('GP13'), says('GP13', 'must be an object of strings'))
        .check(z.refine((parameters) => typeof parameters['gateway'] === 'string' && parameters['gateway'] !== '', says('GP13', 'gateway is required'))),
    }),
    z.looseObject({
      type: z.literal('DIRECT'),
      parameters: z.looseObject({ protocolVersion: z.literal('ECv2', says('GP13', 'protocolVersion must be ECv2')), publicKey: filled('GP13') }, says('GP13', 'must be an object')),
    }),
  ],
  says('GP12', 'must have type PAYMENT_GATEWAY or DIRECT'),
);

const paymentMethod = <T extends z.ZodMiniType>(tokenization: T) =>
  z.looseObject({ type: z.literal('CARD', says('GP4', 'the sandbox wallet offers CARD only; Google also knows PAYPAL')), parameters: CardParameters, tokenizationSpecification: tokenization });

const apiVersion = { apiVersion: z.literal(2, says('GP1', 'must be 2')), apiVersionMinor: z.literal(0, says('GP1', 'must be 0')) };

const DisplayItem = z.looseObject({
  label: filled('GP16'),
  type: oneOf('GP16', ['LINE_ITEM', 'SUBTOTAL', 'TAX', 'DISCOUNT', 'SHIPPING_OPTION']),
  price: displayPrice('GP14'),
  status: z.optional(oneOf('GP16', ['FINAL', 'PENDING'])),
});

const TransactionInfo = z
  .looseObject({
    currencyCode: text('GP15').check(z.regex(/^[A-Z]{3}$/, says('GP15', 'must be an ISO 4217 alphabetic code'))),
    countryCode: z.optional(countryCode('GP15')),
    transactionId: z.optional(text('GP15')),
    totalPriceStatus: oneOf('GP17', ['NOT_CURRENTLY_KNOWN', 'ESTIMATED', 'FINAL']),
    totalPrice: z.optional(price('GP14')),
    totalPriceLabel: z.optional(text('GP15')),
    transactionNote: z.optional(text('GP15')),
    checkoutOption: z.optional(oneOf('GP18', ['DEFAULT', 'COMPLETE_IMMEDIATE_PURCHASE', 'CONTINUE_TO_REVIEW'])),
    displayItems: z.optional(z.array(DisplayItem, says('GP16', 'must be a list'))),
  }, says('GP15', 'must be an object'))
  .check(
    z.superRefine((info, ctx) => {
      if (info.totalPriceStatus !== 'NOT_CURRENTLY_KNOWN' && info.totalPrice === undefined) {
        ctx.addIssue({ code: 'custom', path: ['totalPrice'], message: `is required when totalPriceStatus is ${info.totalPriceStatus} [GP14]`, input: info });
      }
      if (info.checkoutOption === 'COMPLETE_IMMEDIATE_PURCHASE' && info.totalPriceStatus !== 'FINAL') {
        ctx.addIssue({ code: 'custom', path: ['checkoutOption'], message: 'COMPLETE_IMMEDIATE_PURCHASE needs totalPriceStatus FINAL [GP18]', input: info });
      }
    }),
  );

/** GP30: an RFC 3339 date-time, as the merchant-initiated transactions' times are written ("2026-05-01T00:00:00Z"). */
const dateTime = (id: RuleId) =>
  text(id).check(
    z.refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value) && !Number.isNaN(Date.parse(value)), says(id, 'must be an RFC 3339 date-time')),
  );
/** GP30: tokenUpdateUrl and managementUrl, https with no trailing slash, parameters or fragment. */
const merchantUrl = (id: RuleId) =>
  text(id).check(z.refine((value) => /^https:\/\/[^/?#\s]+(\/[^?#\s]*[^/?#\s])?$/.test(value) && parsesAsUrl(value), says(id, 'must be an https URL with no trailing slash, parameters or fragment')));

function parsesAsUrl(value: string): boolean {
  try {
    return Boolean(new URL(value));
  } catch {
    return false;
  }
}
/** GP30-GP33: a label of a future transaction, at most 100 characters. */
const shortLabel = (id: RuleId) => filled(id).check(z.maxLength(100, says(id, 'must be at most 100 characters')));

/**
 * GP30: what the three merchant-initiated transaction objects share. `immediateTotalPrice` is what is
 * charged today, and may be "0.00" (a free trial, a card kept with nothing charged): unlike a
 * transactionInfo's total, the reference says so of these objects.
 */
const futureTransaction = {
  currencyCode: text('GP30').check(z.regex(/^[A-Z]{3}$/, says('GP30', 'must be an ISO 4217 alphabetic code'))),
  countryCode: countryCode('GP30'),
  transactionId: z.optional(text('GP30')),
  tokenUpdateUrl: z.optional(merchantUrl('GP30')),
  managementUrl: z.optional(merchantUrl('GP30')),
  billingAgreement: z.optional(text('GP30').check(z.maxLength(300, says('GP30', 'must be at most 300 characters')))),
  immediateTotalPrice: price('GP30'),
  immediateDisplayItems: z.optional(z.array(DisplayItem, says('GP30', 'must be a list'))),
};

/** GP31-GP32: a price for a status, present when FINAL or ESTIMATED, absent or null when NOT_CURRENTLY_KNOWN. */
function pricedAsItsStatus(id: RuleId, item: { priceStatus: string; price?: string | null | undefined }, ctx: z.core.$RefinementCtx<unknown>): void {
  const known = item.priceStatus !== 'NOT_CURRENTLY_KNOWN';
  if (known && (item.price === undefined || item.price === null)) ctx.addIssue({ code: 'custom', path: ['price'], message: `is required when priceStatus is ${item.priceStatus} [${id}]`, input: item });
  if (!known && item.price !== undefined && item.price !== null) ctx.addIssue({ code: 'custom', path: ['price'], message: `must be null when priceStatus is NOT_CURRENTLY_KNOWN [${id}]`, input: item });
}

const IntroductoryPeriodInfo = z
  .looseObject({
    introductoryPeriodStartDateTime: z.optional(dateTime('GP31')),
    introductoryPeriodEndDateTime: dateTime('GP31'),
    label: shortLabel('GP31'),
    totalPrice: price('GP31'),
    displayItems: z.optional(z.array(DisplayItem, says('GP31', 'must be a list'))),
  }, says('GP31', 'must be an object'))
  .check(
    z.superRefine((info, ctx) => {
      if (info.introductoryPeriodStartDateTime !== undefined && Date.parse(info.introductoryPeriodStartDateTime) >= Date.parse(info.introductoryPeriodEndDateTime)) {
        ctx.addIssue({ code: 'custom', path: ['introductoryPeriodStartDateTime'], message: 'must be before introductoryPeriodEndDateTime [GP31]', input: info });
      }
    }),
  );

const RecurrencePeriodItem = z
  .looseObject({
    billingInitialDateTime: z.optional(dateTime('GP31')),
    billingFinalDateTime: z.optional(z.nullable(dateTime('GP31'))),
    label: shortLabel('GP31'),
    priceStatus: oneOf('GP31', ['NOT_CURRENTLY_KNOWN', 'ESTIMATED', 'FINAL']),
    recurrencePeriod: oneOf('GP31', ['YEAR', 'MONTH', 'WEEK', 'DAY']),
    recurrencePeriodCount: z.number(says('GP31', 'must be a positive integer')).check(z.int(says('GP31', 'must be a positive integer')), z.positive(says('GP31', 'must be a positive integer'))),
    price: z.optional(z.nullable(price('GP31'))),
    displayItems: z.optional(z.array(DisplayItem, says('GP31', 'must be a list'))),
  }, says('GP31', 'must be an object'))
  .check(z.superRefine((item, ctx) => pricedAsItsStatus('GP31', item, ctx)));

const RecurringTransactionInfo = z
  .looseObject({ ...futureTransaction, introductoryPeriodInfo: z.optional(IntroductoryPeriodInfo), recurrenceItems: listOf('GP31', RecurrencePeriodItem, 'recurrence period') }, says('GP30', 'must be an object'))
  .check(
    z.superRefine((info, ctx) => {
      const introEnd = info.introductoryPeriodInfo?.introductoryPeriodEndDateTime;
      if (introEnd === undefined) return;
      info.recurrenceItems.forEach((item, index) => {
        if (item.billingInitialDateTime === undefined || Date.parse(item.billingInitialDateTime) < Date.parse(introEnd)) {
          ctx.addIssue({ code: 'custom', path: ['recurrenceItems', index, 'billingInitialDateTime'], message: 'is required with an introductoryPeriodInfo, at or after its introductoryPeriodEndDateTime [GP31]', input: info });
        }
      });
    }),
  );

const DeferredTransactionInfo = z
  .looseObject({
    ...futureTransaction,
    billingDateTime: dateTime('GP32'),
    priceStatus: oneOf('GP32', ['NOT_CURRENTLY_KNOWN', 'ESTIMATED', 'FINAL']),
    label: shortLabel('GP32'),
    price: z.optional(z.nullable(price('GP32'))),
    displayItems: z.optional(z.array(DisplayItem, says('GP32', 'must be a list'))),
  }, says('GP30', 'must be an object'))
  .check(
    z.superRefine((info, ctx) => {
      pricedAsItsStatus('GP32', info, ctx);
      if (Date.parse(info.billingDateTime) <= Date.now()) ctx.addIssue({ code: 'custom', path: ['billingDateTime'], message: 'must be in the future [GP32]', input: info });
    }),
  );

const AutomaticReloadTransactionInfo = z
  .looseObject({
    ...futureTransaction,
    minimumBalanceAmount: price('GP33'),
    reloadAmount: price('GP33').check(z.refine((amount) => Number(amount) > 0, says('GP33', 'must not be zero'))),
    label: shortLabel('GP33'),
  }, says('GP30', 'must be an object'));

/** GP21 in the request, GP28 in an update: the shipping options as Google lists them. */
const shippingOptionParameters = (id: RuleId) =>
  z
    .looseObject({
      shippingOptions: listOf(id, z.looseObject({ id: filled(id), label: filled(id), description: z.optional(text(id)) }), 'shipping option'),
      defaultSelectedOptionId: z.optional(text(id)),
    }, says(id, 'must be an object'))
    .check(
      z.superRefine((parameters, ctx) => {
        const ids = parameters.shippingOptions.map((option) => option.id);
        if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['shippingOptions'], message: `ids must be unique [${id}]`, input: parameters });
        if (parameters.defaultSelectedOptionId !== undefined && !ids.includes(parameters.defaultSelectedOptionId)) {
          ctx.addIssue({ code: 'custom', path: ['defaultSelectedOptionId'], message: `must be the id of one of shippingOptions [${id}]`, input: parameters });
        }
      }),
    );

/** GP22 in the request, GP29 in an update. */
const offerInfo = (id: RuleId) =>
  z.looseObject({
    offers: z.array(
      z.looseObject({ redemptionCode: filled(id), description: filled(id).check(z.maxLength(59, says(id, 'must be shorter than 60 characters'))) }),
      says(id, 'must be a list'),
    ),
  }, says(id, 'must be an object'));

const MerchantInfo = z
  .looseObject({
    merchantId: z.optional(text('GP3').check(z.regex(googleMerchantIdPattern, says('GP3', 'is not a merchant id issued by Google')))),
    merchantName: z.optional(text('GP2')),
    merchantOrigin: z.optional(text('GP2')),
    authJwt: z.optional(text('GP2')),
    softwareInfo: z.optional(z.looseObject({ id: z.optional(text('GP2')), version: z.optional(text('GP2')) })),
  }, says('GP2', 'is required'))
  .check(z.refine((info) => info.authJwt === undefined || info.merchantOrigin !== undefined, { ...says('GP2', 'authJwt needs merchantOrigin, the site it vouches for'), path: ['merchantOrigin'] }));

const PaymentDataRequest = z.looseObject({
  ...apiVersion,
  merchantInfo: MerchantInfo,
  // GP12: required here, optional in isReadyToPay's and the button's methods.
  allowedPaymentMethods: listOf('GP4', paymentMethod(TokenizationSpecification), 'payment method'),
  transactionInfo: z.optional(TransactionInfo),
  recurringTransactionInfo: z.optional(RecurringTransactionInfo),
  deferredTransactionInfo: z.optional(DeferredTransactionInfo),
  automaticReloadTransactionInfo: z.optional(AutomaticReloadTransactionInfo),
  emailRequired: flag('GP19'),
  shippingAddressRequired: flag('GP19'),
  shippingAddressParameters: z.optional(
    z.looseObject({
      allowedCountryCodes: z.optional(listOf('GP19', countryCode('GP19'), 'country code')),
      phoneNumberRequired: flag('GP19'),
      format: z.optional(oneOf('GP19', ['FULL', 'FULL-ISO3166'])),
    }),
  ),
  shippingOptionRequired: flag('GP21'),
  shippingOptionParameters: z.optional(shippingOptionParameters('GP21')),
  offerInfo: z.optional(offerInfo('GP22')),
  callbackIntents: z.optional(z.array(oneOf('GP20', CALLBACK_INTENTS), says('GP20', 'must be a list'))),
});

const IsReadyToPayRequest = z.looseObject({
  ...apiVersion,
  allowedPaymentMethods: listOf('GP4', paymentMethod(z.optional(TokenizationSpecification)), 'payment method'),
  existingPaymentMethodRequired: flag('GP23'),
});

/**
 * A button option left unset: absent, or null, which is what Google's own button element
 * (@google-pay/button-element) passes for each attribute a page did not set.
 */
const unset = <T extends z.ZodMiniType>(option: T) => z.optional(z.nullable(option));

const ButtonOptions = z.looseObject({
  onClick: z.custom<(event: Event) => void>((value) => typeof value === 'function', says('GP24', 'onClick must be a function')),
  buttonColor: unset(oneOf('GP24', ['default', 'black', 'white'])),
  buttonType: unset(oneOf('GP24', ['book', 'buy', 'checkout', 'donate', 'order', 'pay', 'plain', 'subscribe', 'long', 'short'])),
  buttonRadius: unset(z.number(says('GP24', 'must be a number of pixels')).check(z.gte(0, says('GP24', 'must be 0 or more')))),
  buttonSizeMode: unset(oneOf('GP24', ['static', 'fill'])),
  buttonBorderType: unset(oneOf('GP24', ['default_border', 'no_border'])),
  buttonLocale: unset(text('GP24').check(z.refine((locale) => BUTTON_LOCALES.includes(locale), says('GP24', `must be one of ${BUTTON_LOCALES.join(', ')}`)))),
  buttonRootNode: z.optional(z.custom((value) => typeof value === 'object' && value !== null, says('GP24', 'must be a Document or a ShadowRoot'))),
  allowedPaymentMethods: z.optional(listOf('GP24', paymentMethod(z.optional(TokenizationSpecification)), 'payment method')),
});

const PaymentDataError = z.looseObject({
  reason: oneOf('GP25', ['SHIPPING_ADDRESS_INVALID', 'SHIPPING_ADDRESS_UNSERVICEABLE', 'SHIPPING_OPTION_INVALID', 'OFFER_INVALID', 'PAYMENT_DATA_INVALID', 'OTHER_ERROR']),
  intent: oneOf('GP25', CALLBACK_INTENTS),
  message: filled('GP25'),
});

/** What onPaymentDataChanged resolves to: only the parts that changed, each a whole new value. */
const PaymentDataRequestUpdate = z.looseObject(
  {
    newTransactionInfo: z.optional(TransactionInfo),
    newShippingOptionParameters: z.optional(shippingOptionParameters('GP28')),
    newOfferInfo: z.optional(offerInfo('GP29')),
    error: z.optional(PaymentDataError),
  },
  says('GP26', 'onPaymentDataChanged must resolve to a PaymentDataRequestUpdate object'),
);

const PaymentAuthorizationResult = z.looseObject(
  { transactionState: oneOf('GP25', ['SUCCESS', 'ERROR']), error: z.optional(PaymentDataError) },
  says('GP25', 'onPaymentAuthorized must resolve to a PaymentAuthorizationResult object'),
);

/** The value as the schema reads it, or the first thing wrong with it as Google's client says it: the field's path and the rule. */
function read<T>(schema: z.ZodMiniType<T>, value: unknown, whole: string): { value: T } | { problem: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { value: parsed.data };
  const [issue] = parsed.error.issues;
  return { problem: `${issue?.path.map(String).join('.') || whole}: ${issue?.message ?? 'is invalid'}` };
}

const firstProblem = (schema: z.ZodMiniType, value: unknown, whole: string): string | undefined => {
  const checked = read(schema, value, whole);
  return 'problem' in checked ? checked.problem : undefined;
};

/** Which of paymentDataCallbacks the client was constructed with. */
export interface GivenCallbacks {
  onPaymentAuthorized: boolean;
  onPaymentDataChanged: boolean;
}

/** What the client knows besides the request: its environment and its callbacks. */
export interface GoogleClientContext {
  environment: string;
  callbacks: GivenCallbacks;
}

/** loadPaymentData's request: a DEVELOPER_ERROR message, or undefined when Google would take it. */
export function paymentDataRequestProblem(request: unknown, context: GoogleClientContext): string | undefined {
  const checked = read(PaymentDataRequest, request, '(request)');
  if ('problem' in checked) return checked.problem;
  const r = checked.value;
  const transactions = [r.transactionInfo, r.recurringTransactionInfo, r.deferredTransactionInfo, r.automaticReloadTransactionInfo].filter((info) => info !== undefined);
  if (transactions.length !== 1) return 'transactionInfo: exactly one of transactionInfo, recurringTransactionInfo, deferredTransactionInfo and automaticReloadTransactionInfo is required [GP15]';
  const country = transactions[0]?.countryCode;
  for (const method of r.allowedPaymentMethods) {
    const brazilOnly = method.parameters.allowedCardNetworks.find((network) => network in BRAZIL_ONLY);
    if (brazilOnly && country !== 'BR') return `allowedPaymentMethods.parameters.allowedCardNetworks: ${brazilOnly} is offered only when transactionInfo.countryCode is BR [GP7]`;
  }
  const merchantId = r.merchantInfo.merchantId;
  if (merchantId === undefined && context.environment === 'PRODUCTION') return 'merchantInfo.merchantId: is required in PRODUCTION [GP3]';
  if (merchantId === undefined && r.allowedPaymentMethods.some((method) => method.tokenizationSpecification.type === 'DIRECT')) {
    return 'merchantInfo.merchantId: is required for DIRECT tokenization [GP13]';
  }
  const intents = r.callbackIntents ?? [];
  if (intents.includes('PAYMENT_AUTHORIZATION') && !context.callbacks.onPaymentAuthorized) return 'callbackIntents: PAYMENT_AUTHORIZATION needs paymentDataCallbacks.onPaymentAuthorized [GP20]';
  const changing = intents.find((intent) => intent !== 'PAYMENT_AUTHORIZATION');
  if (changing && !context.callbacks.onPaymentDataChanged) return `callbackIntents: ${changing} needs paymentDataCallbacks.onPaymentDataChanged [GP20]`;
  if (intents.includes('SHIPPING_OPTION') && r.shippingOptionRequired !== true) return 'callbackIntents: SHIPPING_OPTION needs shippingOptionRequired true [GP20]';
  if (r.shippingOptionParameters && r.shippingOptionRequired !== true) return 'shippingOptionParameters: is set only with shippingOptionRequired true [GP21]';
  return undefined;
}

/** isReadyToPay's request. */
export const isReadyToPayRequestProblem = (request: unknown): string | undefined => firstProblem(IsReadyToPayRequest, request, '(request)');

/** createButton's options. */
export const buttonOptionsProblem = (options: unknown): string | undefined => firstProblem(ButtonOptions, options, '(options)');

/** What onPaymentAuthorized resolved to, for the request whose sheet it answers: an error's intent must be one the request declared. */
export function authorizationResultProblem(result: unknown, request: { callbackIntents?: readonly string[] | undefined }): string | undefined {
  const checked = read(PaymentAuthorizationResult, result, '(result)');
  if ('problem' in checked) return checked.problem;
  const intent = checked.value.error?.intent;
  if (intent !== undefined && !(request.callbackIntents ?? []).includes(intent)) return `error.intent: ${intent} is not one of the request's callbackIntents [GP25]`;
  return undefined;
}

/** The parts of transactionInfo an update may change (Google's PaymentDataRequestUpdate.newTransactionInfo); the others stay the request's. */
const UPDATABLE_TRANSACTION_FIELDS = ['totalPrice', 'totalPriceStatus', 'transactionNote', 'displayItems'];

/** The intents that call onPaymentDataChanged; PAYMENT_AUTHORIZATION calls onPaymentAuthorized. */
export const CHANGE_INTENTS: readonly string[] = CALLBACK_INTENTS.filter((intent) => intent !== 'PAYMENT_AUTHORIZATION');

interface UpdatedRequest {
  callbackIntents?: readonly string[] | undefined;
  transactionInfo?: object | undefined;
}

/** What onPaymentDataChanged resolved to, for the request whose sheet it answers: each part for an intent the request declared. */
export function paymentDataRequestUpdateProblem(update: unknown, request: UpdatedRequest): string | undefined {
  const checked = read(PaymentDataRequestUpdate, update, '(update)');
  if ('problem' in checked) return checked.problem;
  const { newTransactionInfo, newShippingOptionParameters, newOfferInfo, error } = checked.value;
  const declared = request.callbackIntents ?? [];
  if (newShippingOptionParameters && !declared.includes('SHIPPING_OPTION')) return 'newShippingOptionParameters: needs SHIPPING_OPTION in callbackIntents [GP27]';
  if (newOfferInfo && !declared.includes('OFFER')) return 'newOfferInfo: needs OFFER in callbackIntents [GP27]';
  if (error && !(declared.includes(error.intent) && CHANGE_INTENTS.includes(error.intent))) {
    return `error.intent: ${error.intent} is not one of the request's callbackIntents that call onPaymentDataChanged [GP27]`;
  }
  const original: Record<string, unknown> = { ...request.transactionInfo };
  const fixed = Object.keys({ ...original, ...newTransactionInfo }).find(
    (field) => newTransactionInfo && !UPDATABLE_TRANSACTION_FIELDS.includes(field) && field in newTransactionInfo && newTransactionInfo[field] !== original[field],
  );
  if (fixed) return `newTransactionInfo.${fixed}: only totalPrice, totalPriceStatus, transactionNote and displayItems may change [GP26]`;
  return undefined;
}
