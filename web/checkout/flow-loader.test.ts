/**
 * The payment flow as the mount uses it (flow-loader.ts), without a browser: loaded once and told
 * the widget's view, loaded at once for a state past the first paint, asked for again after a
 * failure, the shopper told when it cannot be had, and everything it runs stopped with the widget.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { en } from './locales/en';
import { flowLoader } from './flow-loader';
import type { FlowHost, PaymentFlow } from './flow-host';
import type { View } from './states';

afterEach(() => void vi.restoreAllMocks());

const PRICED = { newTransactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice: '24.90' } };

function mount(chunkAnswers: (() => Promise<unknown>)[], sessionId = 'cs_1') {
  let view: View = { state: 'ready' };
  const closeChallenge = vi.fn();
  const flow = { sync: vi.fn(), stop: vi.fn(), showChallenge: vi.fn(() => closeChallenge), onCancel: vi.fn(), onPaymentAuthorized: vi.fn(async () => ({ transactionState: 'SUCCESS' })), onPaymentDataChanged: vi.fn(async () => PRICED) } as unknown as PaymentFlow;
  const loadChunk = vi.fn(() => chunkAnswers.shift()!());
  const setView = vi.fn((next: View) => void (view = next));
  const host = () => ({ sessionId, view: () => view, setView, alive: () => true, loadChunk }) as unknown as FlowHost;
  const arrived = vi.fn();
  const [loadFlow, unavailable, follow, handlers, stop] = flowLoader(host, arrived);
  return { loadFlow, unavailable, follow, handlers, stop, flow, loadChunk, setView, arrived, closeChallenge, chunk: { en, paymentFlow: () => flow } };
}

it('loads the flow once, tells it the view, and has it follow every move', async () => {
  const m = mount([]);
  m.loadChunk.mockImplementation(async () => m.chunk);
  m.follow({ state: 'ready' }); // the first paint's state: nothing loaded yet
  expect(m.loadChunk).not.toHaveBeenCalled();
  m.follow({ state: 'processing' });
  await vi.waitFor(() => expect(m.arrived).toHaveBeenCalledOnce());
  expect(m.flow.sync).toHaveBeenCalledWith({ state: 'ready' });
  await m.loadFlow();
  expect(m.loadChunk).toHaveBeenCalledOnce();
  m.follow({ state: 'processing' });
  expect(m.flow.sync).toHaveBeenLastCalledWith({ state: 'processing' });
});

it('asks again after a failure, and tells the shopper the payment cannot be made', async () => {
  const failed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const m = mount([]);
  m.loadChunk.mockImplementationOnce(() => Promise.reject(new Error('offline'))).mockImplementation(async () => m.chunk);
  m.handlers.onCancel();
  await vi.waitFor(() => expect(m.setView).toHaveBeenCalledWith({ state: 'error', code: 'network_error', reason: 'payment_unavailable' }));
  expect(failed).toHaveBeenCalledWith('offline');
  expect(await m.handlers.onPaymentAuthorized({} as never)).toEqual({ transactionState: 'SUCCESS' });
  expect(m.flow.onPaymentAuthorized).toHaveBeenCalledOnce();
  expect(m.loadChunk).toHaveBeenCalledTimes(2);
  await expect(mount([], '').loadFlow()).rejects.toThrow('no session to pay');
});

it('stops the flow and closes the challenge with the widget', async () => {
  const m = mount([]);
  m.loadChunk.mockImplementation(async () => m.chunk);
  m.handlers.challengeBox({} as HTMLDivElement);
  await vi.waitFor(() => expect(m.flow.showChallenge).toHaveBeenCalledOnce());
  m.stop();
  expect(m.flow.stop).toHaveBeenCalledOnce();
  expect(m.closeChallenge).toHaveBeenCalledOnce();
});

it("hands the sheet's change to the flow with the request's intents, and refuses it when the flow cannot be had", async () => {
  const m = mount([]);
  m.loadChunk.mockImplementationOnce(() => Promise.reject(new Error('offline'))).mockImplementation(async () => m.chunk);
  const change = { callbackTrigger: 'INITIALIZE' } as Parameters<typeof m.handlers.onPaymentDataChanged>[0];
  const declared = ['PAYMENT_AUTHORIZATION', 'OFFER'];
  // Google shows its own error for a refused change; the shopper's next change, or Pay, asks for the flow again.
  await expect(m.handlers.onPaymentDataChanged(change, declared)).rejects.toThrow('offline');
  expect(await m.handlers.onPaymentDataChanged(change, declared)).toBe(PRICED);
  expect(m.flow.onPaymentDataChanged).toHaveBeenCalledWith(change, declared);
});
