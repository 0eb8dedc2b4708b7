/**
 * Every request the server builds is one Google would take: for every currency a session accepts,
 * at several amounts, in every mode, each built request passes the sandbox wallet's Google rules
 * (contracts/google-pay-rules.ts, the checks the sandbox wallet runs before opening its sheet).
 * Before amounts were held to Google's two decimals, every KWD (BHD, IQD, ... UYW) request failed here.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../apps';
import type { ApiErrorBody, AskedContact, CreatedSession, LineItem, PayReply, WalletEnvironment } from '../../contracts';
import { exponentOf, googlePayRestrictedCurrencies, paymentCurrencyCodes } from '../../contracts/currency';
import { paymentDataRequestProblem, paymentDataRequestUpdateProblem } from '../../contracts/google-pay-rules';
import { startTestServer } from '../../testing/harness';
import { googlePayAmountRefusal } from './payment-request';
import { buildPaymentDataRequest, quotedTransactionInfo, type SavingTerms, type SessionAmount, shippingOptionParameters } from '../../contracts/payment-data-request';
import { createPlatformSigner } from './platform';
import { testApp } from '../../testing/apps';

const app = testApp();
/**
 * What the widget hands the wallet: the sandbox's client runs as TEST; it answers onPaymentAuthorized, and
 * onPaymentDataChanged when the request's intents call it (a session with delivery options: the relay).
 */
const clientOf = (environment: WalletEnvironment, request?: { callbackIntents?: readonly string[] }) => ({
  environment: environment === 'SANDBOX' ? 'TEST' : environment,
  callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: (request?.callbackIntents ?? []).some((intent) => intent !== 'PAYMENT_AUTHORIZATION') },
});
const AMOUNTS = [1, 5, 100, 1230, 1234, 123450, 99_999_999_990, 99_999_999_999];
const signer = createPlatformSigner({ googleMerchantId: 'BCR2DN4TPLATFORM', signingKey: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey }, () => 1_700_000_000_000);
const platform = await signer('https://shop.example');

const variants: [string, App, { directPublicKey?: string; platform?: typeof platform }][] = [
  ['gateway, both auth methods', app, {}],
  ['gateway, PAN_ONLY', { ...app, authMethods: ['PAN_ONLY'] }, {}],
  ['gateway, CRYPTOGRAM_3DS', { ...app, authMethods: ['CRYPTOGRAM_3DS'] }, {}],
  ['direct', { ...app, decryptionMode: 'direct' }, { directPublicKey: 'BPUBLICKEY' }],
  ['platform', { ...app, googlePayMode: 'platform' }, { platform }],
];

describe('every request the builder makes', () => {
  it.each(variants)('%s: Google takes it, for every currency and amount, in every environment', (_name, variant, context) => {
    const refused: string[] = [];
    let built = 0;
    for (const environment of ['SANDBOX', 'TEST', 'PRODUCTION'] as const) {
      for (const currency of paymentCurrencyCodes) {
        for (const amount of AMOUNTS) {
          // A session in an amount Google cannot show is refused at creation: no request is built for it.
          if (googlePayAmountRefusal(amount, currency)) continue;
          built += 1;
          const request = buildPaymentDataRequest(variant, { id: 'cs_1', amount, currency, countryCode: 'US' }, { gatewayName: 'walletcheckout', ...context });
          const problem = paymentDataRequestProblem(request, clientOf(environment));
          if (problem) refused.push(`${environment} ${currency} ${amount}: ${problem}`);
        }
      }
    }
    expect(refused).toEqual([]);
    // Not vacuous: every currency has amounts that are built, the restricted ones too.
    expect(built).toBeGreaterThan(3 * paymentCurrencyCodes.length * 4);
  });
});

