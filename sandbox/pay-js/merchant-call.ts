/** The sheet's call of the merchant's onPaymentDataChanged, bounded in time. */
import { BuiltinPromise } from '../../common/browser/builtins';
import type { IntermediatePaymentData, Reply } from './express';

/**
 * How long the sheet waits for onPaymentDataChanged. Google documents no limit; a merchant that never
 * answers would otherwise hold Pay disabled for good, so the sandbox shows OTHER_ERROR after this.
 */
export const CALLBACK_DEADLINE_MS = 20_000;

/** The merchant's answer to a change: its update, or how it failed (threw, rejected, or let the deadline pass). */
export async function askMerchant(onChanged: (data: IntermediatePaymentData) => unknown, data: IntermediatePaymentData): Promise<Reply> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new BuiltinPromise<Reply>((resolve) => (timer = setTimeout(() => resolve({ failed: 'timed out' }), CALLBACK_DEADLINE_MS)));
  const answer = (async (): Promise<Reply> => ({ update: await onChanged(data) }))().catch((): Reply => ({ failed: 'rejected' }));
  try {
    return await BuiltinPromise.race([answer, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
