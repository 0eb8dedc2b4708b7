/**
 * An app's sessions, one page at a time, newest first. Keyset pagination on
 * (created, id): a page costs the same however deep it is, and sessions
 * created meanwhile never shift a page (an offset would repeat or skip
 * them). Migration 0009 indexes the API's filters; 0028 the dashboard's search (session-search.ts).
 */
import type { Selectable, Transaction } from 'kysely';
import type { BackendDatabase, SessionsTable } from './schema';
import type { PaymentStatus } from '../../contracts';
import { notAbandoned, type PaymentSearch, paymentStatusCondition, type SearchTerm, searchTerms } from './session-search';
import { onPostgres, type Store } from '.';

export interface SessionListFilter {
  appId: string;
  status?: string;
  /** The payment status, derived ones included (contracts/payment-status.ts). */
  paymentStatus?: PaymentStatus;
  reference?: string;
  /** The dashboard's search box: a session matching any of its terms. */
  search?: PaymentSearch;
  network?: string;
  declineCode?: string;
  /** Leave out the sessions abandoned before any payment (the dashboard's default). */
  hideAbandoned?: boolean;
  createdGte?: number;
  createdLt?: number;
  /** The last session of the previous page: only sessions after it (older, in this order) are listed. */
  after?: { created: number; id: string };
  limit: number;
}

type Db = Store | Transaction<BackendDatabase>;

/** The query of one page, one more row than the page, on `db` (which may be a transaction); a search's one term, if given. */
function termPageQuery(db: Db, filter: SessionListFilter, term: SearchTerm | undefined) {
  let query = db.selectFrom('sessions').selectAll().where('app_id', '=', filter.appId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.reference !== undefined) query = query.where('reference', '=', filter.reference);
  const { paymentStatus } = filter;
  if (paymentStatus !== undefined) query = query.where((eb) => paymentStatusCondition(eb, paymentStatus));
  if (term !== undefined) query = query.where(term);
  if (filter.network !== undefined) query = query.where('card_network', '=', filter.network);
  if (filter.declineCode !== undefined) query = query.where('decline_code', '=', filter.declineCode);
  if (filter.hideAbandoned) query = query.where(notAbandoned);
  if (filter.createdGte !== undefined) query = query.where('created', '>=', filter.createdGte);
  if (filter.createdLt !== undefined) query = query.where('created', '<', filter.createdLt);
  const after = filter.after;
  // A row value, not `created < ? OR (created = ? AND id < ?)`: SQLite then starts the index walk at the cursor (bench figure 9).
  if (after) query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created', 'id'), '<', tuple(after.created, after.id)));
  // One more than the page: whether it exists is `has_more`, without a count.
  return query.orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit + 1);
}

/**
 * The query of one page, one more row than the page. A search of several terms is one query per term, each
 * a page read from its own index, united and cut to the page: the first rows of the union are the first of
 * its parts' (UNION also drops a session two terms found).
 */
export function sessionPageQuery(db: Db, filter: SessionListFilter) {
  const terms = filter.search ? searchTerms(filter.search, onPostgres(db)) : [];
  if (terms.length < 2) return termPageQuery(db, filter, terms[0]);
  const [first, ...others] = terms.map((term, index) => db.selectFrom(termPageQuery(db, filter, term).as(`term${index}`)).selectAll());
  const united = others.reduce((union, part) => union.union(part), first!);
  return db.selectFrom(united.as('found')).selectAll().orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit + 1);
}

export async function listSessions(store: Store, filter: SessionListFilter): Promise<{ rows: Selectable<SessionsTable>[]; hasMore: boolean }> {
  const rows = await sessionPageQuery(store, filter).execute();
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}
