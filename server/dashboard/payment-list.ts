/**
 * The Payments list's filters (DashboardPaymentsQuery): the API's, and the
 * dashboard's search box, card network, decline code and abandoned sessions,
 * as the store's filter; the list and its CSV export read the same one.
 */
import type { z } from 'zod';
import type { DashboardPaymentsExportQuery } from '../../contracts';
import type { DataCipher } from '../lib/data-cipher';
import { paymentSearchOf } from '../checkout/payment-search';
import { sessionFilterOf } from '../checkout/sessions';
import type { SessionListFilter } from '../store/session-list';

type ParsedFilters = z.output<typeof DashboardPaymentsExportQuery>;

export const dashboardFilterOf = (query: ParsedFilters, cipher: DataCipher): Omit<SessionListFilter, 'appId' | 'after' | 'limit'> => ({
  ...sessionFilterOf(query),
  search: query.q === undefined ? undefined : paymentSearchOf(query.q, cipher),
  network: query.network,
  declineCode: query.decline_code,
  hideAbandoned: query.abandoned !== '1',
});
