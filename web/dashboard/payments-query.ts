/**
 * The payments list's hash route and its query: `#/payments?status=<status>&from=YYYY-MM-DD&to=YYYY-MM-DD&decline_code=<code>`,
 * written by the Overview's figures and read by the list (docs/dashboard.md). One place names the parameters.
 */
export interface PaymentsQuery {
  status?: string;
  /** Calendar days in the browser's time zone, both included. */
  from?: string;
  to?: string;
  decline_code?: string;
}

const NAMES = ['status', 'from', 'to', 'decline_code'] as const;

export function paymentsHref(query: PaymentsQuery): string {
  const search = new URLSearchParams();
  for (const name of NAMES) if (query[name]) search.set(name, query[name]);
  const text = search.toString();
  return text ? `#/payments?${text}` : '#/payments';
}

/** The query of a `#/payments?...` hash; empty for any other. */
export function paymentsQueryOf(hash: string): PaymentsQuery {
  const match = /^#\/payments\?(.*)$/.exec(hash);
  if (!match) return {};
  const search = new URLSearchParams(match[1]);
  return Object.fromEntries(NAMES.flatMap((name) => (search.get(name) ? [[name, search.get(name)!]] : [])));
}
