/**
 * The Saved cards page's list (docs/dashboard.md): the app's kept cards, newest first, by customer and status,
 * each as the API shows it (paymentMethodView) with its terms' currency exponent. `starting_after` must be one of
 * the app's, as GET /api/payment_methods wants.
 */
import type { App } from '../apps';
import { type DashboardPaymentMethodList, DashboardPaymentMethodsQuery } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Store } from '../store';
import { findPaymentMethod, listPaymentMethods } from '../store/payment-methods';
import { paymentMethodView } from '../payment-methods/views';

export async function listDashboardPaymentMethods(store: Store, app: App, query: unknown): Promise<Result<DashboardPaymentMethodList, Failure>> {
  const parsed = DashboardPaymentMethodsQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  const { customer, status, limit, starting_after } = parsed.data;
  const cursor = starting_after === undefined ? undefined : await findPaymentMethod(store, starting_after);
  if (starting_after !== undefined && cursor?.app_id !== app.id) return err({ code: 'invalid_request', message: 'starting_after: no payment method of this application has this id' });
  // One instant for the filter and the views: a card that expires meanwhile is listed under the status it shows.
  const now = Date.now();
  const page = await listPaymentMethods(store, { appId: app.id, customer, status: status && { is: status, at: now }, after: cursor, limit });
  const data = page.rows.map((row) => {
    const view = paymentMethodView(row, now);
    return { ...view, currency_exponent: exponentOf(view.agreement.currency) };
  });
  return ok({ object: 'list', data, has_more: page.hasMore });
}