describe('every request of a session that keeps the card (docs/saved-cards.md)', () => {
  const terms = (amount: number): SavingTerms[] => [
    { usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount }, reload: undefined, description: undefined, agreement: 'You allow Test Shop to charge this card every month.', setup: false },
    { usage: 'recurring', recurring: { interval: 'week', interval_count: 2, amount, label: 'Fortnightly box' }, reload: undefined, description: 'Coffee club', agreement: 'x'.repeat(301), setup: true },
    { usage: 'reload', recurring: undefined, reload: { threshold: 0, amount }, description: undefined, agreement: 'You allow Test Shop to top your card up.', setup: true },
    { usage: 'reload', recurring: undefined, reload: { threshold: amount, amount, label: 'Transit card' }, description: undefined, agreement: 'You allow Test Shop to top your card up.', setup: false },
    { usage: 'unscheduled', recurring: undefined, reload: undefined, description: undefined, agreement: 'You allow Test Shop to keep this card.', setup: false },
  ];

  it.each(variants)('%s: Google takes each use, charged now or set up with nothing charged, in every currency and environment', (_name, variant, context) => {
    const refused: string[] = [];
    const asked = new Set<string>();
    for (const environment of ['SANDBOX', 'TEST', 'PRODUCTION'] as const) {
      for (const currency of paymentCurrencyCodes) {
        for (const amount of AMOUNTS) {
          if (googlePayAmountRefusal(amount, currency)) continue;
          for (const saving of terms(amount)) {
            const request = buildPaymentDataRequest(variant, { id: 'cs_1', amount: saving.setup ? 0 : amount, currency, countryCode: 'US', saving }, { gatewayName: 'walletcheckout', ...context });
            const problem = paymentDataRequestProblem(request, clientOf(environment));
            if (problem) refused.push(`${environment} ${currency} ${amount} ${saving.usage}: ${problem}`);
            asked.add(Object.keys(request).find((key) => key.endsWith('ransactionInfo')) ?? '');
            // Never a transaction total of 0: a setup is asked with what is due today, 0.00.
            if (request.transactionInfo) expect(Number(request.transactionInfo.totalPrice)).toBeGreaterThan(0);
          }
        }
      }
    }
    expect(refused).toEqual([]);
    expect([...asked].sort()).toEqual(['automaticReloadTransactionInfo', 'recurringTransactionInfo', 'transactionInfo']);
  });

  it('asks for a setup with what is due today at 0.00, the terms at their price, and the agreement when Google takes its length', () => {
    const [monthly, long, reloadSetup] = terms(999);
    const recurring = buildPaymentDataRequest(app, { id: 'cs_1', amount: 999, currency: 'USD', countryCode: 'US', saving: monthly }, { gatewayName: 'walletcheckout' });
    expect(recurring.transactionInfo).toBeUndefined();
    expect(recurring.recurringTransactionInfo).toEqual({
      currencyCode: 'USD',
      countryCode: 'US',
      transactionId: 'cs_1',
      billingAgreement: monthly?.agreement,
      immediateTotalPrice: '9.99',
      recurrenceItems: [{ label: 'Subscription', priceStatus: 'FINAL', recurrencePeriod: 'MONTH', recurrencePeriodCount: 1, price: '9.99' }],
    });
    const setup = buildPaymentDataRequest(app, { id: 'cs_1', amount: 0, currency: 'USD', countryCode: 'US', saving: long }, { gatewayName: 'walletcheckout' });
    expect(setup.recurringTransactionInfo).toMatchObject({ immediateTotalPrice: '0.00', recurrenceItems: [{ label: 'Fortnightly box', recurrencePeriod: 'WEEK', recurrencePeriodCount: 2 }] });
    expect(setup.recurringTransactionInfo).not.toHaveProperty('billingAgreement');
    const reload = buildPaymentDataRequest(app, { id: 'cs_1', amount: 0, currency: 'JPY', countryCode: 'JP', saving: reloadSetup }, { gatewayName: 'walletcheckout' });
    expect(reload.automaticReloadTransactionInfo).toMatchObject({ currencyCode: 'JPY', immediateTotalPrice: '0', minimumBalanceAmount: '0', reloadAmount: '999', label: 'Automatic reload' });
  });
});

