/**
 * The demo's monthly subscription (`/subscription`, docs/saved-cards.md): the first month is paid in the
 * Google Pay sheet on the agreement the widget shows, which keeps the card for a demo customer; the store
 * learns the kept card from its `payment_method.*` webhooks. Its back office, with the secret key, then
 * charges a later month without the shopper (paymentMethods.charge, reason `subscription`, under a key
 * named by the customer and the month, so a double click charges once) and cancels (paymentMethods.detach),
 * after which the API refuses any charge, and the page says so.
 */
import { randomBytes } from 'node:crypto';
import express from 'express';
import type { PaymentMethod, Session } from '../../contracts';
import { sendFailure } from '../../common/http/errors';
import { escapeHtml } from '../../common/html';
import { type SessionCreateParams, type WalletCheckout, WalletCheckoutApiError } from '../../packages/node/src';
import { apiRefusal, orderOf, passOn, sameOriginPost } from './back-office';
import { recentMap } from './recent';

/** The plan: a bag of coffee a month, the first month paid now. */
const COFFEE_CLUB = { name: 'Coffee club', amount: 999, currency: 'USD', what: 'the Coffee club' } as const;

/** `2026-03`: a month as the charges' keys and the back office's routes name it (UTC). */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const monthOf = (date: Date) => date.toISOString().slice(0, 7);
const monthAfter = (month: string) => {
  const [, year, index] = MONTH.exec(month)!;
  return monthOf(new Date(Date.UTC(Number(year), Number(index), 1)));
};
const monthLabel = (month: string) => new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

/** The store's idempotency key of a month's charge: the same customer and month, the same charge, however often it is sent. */
const monthlyChargeKey = (customer: string, month: string) => `demo-subscription:${customer}:${month}`;

interface Subscription {
  customer: string;
  /** The month the shopper paid in the sheet: the back office charges the months after it. */
  firstMonth: string;
  /** The card kept for the customer, as the webhooks (or the back office's own detach) told it. */
  paymentMethod?: PaymentMethod;
}

/** What the page is told of the kept card: its state and summary, never more. */
const keptCardOf = (subscription: Subscription) => {
  const method = subscription.paymentMethod;
  return { customer: subscription.customer, payment_method: method ? { id: method.id, status: method.status, card: method.card } : null };
};

const MAX_SUBSCRIPTIONS = 10_000;

export interface SubscriptionDependencies {
  walletCheckout: WalletCheckout;
  /** The store's own origin: the back office acts for its own pages only. */
  ownOrigin: string;
  template: string;
  /** Creates the session and sends the page embedding the widget for it (index.ts). */
  sendCheckoutPage(res: express.Response, template: string, params: SessionCreateParams, extra: Record<string, string>): Promise<unknown>;
  /** Keeps a charge the back office made among the store's orders. */
  remember(session: Session): void;
}

export function subscriptionRoutes(deps: SubscriptionDependencies): { router: express.Router; onPaymentMethod(method: PaymentMethod): void } {
  const router = express.Router();
  const subscriptions = recentMap<string, Subscription>(MAX_SUBSCRIPTIONS);
  const { name, amount, currency, what } = COFFEE_CLUB;

  router.get('/subscription', async (_req, res) => {
    // The store's own id for a new customer: letters and digits, nothing personal.
    const customer = `demo-${randomBytes(4).toString('hex')}`;
    const firstMonth = monthOf(new Date());
    subscriptions.set(customer, { customer, firstMonth });
    await deps.sendCheckoutPage(
      res,
      deps.template,
      {
        amount,
        currency,
        country_code: 'US',
        description: `${name}, ${monthLabel(firstMonth)}`,
        save_payment_method: { customer, usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount, label: name }, description: what },
      },
      { CUSTOMER: escapeHtml(customer), NEXT_MONTH: monthAfter(firstMonth), NEXT_MONTH_LABEL: escapeHtml(monthLabel(monthAfter(firstMonth))) },
    );
  });

  /** The customer's subscription as the store knows it: whether the card is kept yet, or detached. */
  router.get('/demo/subscriptions/:customer', (req, res) => {
    const subscription = subscriptions.get(req.params.customer);
    if (!subscription) return sendFailure(res, { code: 'not_found', message: 'No such subscription' });
    res.set('Cache-Control', 'no-store').json(keptCardOf(subscription));
  });

  /** A back-office step on a subscription: its own pages only, a known customer whose card was kept. */
  const backOffice = (action: (subscription: Subscription & { paymentMethod: PaymentMethod }, req: express.Request, res: express.Response) => Promise<unknown>) =>
    async (req: express.Request<{ customer: string }>, res: express.Response) => {
      if (!sameOriginPost(req, deps.ownOrigin)) return sendFailure(res, { code: 'origin_not_allowed', message: 'The back office acts only for its own pages' });
      const subscription = subscriptions.get(req.params.customer);
      if (!subscription) return sendFailure(res, { code: 'not_found', message: 'No such subscription' });
      const { paymentMethod } = subscription;
      if (!paymentMethod) return sendFailure(res, { code: 'invalid_state', message: 'The card is not kept yet: the first month is not paid, or its webhook has not come' });
      res.set('Cache-Control', 'no-store');
      await action({ ...subscription, paymentMethod }, req, res);
    };

  /** A later month's charge, without the shopper. The API refuses it once the card is detached, and the refusal is passed on. */
  router.post(
    '/demo/subscriptions/:customer/months/:month/charge',
    backOffice(async ({ customer, firstMonth, paymentMethod }, req, res) => {
      const month = String(req.params.month);
      if (!MONTH.test(month) || month <= firstMonth) return sendFailure(res, { code: 'invalid_request', message: `month: a month after ${firstMonth}, as YYYY-MM` });
      const charged = await deps.walletCheckout.paymentMethods
        .charge(paymentMethod.id, { amount, currency, reason: 'subscription', customer, description: `${name}, ${monthLabel(month)}`, reference: `${customer}:${month}` }, { idempotencyKey: monthlyChargeKey(customer, month) })
        .catch(apiRefusal);
      if (charged instanceof WalletCheckoutApiError) return passOn(res, charged);
      deps.remember(charged);
      res.json({ month, month_label: monthLabel(month), next_month: monthAfter(month), next_month_label: monthLabel(monthAfter(month)), charge: orderOf(charged) });
    }),
  );

  /** Cancelling is detaching the card: for good, at the API. */
  router.post(
    '/demo/subscriptions/:customer/cancel',
    backOffice(async (subscription, _req, res) => {
      const detached = await deps.walletCheckout.paymentMethods.detach(subscription.paymentMethod.id).catch(apiRefusal);
      if (detached instanceof WalletCheckoutApiError) return passOn(res, detached);
      const updated = { ...subscription, paymentMethod: detached };
      subscriptions.set(subscription.customer, updated);
      res.json(keptCardOf(updated));
    }),
  );

  return {
    router,
    /** A `payment_method.*` webhook: the card kept for a subscription's customer, unless the store knows a later state of it. */
    onPaymentMethod(method) {
      const subscription = subscriptions.get(method.customer);
      if (!subscription) return;
      const known = subscription.paymentMethod;
      if (known && known.id === method.id && known.updated > method.updated) return;
      subscriptions.set(method.customer, { ...subscription, paymentMethod: method });
    },
  };
}
