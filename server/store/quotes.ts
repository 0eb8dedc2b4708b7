/**
 * A session's latest quote (checkout/quotes.ts): written by each successful relay, the newest asked winning
 * whatever order the answers come in, only while the session can still be paid, so that a payment that
 * claimed it meanwhile is never quoted again.
 */
import type { Store } from '.';

/**
 * Stores `quote` (JSON) as the session's latest, unless `replaces` says the one stored was asked after it
 * (an answer that came late: the merchant's endpoint slower for one change than for the next); a
 * compare-and-set on the stored quote, so that two answers arriving together cannot store the older.
 * False when the session is no longer in one of `payable`.
 */
export async function recordLatestQuote(store: Store, sessionId: string, payable: readonly string[], quote: string, replaces: (stored: string) => boolean): Promise<boolean> {
  for (;;) {
    const row = await store.selectFrom('sessions').select(['status', 'latest_quote']).where('id', '=', sessionId).executeTakeFirst();
    if (!row || !payable.includes(row.status)) return false;
    const stored = row.latest_quote;
    if (stored !== null && !replaces(stored)) return true;
    const update = store.updateTable('sessions').set({ latest_quote: quote }).where('id', '=', sessionId).where('status', 'in', payable);
    const written = await (stored === null ? update.where('latest_quote', 'is', null) : update.where('latest_quote', '=', stored)).executeTakeFirst();
    if (written.numUpdatedRows > 0n) return true;
  }
}