describe("every express checkout request (line items, shipping address, contact details)", () => {
  const lineItemSets: [string, (step: number) => LineItem[]][] = [
    ['no line items', () => []],
    ['one item', (step) => [{ label: 'Coffee', kind: 'item', amount: 120 * step }]],
    [
      'every kind, a free shipping line and a discount',
      (step) => [
        { label: 'Coffee beans', kind: 'item', amount: 1000 * step },
        { label: 'Mug', kind: 'item', amount: 450 * step },
        { label: 'Sales tax', kind: 'tax', amount: 105 * step },
        { label: 'Welcome offer', kind: 'discount', amount: -200 * step },
        { label: 'Standard shipping', kind: 'shipping', amount: 0 },
      ],
    ],
  ];
  type Shipping = SessionAmount['shipping'];
  const shippingsOf = (step: number): Shipping[] => [
    null,
    { countries: ['US'], phone: false },
    { countries: ['US', 'GB', 'CA'], phone: true },
    { countries: ['US'], phone: false, options: [{ id: 'pickup', label: 'Pick up in store', amount: 0 }] },
    {
      countries: ['US', 'GB', 'CA'],
      phone: true,
      options: [
        { id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: 495 * step },
        { id: 'express_us', label: 'Express', detail: 'Next day', amount: 1500 * step, countries: ['US'] },
      ],
    },
  ];
  const SHIPPINGS = shippingsOf(1).length;
  const contacts: (AskedContact | null)[] = [null, { email: true, phone: false }, { email: false, phone: true }, { email: true, phone: true }];

  it.each(variants)('%s: Google takes every combination, in every currency and environment', (_name, variant, context) => {
    const refused: string[] = [];
    let built = 0;
    for (const environment of ['SANDBOX', 'TEST', 'PRODUCTION'] as const) {
      for (const currency of paymentCurrencyCodes) {
        const step = 10 ** Math.max(0, exponentOf(currency) - 2);
        for (const [itemsName, itemsOf] of lineItemSets) {
          const lineItems = itemsOf(step);
          const amount = lineItems.reduce((sum, item) => sum + item.amount, 0) || 100 * step;
          for (const shipping of shippingsOf(step)) {
            for (const contact of contacts) {
              built += 1;
              const session = { id: 'cs_1', amount, currency, countryCode: 'US', lineItems, shipping, contact };
              const request = buildPaymentDataRequest(variant, session, { gatewayName: 'walletcheckout', ...context });
              const problem = paymentDataRequestProblem(request, clientOf(environment, request));
              if (problem) refused.push(`${environment} ${currency} ${itemsName} ${JSON.stringify({ shipping, contact })}: ${problem}`);
              // Each quote's update for it too: the total for every option, the options listed with it selected.
              for (const option of shipping?.options ?? []) {
                const update = { newTransactionInfo: quotedTransactionInfo(session, { option }), newShippingOptionParameters: shippingOptionParameters(shipping?.options ?? [], option.id) };
                const updateProblem = paymentDataRequestUpdateProblem(update, request);
                if (updateProblem) refused.push(`${environment} ${currency} ${itemsName} quote ${option.id}: ${updateProblem}`);
              }
            }
          }
        }
      }
    }
    expect(refused).toEqual([]);
    expect(built).toBe(3 * paymentCurrencyCodes.length * lineItemSets.length * SHIPPINGS * contacts.length);
  });

  it('asks for what the session asks, and nothing a session without them did not', () => {
    const lineItems: LineItem[] = [
      { label: 'Coffee beans', kind: 'item', amount: 1450 },
      { label: 'Sales tax', kind: 'tax', amount: 105 },
      { label: 'Welcome offer', kind: 'discount', amount: -200 },
      { label: 'Standard shipping', kind: 'shipping', amount: 495 },
    ];
    const session = { id: 'cs_1', amount: 1850, currency: 'USD', countryCode: 'US' };
    const express = buildPaymentDataRequest(app, { ...session, lineItems, shipping: { countries: ['US', 'CA'], phone: true }, contact: { email: true, phone: true } }, { gatewayName: 'g' });
    expect(express.transactionInfo?.displayItems).toEqual([
      { label: 'Coffee beans', type: 'LINE_ITEM', price: '14.50', status: 'FINAL' },
      { label: 'Sales tax', type: 'TAX', price: '1.05', status: 'FINAL' },
      { label: 'Welcome offer', type: 'DISCOUNT', price: '-2.00', status: 'FINAL' },
      { label: 'Standard shipping', type: 'SHIPPING_OPTION', price: '4.95', status: 'FINAL' },
    ]);
    expect(express).toMatchObject({ emailRequired: true, shippingAddressRequired: true, shippingAddressParameters: { allowedCountryCodes: ['US', 'CA'], phoneNumberRequired: true } });
    expect(express.allowedPaymentMethods[0]?.parameters.billingAddressParameters).toEqual({ format: 'FULL', phoneNumberRequired: true });
    // The price stays the session's: no callback that would let the sheet change it.
    expect(express.callbackIntents).toEqual(['PAYMENT_AUTHORIZATION']);

    const plain = buildPaymentDataRequest(app, session, { gatewayName: 'g' });
    for (const field of ['shippingOptionRequired', 'shippingOptionParameters']) expect(express).not.toHaveProperty(field);
    for (const field of ['emailRequired', 'shippingAddressRequired', 'shippingAddressParameters']) expect(plain).not.toHaveProperty(field);
    expect(plain.transactionInfo).not.toHaveProperty('displayItems');
    expect(plain.allowedPaymentMethods[0]?.parameters.billingAddressParameters).toEqual({ format: 'FULL' });
  });
});

