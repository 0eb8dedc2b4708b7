/**
 * The card networks' updates of kept cards (a new expiry, a reissued card's last four), as the payment
 * service lists them per merchant account (docs/service-conventions.md#kept-payment-methods): read in
 * every reconciliation pass after the last one applied, each applied to the payment methods that keep the
 * card (a card past its expiry becomes active again) with a `payment_method.updated` event. The cursor
 * moves in the transaction that applies the updates, by a compare-and-set, so of several instances reading
 * the same updates one applies them.
 */
import { SavedCard } from '../../contracts';
import type { Logger } from '../../common/logging';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { recordEvent } from '../store/events';
import { advanceCardUpdateCursor, cardUpdateCursor, livePaymentMethodsOfService, merchantAccountsWithLiveCards, updateLivePaymentMethod } from '../store/payment-methods';
import { paymentMethodView } from './views';

export interface CardUpdateDependencies {
  store: Store;
  service: ServiceClient;
  logger: Logger;
}

/** Updates read per merchant account and call. */
const PAGE = 100;

/** Applies every card update the service lists that this backend has not; how many payment methods it changed. */
export async function applyCardUpdates(deps: CardUpdateDependencies): Promise<number> {
  let changed = 0;
  for (const merchantId of await merchantAccountsWithLiveCards(deps.store)) {
    for (let more = true; more; ) {
      const after = await cardUpdateCursor(deps.store, merchantId);
      const page = await deps.service.paymentMethodUpdates(merchantId, after, PAGE);
      if (!page.ok) {
        deps.logger.warn({ merchantId, code: page.error.code }, 'card updates could not be read from the payment service; the next pass reads them');
        break;
      }
      const last = page.value.data.at(-1);
      if (!last) break;
      const applied = await deps.store.transaction().execute(async (trx) => {
        if (!(await advanceCardUpdateCursor(trx, merchantId, after, last.sequence))) return undefined;
        let count = 0;
        const now = Date.now();
        for (const update of page.value.data) {
          const card = SavedCard.parse(update.card);
          for (const row of await livePaymentMethodsOfService(trx, update.payment_method)) {
            const updated = await updateLivePaymentMethod(trx, row.id, { last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year, updated: now });
            if (updated) {
              await recordEvent(trx, updated.app_id, 'payment_method.updated', paymentMethodView(updated, now));
              count++;
            }
          }
        }
        return count;
      });
      // Another instance applied this page: it reads the next one too.
      if (applied === undefined) break;
      changed += applied;
      more = page.value.has_more;
    }
  }
  return changed;
}
