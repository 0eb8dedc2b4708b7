import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { IntermediatePaymentData } from './express';
import { askMerchant, CALLBACK_DEADLINE_MS } from './merchant-call';

// What this file's copy of common/browser/builtins.ts took leaves with it.
afterAll(() => void delete (globalThis as Record<string, unknown>).__walletCheckoutBuiltins);
afterEach(() => void vi.useRealTimers());

const data: IntermediatePaymentData = { callbackTrigger: 'INITIALIZE', paymentMethodData: { type: 'CARD' } };

describe("the sheet's call of onPaymentDataChanged", () => {
  it("hands back the merchant's update, whether it returns it or resolves to it", async () => {
    await expect(askMerchant(() => ({ newOfferInfo: { offers: [] } }), data)).resolves.toEqual({ update: { newOfferInfo: { offers: [] } } });
    await expect(askMerchant(async (seen) => ({ seen: seen.callbackTrigger }), data)).resolves.toEqual({ update: { seen: 'INITIALIZE' } });
  });

  it('reports a callback that throws or rejects as failed, for the sheet to show OTHER_ERROR', async () => {
    await expect(askMerchant(() => { throw new Error('merchant bug'); }, data)).resolves.toEqual({ failed: 'rejected' });
    await expect(askMerchant(() => Promise.reject(new Error('network')), data)).resolves.toEqual({ failed: 'rejected' });
  });

  it('stops waiting for a callback that never answers', async () => {
    vi.useFakeTimers();
    const reply = askMerchant(() => new Promise(() => {}), data);
    await vi.advanceTimersByTimeAsync(CALLBACK_DEADLINE_MS - 1);
    let settled = false;
    void reply.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(reply).resolves.toEqual({ failed: 'timed out' });
  });
});
