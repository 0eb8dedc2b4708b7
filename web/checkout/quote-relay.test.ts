/**
 * The sheet's onPaymentDataChanged as the widget performs it, against a stand-in for the relay:
 * answered within its deadline whatever the relay does, and the newest change's quote kept.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { QUOTE_DEADLINE_MS, type PaymentDataChange, type QuoteReply, type RelayedChange } from './quote-decide';
import { quoteRelay } from './quote-relay';

const OFFLINE = "We couldn't reach the payment server.";
/** The request's callbackIntents: a session with delivery options. */
const DECLARED = ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'];
const change = (callbackTrigger: PaymentDataChange['callbackTrigger'], option = 'standard'): PaymentDataChange => ({
  callbackTrigger,
  paymentMethodData: { type: 'CARD' } as PaymentDataChange['paymentMethodData'],
  shippingAddress: { countryCode: 'FR', postalCode: '75002', administrativeArea: '', locality: 'Paris' },
  shippingOptionData: { id: option },
});
const priced = (quote_id: string, totalPrice: string): QuoteReply => ({
  quote_id,
  update: { newTransactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice } },
});

/** The relay, answering each call when the test says: its calls (what it was told, its signal) and their answers. */
function relayStandIn() {
  const calls: { change: RelayedChange; signal: AbortSignal; answer: (reply: unknown) => void; fail: (error: unknown) => void }[] = [];
  const post = vi.fn(
    (sent: RelayedChange, signal: AbortSignal) =>
      new Promise<unknown>((answer, fail) => void calls.push({ change: sent, signal, answer, fail })),
  );
  return { calls, relay: quoteRelay(post, () => OFFLINE) };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it('answers Google with the relay\'s update, tells the relay the change without the card, and keeps the quote for the payment', async () => {
  const { calls, relay } = relayStandIn();
  const answered = relay.changed(change('INITIALIZE'), DECLARED);
  expect(calls[0]!.change).toEqual({ callbackTrigger: 'INITIALIZE', shippingAddress: change('INITIALIZE').shippingAddress, shippingOptionData: { id: 'standard' } });
  calls[0]!.answer(priced('qt_1', '24.90'));
  expect(await answered).toEqual(priced('qt_1', '24.90').update);
  expect(relay.quoteId()).toBe('qt_1');
});

it('keeps the newest change\'s quote when an older reply arrives after it', async () => {
  const { calls, relay } = relayStandIn();
  const first = relay.changed(change('SHIPPING_OPTION', 'standard'), DECLARED);
  const second = relay.changed(change('SHIPPING_OPTION', 'express'), DECLARED);
  calls[1]!.answer(priced('qt_express', '29.90'));
  expect(await second).toEqual(priced('qt_express', '29.90').update);
  calls[0]!.answer(priced('qt_standard', '24.90'));
  // Google ignores the answer to a call a newer one replaced; the payment names the newer quote.
  expect(await first).toEqual(priced('qt_standard', '24.90').update);
  expect(relay.quoteId()).toBe('qt_express');
});

it(`answers with the network error words once ${QUOTE_DEADLINE_MS} ms have passed without a reply, and gives up the call`, async () => {
  const { calls, relay } = relayStandIn();
  let answer: unknown;
  void relay.changed(change('SHIPPING_ADDRESS'), DECLARED).then((update) => (answer = update));
  await vi.advanceTimersByTimeAsync(QUOTE_DEADLINE_MS - 1);
  expect(answer).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  expect(answer).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_ADDRESS', message: OFFLINE } });
  expect(calls[0]!.signal.aborted).toBe(true);
  // A reply after the deadline changes nothing.
  calls[0]!.answer(priced('qt_late', '24.90'));
  await vi.advanceTimersByTimeAsync(0);
  expect(relay.quoteId()).toBeUndefined();
});

it('answers a change the relay refused (a reply not 2xx, or none: api.ts throws for both) with the same words, keeping the quote', async () => {
  const { calls, relay } = relayStandIn();
  const priced1 = relay.changed(change('INITIALIZE'), DECLARED);
  calls[0]!.answer(priced('qt_1', '24.90'));
  await priced1;
  const refused = relay.changed(change('SHIPPING_OPTION', 'express'), DECLARED);
  calls[1]!.fail(new Error('409'));
  expect(await refused).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_OPTION', message: OFFLINE } });
  expect(relay.quoteId()).toBe('qt_1');
});

it("answers a failed change with an intent the request declared: a code's own, and the code for the opening of a sheet that asks only for codes", async () => {
  const { calls, relay } = relayStandIn();
  const codesOnly = ['PAYMENT_AUTHORIZATION', 'OFFER'];
  const opening = relay.changed({ callbackTrigger: 'INITIALIZE', offerData: { redemptionCodes: [] } } as unknown as PaymentDataChange, codesOnly);
  calls[0]!.fail(new Error('offline'));
  expect(await opening).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'OFFER', message: OFFLINE } });
  const code = relay.changed({ callbackTrigger: 'OFFER', offerData: { redemptionCodes: ['WELCOME10'] } } as unknown as PaymentDataChange, ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'OFFER']);
  calls[1]!.fail(new Error('offline'));
  expect(await code).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'OFFER', message: OFFLINE } });
});
