import type { Request, Response } from 'express';
import { type App, findAppBySecretKey } from '../apps';
import type { Store } from '../store';
import { bearerCredential } from '../../common/http/auth';
import { sendFailure } from '../../common/http/errors';

/** The app whose live secret key the request carries; otherwise the 401 is sent and undefined returned. */
export async function authenticatedMerchant(store: Store, req: Request, res: Response): Promise<App | undefined> {
  const key = bearerCredential(req);
  const app = key?.startsWith('sk_') ? await findAppBySecretKey(store, key) : undefined;
  if (!app) {
    res.set('WWW-Authenticate', 'Bearer realm="wallet-checkout"');
    sendFailure(res, { code: 'unauthenticated', message: 'A valid secret key is required: Authorization: Bearer sk_...' });
  }
  return app;
}