describe('a request with delivery options', () => {
  const session = { id: 'cs_1', amount: 1850, currency: 'USD', countryCode: 'US', lineItems: [{ label: 'Coffee beans', kind: 'item' as const, amount: 1850 }] };
  const options = [
    { id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: 495 },
    { id: 'express', label: 'Express', amount: 1500, countries: ['US'] },
  ];
  const request = buildPaymentDataRequest(app, { ...session, shipping: { countries: ['US', 'GB'], phone: false, options } }, { gatewayName: 'g' });

  it("asks the sheet for an option, the first selected, its total estimated at the goods' price plus the first option's", () => {
    expect(request).toMatchObject({
      shippingOptionRequired: true,
      shippingOptionParameters: {
        defaultSelectedOptionId: 'standard',
        shippingOptions: [
          { id: 'standard', label: 'Standard', description: '3 to 5 days' },
          { id: 'express', label: 'Express' },
        ],
      },
      callbackIntents: ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'],
    });
    expect(request.shippingOptionParameters?.shippingOptions[1]).not.toHaveProperty('description');
    expect(request.transactionInfo).toMatchObject({ totalPriceStatus: 'ESTIMATED', totalPrice: '23.45' });
    // Google takes COMPLETE_IMMEDIATE_PURCHASE only with a FINAL total.
    expect(request.transactionInfo).not.toHaveProperty('checkoutOption');
    expect(request.transactionInfo?.displayItems).toEqual([
      { label: 'Coffee beans', type: 'LINE_ITEM', price: '18.50', status: 'FINAL' },
      { label: 'Standard', type: 'SHIPPING_OPTION', price: '4.95', status: 'FINAL' },
    ]);
  });

  it('is one Google takes only from a client that answers onPaymentDataChanged, as the widget does for it', () => {
    expect(paymentDataRequestProblem(request, clientOf('TEST', request))).toBeUndefined();
    expect(paymentDataRequestProblem(request, clientOf('TEST'))).toContain('onPaymentDataChanged');
  });
});

