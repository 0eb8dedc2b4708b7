/**
 * What the demo's back-office routes share: they spend the merchant's secret key on the caller's
 * behalf, so only the store's own pages may call them, and they pass the API's refusals on as they came.
 */
import type express from 'express';
import type { Session } from '../../contracts';
import { WalletCheckoutApiError } from '../../packages/node/src';
import { exponentOf } from '../../contracts/currency';
import { formatAmount } from '../../contracts/money';

/**
 * A page on another site must not be able to trigger a back-office action (CSRF): a browser says
 * where a request comes from with Sec-Fetch-Site, or else with Origin. A request with neither is not
 * a browser's cross-site one.
 */
export function sameOriginPost(req: express.Request, ownOrigin: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  return origin === undefined || origin === ownOrigin;
}

/** The API's refusal as a value, to pass on; any other failure stays thrown. */
export const apiRefusal = (error: unknown): WalletCheckoutApiError | Promise<never> => (error instanceof WalletCheckoutApiError ? error : Promise.reject(error));

/** Passes the API's refusal on to the page as it came. */
export const passOn = (res: express.Response, refusal: WalletCheckoutApiError) => res.status(refusal.status).json({ error: { code: refusal.code, message: refusal.message } });

/** A price as the pages show it: the widget's formatting, the currency's ISO 4217 exponent, in English like the pages. */
export const priceOf = (amount: number, currency: string) => formatAmount(amount, currency, exponentOf(currency), 'en');

/** What the store's page is told about an order: enough to show it, nothing of the card but its summary. */
export const orderOf = (session: Session) => ({
  id: session.id,
  status: session.status,
  reference: session.reference,
  amount: session.amount,
  currency: session.currency,
  amount_captured: session.amount_captured,
  /** The amounts formatted for the page, so that it never shows minor units. */
  price: priceOf(session.amount, session.currency),
  price_captured: session.amount_captured === null ? null : priceOf(session.amount_captured, session.currency),
  card: session.outcome?.card ?? null,
});
