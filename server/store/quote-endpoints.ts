/** The queries of an app's quote endpoint: one per app, replaced whole (a new URL comes with a new secret). */
import type { Selectable } from 'kysely';
import type { QuoteEndpointsTable } from './schema';
import type { Store } from '.';

export type QuoteEndpointRow = Selectable<QuoteEndpointsTable>;

export function findQuoteEndpoint(store: Store, appId: string): Promise<QuoteEndpointRow | undefined> {
  return store.selectFrom('quote_endpoints').selectAll().where('app_id', '=', appId).executeTakeFirst();
}

/** Sets the app's quote endpoint, replacing the one it had. */
export async function replaceQuoteEndpoint(store: Store, row: QuoteEndpointRow): Promise<void> {
  await store
    .insertInto('quote_endpoints')
    .values(row)
    .onConflict((conflict) => conflict.column('app_id').doUpdateSet({ url: row.url, secret_sealed: row.secret_sealed, created: row.created }))
    .execute();
}

/** Removes the app's quote endpoint; false when it had none. */
export async function deleteQuoteEndpoint(store: Store, appId: string): Promise<boolean> {
  const deleted = await store.deleteFrom('quote_endpoints').where('app_id', '=', appId).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
