/**
 * The retention pass's queries (checkout/personal-data.ts): sessions and
 * events still holding personal data, written before a time. Migration 0016's
 * partial indexes hold only those rows, so a pass reads nothing else.
 */
import type { Store } from '.';

/** What a sealed address column holds once erased. */
export const ERASED = 'erased';

/** The session's columns that hold personal data, sealed (migration 0023's index holds the rows with any of them). */
const SEALED_COLUMNS = ['billing_address_on_file_sealed', 'billing_address_sealed', 'shipping_address_sealed', 'email_sealed'] as const;

export const sessionsWithPersonalDataQuery = (store: Store, before: number, limit: number) =>
  store
    .selectFrom('sessions')
    .select('id')
    .where('personal_data_erased', 'is', null)
    .where((eb) => eb.or(SEALED_COLUMNS.map((column) => eb(column, 'is not', null))))
    .where('created', '<', before)
    .orderBy('created')
    .limit(limit);

/** Sessions created before `before` whose addresses and e-mail are not erased yet, oldest first. */
export async function sessionsWithPersonalData(store: Store, before: number, limit: number): Promise<string[]> {
  return (await sessionsWithPersonalDataQuery(store, before, limit).execute()).map((row) => row.id);
}

/** Erases a session's addresses and e-mail (those it has), unless erased already; false then. */
export async function eraseSessionAddresses(store: Store, sessionId: string, now: number): Promise<boolean> {
  const erased = await store
    .updateTable('sessions')
    .set((eb) => ({
      ...Object.fromEntries(SEALED_COLUMNS.map((column) => [column, eb.case().when(column, 'is not', null).then(ERASED).else(null).end()])),
      // The e-mail's blind index goes with it: an erased e-mail is found by nobody.
      email_index: null,
      personal_data_erased: now,
    }))
    .where('id', '=', sessionId)
    .where('personal_data_erased', 'is', null)
    .executeTakeFirst();
  return erased.numUpdatedRows > 0n;
}

/** Events recorded before `before` whose body is still sealed for the personal data it carries, oldest first. */
export const eventsWithPersonalDataQuery = (store: Store, before: number, limit: number) =>
  store.selectFrom('events').select(['id', 'body']).where('personal_data', '=', 1).where('created', '<', before).orderBy('created').limit(limit);

export function eventsWithPersonalData(store: Store, before: number, limit: number): Promise<{ id: string; body: string }[]> {
  return eventsWithPersonalDataQuery(store, before, limit).execute();
}

/** Replaces a sealed event body with one that carries no personal data (compare-and-set on the sealed body). */
export async function replaceEventBody(store: Store, eventId: string, sealed: string, body: string): Promise<void> {
  await store.updateTable('events').set({ body, personal_data: 0 }).where('id', '=', eventId).where('body', '=', sealed).execute();
}
