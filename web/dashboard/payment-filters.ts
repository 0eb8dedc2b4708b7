/**
 * The Payments list's filters as its hash route carries them, so a reload, a
 * bookmark or another page (the overview) opens the list filtered:
 * `#/payments?q=...&status=...&network=...&from=YYYY-MM-DD&to=YYYY-MM-DD&decline_code=...&abandoned=1`
 * (docs/dashboard.md). `status` is a payment status, derived ones included.
 */
import { SESSION_STATUSES } from '../../contracts/session-states';
import type { PaymentFilter } from './api';

export const FILTER_NAMES = ['q', 'status', 'network', 'from', 'to', 'decline_code', 'abandoned'] as const;
export type ListFilters = Partial<Record<(typeof FILTER_NAMES)[number], string>>;

/** The filters of a hash such as `#/payments?q=4242&status=refunded` (unknown and empty parameters dropped). */
export function filtersOfHash(hash: string): ListFilters {
  const query = hash.indexOf('?');
  if (query < 0) return {};
  const parameters = new URLSearchParams(hash.slice(query + 1));
  return Object.fromEntries(FILTER_NAMES.flatMap((name) => (parameters.get(name)?.trim() ? [[name, parameters.get(name)!.trim()]] : [])));
}

/** The list's hash for `filters`: `#/payments` alone when none is set. */
export function hashOf(filters: ListFilters): string {
  const query = new URLSearchParams(FILTER_NAMES.flatMap((name) => (filters[name] ? [[name, filters[name]]] : []))).toString();
  return query ? `#/payments?${query}` : '#/payments';
}

/** Whether the merchant narrowed the list (showing abandoned sessions widens it: not a filter). */
export const narrowed = (filters: ListFilters): boolean => FILTER_NAMES.some((name) => name !== 'abandoned' && filters[name] !== undefined);

/** A date field's day (the merchant's local time) as ms since the epoch; `nextDay` for an exclusive end. */
function dayStart(value: string | undefined, nextDay = false): number | undefined {
  if (!value) return undefined;
  const day = new Date(`${value}T00:00`);
  if (nextDay) day.setDate(day.getDate() + 1);
  return Number.isNaN(day.getTime()) ? undefined : day.getTime();
}

/** Sessions abandoned before a payment are open or expired: asking for either status shows them. */
const ABANDONED_STATUSES = new Set(['open', 'expired']);

/**
 * The dashboard API's query (GET /dashboard/api/payments and its .csv) for the list's filters. A status of the state
 * machine is the session's (Succeeded lists the refunded ones too, each shown as such, as the Overview counts them);
 * a derived one (Refunded, Partially refunded) is the payment status.
 */
export const apiQueryOf = (filters: ListFilters): PaymentFilter => ({
  q: filters.q,
  ...(filters.status !== undefined && ((SESSION_STATUSES as readonly string[]).includes(filters.status) ? { status: filters.status } : { payment_status: filters.status })),
  network: filters.network,
  decline_code: filters.decline_code,
  created_gte: dayStart(filters.from),
  created_lt: dayStart(filters.to, true),
  abandoned: filters.abandoned === '1' || ABANDONED_STATUSES.has(filters.status ?? '') ? '1' : undefined,
});
