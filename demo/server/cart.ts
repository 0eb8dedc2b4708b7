/**
 * The shopper's cart: a cookie names it, and the store remembers the checkout session each of its pages opened
 * for it. A reload shows that session again while it is still open, instead of creating another and leaving an
 * unpaid "Open" one in the merchant's list on every page load (demo/README.md).
 */
import { randomBytes } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type express from 'express';
import type { CreatedSession } from '../../contracts';
import { recentMap } from './recent';

export const CART_COOKIE = 'demo_cart';

/** A cart's id: random, naming nothing of the shopper; any other cookie value starts a new cart. */
const CART_ID = /^[0-9a-f]{32}$/;

/** The session a page opened for a cart, to show again. */
export interface CartCheckout {
  kept(): CreatedSession | undefined;
  keep(created: CreatedSession): void;
}

/** The carts' checkouts, in memory and bounded to the newest `max`, as the store's orders are. */
export function cartCheckouts(max: number) {
  const checkouts = recentMap<string, CreatedSession>(max);
  return {
    /** The checkout of this request's cart on `page` (a page and the order's terms); the cookie is set on a first visit. */
    of(req: express.Request, res: express.Response, page: string): CartCheckout {
      const sent = parseCookies(req.get('cookie') ?? '')[CART_COOKIE];
      const cart = sent !== undefined && CART_ID.test(sent) ? sent : randomBytes(16).toString('hex');
      if (cart !== sent) res.append('Set-Cookie', serializeCookie(CART_COOKIE, cart, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure }));
      const key = `${cart} ${page}`;
      return { kept: () => checkouts.get(key), keep: (created) => checkouts.set(key, created) };
    },
  };
}
