import type { Request, Response } from 'express';
import { type App, findAppBySecretKey, findSessionBySecretKey } from '../apps';
import type { Refund } from '../../contracts';
import type { Store } from '../store';
import type { SessionRow } from '../store/sessions';
import { bearerCredential } from '../../common/http/auth';
import { sendFailure } from '../../common/http/errors';

/** The secret key the request carries, if it has a secret key's form. */
const secretKeyOf = (req: Request): string | undefined => {
  const key = bearerCredential(req);
  return key?.startsWith('sk_') ? key : undefined;
};

function refuse(res: Response): undefined {
  res.set('WWW-Authenticate', 'Bearer realm="wallet-checkout"');
  sendFailure(res, { code: 'unauthenticated', message: 'A valid secret key is required: Authorization: Bearer sk_...' });
  return undefined;
}

/** The app whose live secret key the request carries; otherwise the 401 is sent and undefined returned. */
export async function authenticatedMerchant(store: Store, req: Request, res: Response): Promise<App | undefined> {
  const key = secretKeyOf(req);
  const app = key ? await findAppBySecretKey(store, key) : undefined;
  return app ?? refuse(res);
}

/**
 * As authenticatedMerchant, for a call on the session `sessionId`, read with the app in one statement:
 * the session when it is the app's (undefined otherwise: no such session, or another app's), and its refunds.
 */
export async function authenticatedMerchantSession(
  store: Store,
  req: Request,
  res: Response,
  sessionId: string,
): Promise<{ app: App; session: SessionRow | undefined; refunds: Refund[] } | undefined> {
  const key = secretKeyOf(req);
  const found = key ? await findSessionBySecretKey(store, key, sessionId) : undefined;
  return found ?? refuse(res);
}