describe("a request priced by the merchant's quote endpoint", () => {
  const session = { id: 'cs_1', amount: 1850, currency: 'USD', countryCode: 'US', lineItems: [{ label: 'Coffee beans', kind: 'item' as const, amount: 1850 }] };
  type Shipping = SessionAmount['shipping'];
  const shippingsOf = (step: number): Shipping[] => [null, { countries: ['US', 'GB'], phone: false }, { countries: ['US'], phone: true, options: [{ id: 'ground', label: 'Ground', amount: 495 * step }] }];
  const [, shipsNoOption, shipsWithOption] = shippingsOf(1);

  it('is ESTIMATED, without COMPLETE_IMMEDIATE_PURCHASE, and calls back for each change that can move the price', () => {
    const intents = (shipping: Shipping, promotionCodes: boolean) => buildPaymentDataRequest(app, { ...session, shipping, quotePricing: { promotion_codes: promotionCodes } }, { gatewayName: 'g' }).callbackIntents;
    expect(intents(shipsNoOption, false)).toEqual(['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS']);
    expect(intents(shipsWithOption, false)).toEqual(['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION']);
    expect(intents(shipsWithOption, true)).toEqual(['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER']);
    expect(intents(null, true)).toEqual(['PAYMENT_AUTHORIZATION', 'OFFER']);
    const request = buildPaymentDataRequest(app, { ...session, quotePricing: { promotion_codes: true } }, { gatewayName: 'g' });
    expect(request.transactionInfo).toMatchObject({ totalPriceStatus: 'ESTIMATED', totalPrice: '18.50' });
    expect(request.transactionInfo).not.toHaveProperty('checkoutOption');
    // The sheet opens with no code applied, and a field to enter one.
    expect(request.offerInfo).toEqual({ offers: [] });
    expect(buildPaymentDataRequest(app, { ...session, shipping: shipsNoOption, quotePricing: { promotion_codes: false } }, { gatewayName: 'g' })).not.toHaveProperty('offerInfo');
  });

  it.each(variants)('%s: Google takes every one, and every quote of it (an option, tax, discounts), in every currency', (_name, variant, context) => {
    const refused: string[] = [];
    for (const currency of paymentCurrencyCodes) {
      const step = 10 ** Math.max(0, exponentOf(currency) - 2);
      for (const shipping of shippingsOf(step)) {
        for (const promotionCodes of [false, true]) {
          // A session priced by the endpoint prices an address or a code (CreateSessionBody).
          if (!shipping && !promotionCodes) continue;
          const priced = { ...session, amount: 1850 * step, lineItems: [{ label: 'Coffee beans', kind: 'item' as const, amount: 1850 * step }], currency, shipping, quotePricing: { promotion_codes: promotionCodes } };
          const request = buildPaymentDataRequest(variant, priced, { gatewayName: 'walletcheckout', ...context });
          const problem = paymentDataRequestProblem(request, clientOf('TEST', request));
          if (problem) refused.push(`${currency} ${JSON.stringify({ shipping, promotionCodes })}: ${problem}`);
          const option = shipping?.options?.[0];
          const discounts = promotionCodes ? [{ label: 'Ten off', amount: 100 * step }] : [];
          const update = {
            newTransactionInfo: quotedTransactionInfo(priced, { option, tax: 160 * step, discounts }),
            ...(option && { newShippingOptionParameters: shippingOptionParameters(shipping?.options ?? [], option.id) }),
            ...(promotionCodes && { newOfferInfo: { offers: [{ redemptionCode: 'TENOFF', description: 'Ten off' }] } }),
          };
          const updateProblem = paymentDataRequestUpdateProblem(update, request);
          if (updateProblem) refused.push(`${currency} quote: ${updateProblem}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });
});

describe('the amounts Google Pay cannot show', () => {
  it('are those needing a third or fourth decimal, in the currencies of more than two (from the currency table)', () => {
    expect(googlePayRestrictedCurrencies).toEqual(paymentCurrencyCodes.filter((code) => exponentOf(code) > 2));
    expect(googlePayRestrictedCurrencies).toEqual(expect.arrayContaining(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND', 'UYW']));
    // docs/api.md "Money" lists them all, and no other.
    const money = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('**Amounts Google Pay can show.**')[1]?.split('\n\n')[0] ?? '';
    expect([...money.matchAll(/\*\*([A-Z]{3}(?:,\s+[A-Z]{3})*)\*\*/g)].flatMap((match) => match[1]!.split(/,\s+/)).sort()).toEqual(googlePayRestrictedCurrencies);
    for (const currency of paymentCurrencyCodes) {
      const step = 10 ** Math.max(0, exponentOf(currency) - 2);
      for (const amount of AMOUNTS) expect(googlePayAmountRefusal(amount, currency) === undefined, `${currency} ${amount}`).toBe(amount % step === 0);
    }
  });

  it('are refused with the rule and the nearest amounts that work, never rounded', () => {
    expect(googlePayAmountRefusal(1234, 'KWD')).toEqual({
      code: 'amount_exceeds_google_pay_precision',
      message: expect.stringMatching(/1234 is 1\.234 KWD.*at most two.*multiple of 10 minor units.*1230 \(1\.230 KWD\) and 1240 \(1\.240 KWD\)/),
    });
    expect(googlePayAmountRefusal(123456, 'UYW')?.message).toMatch(/multiple of 100 minor units: the nearest are 123400 \(12\.3400 UYW\) and 123500 \(12\.3500 UYW\)/);
    // Only amounts a session may have: none below 1, none past 99 999 999 999.
    expect(googlePayAmountRefusal(5, 'KWD')?.message).toMatch(/the nearest are 10 \(0\.010 KWD\)$/);
    expect(googlePayAmountRefusal(99_999_999_999, 'KWD')?.message).toMatch(/the nearest are 99999999990 \(99999999\.990 KWD\)$/);
  });
});

const server = await startTestServer();
afterAll(() => server.close());

describe('every session the API creates', () => {
  it('has a request Google takes, charge or hold, in every currency it accepts', async () => {
    const { secretKey } = await server.merchant();
    const refused: string[] = [];
    for (const currency of paymentCurrencyCodes) {
      for (const [amount, intent] of [[1234, 'charge'], [123450, 'hold']] as const) {
        const reply = await createSession(secretKey, { amount, currency, intent, country_code: 'US' });
        if (reply.status === 400) {
          expect(reply.body, `${currency} ${amount}`).toMatchObject({ error: { code: 'amount_exceeds_google_pay_precision' } });
          continue;
        }
        expect(reply.status, `${currency} ${amount}`).toBe(201);
        const problem = paymentDataRequestProblem(reply.body.public_view?.payment_data_request, clientOf('SANDBOX'));
        if (problem) refused.push(`${currency} ${amount} ${intent}: ${problem}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('refuses KWD 1234 with a 400 naming the rule and KWD 1230 and 1240, which it takes, charging exactly 1230 minor units', async () => {
    const { secretKey } = await server.merchant();
    const refused = await createSession(secretKey, { amount: 1234, currency: 'KWD', country_code: 'KW' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: 'amount_exceeds_google_pay_precision', message: expect.stringContaining('the nearest are 1230 (1.230 KWD) and 1240 (1.240 KWD)') });
    for (const amount of [1230, 1240]) expect((await createSession(secretKey, { amount, currency: 'KWD', country_code: 'KW' })).status).toBe(201);
    const session = await server.createSession(secretKey, { amount: 1230, currency: 'KWD', country_code: 'KW' });
    expect(session.public_view?.payment_data_request.transactionInfo).toMatchObject({ totalPrice: '1.23', currencyCode: 'KWD' });
    // The widget and the merchant see the ISO amount; the service is charged exactly the session's minor units.
    expect(session.public_view).toMatchObject({ amount: 1230, currency_exponent: 3 });
    const paid = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    expect(paid.status).toBe(200);
    expect((await paid.json()) as unknown).toMatchObject({ outcome: { status: 'succeeded' } });
    const ledger = (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));
    expect(ledger.map((entry) => [entry.charge.amount, entry.charge.currency])).toEqual([[1230, 'kwd']]);
  });

  it("shows the ISO amount on the bank's 3-D Secure page, not Google's two decimals", async () => {
    const { secretKey } = await server.merchant();
    const session = await server.createSession(secretKey, { amount: 1230, currency: 'KWD', country_code: 'KW' });
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-3ds-required-pan') });
    const { challenge_url } = ((await reply.json()) as PayReply).outcome;
    expect(await (await fetch(challenge_url ?? '')).text()).toContain('1.230 KWD');
  });
});

async function createSession(secretKey: string, body: Record<string, unknown>): Promise<{ status: number; body: CreatedSession & ApiErrorBody }> {
  const response = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as CreatedSession & ApiErrorBody };
}
