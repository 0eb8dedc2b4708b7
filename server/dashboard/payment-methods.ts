/**
 * The Saved cards page's list (docs/dashboard.md): the app's kept cards, newest first, by customer and status,
 * each as the API shows it (appPaymentMethodPage, as GET /api/payment_methods) with its terms' currency exponent.
 */
import type { App } from '../apps';
import { type DashboardPaymentMethodList, DashboardPaymentMethodsQuery } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Store } from '../store';
import { appPaymentMethodPage } from '../payment-methods/records';

export async function listDashboardPaymentMethods(store: Store, app: App, query: unknown): Promise<Result<DashboardPaymentMethodList, Failure>> {
  const parsed = DashboardPaymentMethodsQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  const page = await appPaymentMethodPage(store, app, parsed.data);
  if (!page.ok) return page;
  return ok({ ...page.value, data: page.value.data.map((view) => ({ ...view, currency_exponent: exponentOf(view.agreement.currency) })) });
}
