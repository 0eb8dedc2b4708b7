/**
 * The application's disputes as its API and its dashboard read them: listed newest first, and one by id (another
 * application's is unknown here, as it is everywhere).
 */
import type { App } from '../apps';
import { type Dispute, type DisputeList, ListDisputesQuery } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Store } from '../store';
import { type DisputeRow, findDispute, listDisputes, toDispute } from '../store/disputes';

export const noSuchDispute: Failure = { code: 'not_found', message: 'No such dispute' };

/** The app's dispute of this id; undefined for another app's, or none. */
export async function appDispute(store: Store, app: App, id: string): Promise<DisputeRow | undefined> {
  const row = await findDispute(store, id);
  return row?.app_id === app.id ? row : undefined;
}

/** GET /api/disputes (and the dashboard's list): `starting_after` must be one of this app's disputes. */
export async function listAppDisputes(store: Store, app: App, query: unknown): Promise<Result<DisputeList, Failure>> {
  const parsed = ListDisputesQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  const { status, limit, starting_after } = parsed.data;
  const cursor = starting_after === undefined ? undefined : await appDispute(store, app, starting_after);
  if (starting_after !== undefined && !cursor) return err({ code: 'invalid_request', message: 'starting_after: no dispute of this application has this id' });
  const page = await listDisputes(store, { appId: app.id, status, after: cursor && { created: Number(cursor.created), id: cursor.id }, limit });
  return ok({ object: 'list', data: page.rows.map(toDispute), has_more: page.hasMore });
}

export async function getAppDispute(store: Store, app: App, id: string): Promise<Result<Dispute, Failure>> {
  const row = await appDispute(store, app, id);
  return row ? ok(toDispute(row)) : err(noSuchDispute);
}
