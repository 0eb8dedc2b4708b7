/**
 * A session's latest quote (checkout/quotes.ts): written by each successful relay, newest wins, only while
 * the session can still be paid, so that a payment that claimed it meanwhile is never quoted again.
 */
import type { Store } from '.';

/** Stores `quote` (JSON) as the session's latest; false when the session is no longer in one of `payable`. */
export async function recordLatestQuote(store: Store, sessionId: string, payable: readonly string[], quote: string): Promise<boolean> {
  const updated = await store.updateTable('sessions').set({ latest_quote: quote }).where('id', '=', sessionId).where('status', 'in', payable).executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}
