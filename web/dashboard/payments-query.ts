/**
 * The Overview's links into the payments list (`#/payments?status=&from=&to=&decline_code=`): the list's hash
 * route is payment-filters.ts', which names every parameter once; this is the part of it the Overview writes.
 */
import { filtersOfHash, hashOf, type ListFilters } from './payment-filters';

export type PaymentsQuery = Pick<ListFilters, 'status' | 'from' | 'to' | 'decline_code'>;

export const paymentsHref = (query: PaymentsQuery): string => hashOf(query);

/** The query of a `#/payments?...` hash; empty for any other. */
export const paymentsQueryOf = (hash: string): PaymentsQuery => filtersOfHash(hash);
