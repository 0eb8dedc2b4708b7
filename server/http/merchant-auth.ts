import type { Request, Response } from 'express';
import { type App, findAppBySecretKey, findSessionBySecretKey, type MerchantCaller, unauthenticatedMerchant } from '../apps';
import { hashSecret } from '../../common/secrets';
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

/** The header every refusal of a merchant's key carries (RFC 6750). */
export const askForSecretKey = (res: Response): Response => res.set('WWW-Authenticate', 'Bearer realm="wallet-checkout"');

function refuse(res: Response): undefined {
  sendFailure(askForSecretKey(res), unauthenticatedMerchant);
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

/** How many keys' apps an instance remembers: keys in use at once, a few per merchant. Past it, the oldest is forgotten. */
const REMEMBERED_KEYS = 10_000;

/**
 * The apps of the secret keys this instance has seen live, by digest. A key belongs to one app for
 * good, so a remembered pair never goes stale and needs no invalidation: whether the key is still
 * live, and the app as it is now, are read by the statement that acts on the call (createSession's
 * insert), never taken from here. Only keys found live are remembered: guesses cannot fill it.
 */
export class KeyOwners {
  private readonly appIds = new Map<string, string>();

  appOf(keyHash: string): string | undefined {
    return this.appIds.get(keyHash);
  }

  remember(keyHash: string, appId: string): void {
    if (this.appIds.size >= REMEMBERED_KEYS) this.appIds.delete(this.appIds.keys().next().value!);
    this.appIds.set(keyHash, appId);
  }

  forget(keyHash: string): void {
    this.appIds.delete(keyHash);
  }
}

/**
 * Who a merchant's call is from, for a route whose statement checks the key live itself: without a
 * read when this instance remembers the key (`remembered`), else by reading it (the 401 is sent and
 * undefined returned when it is not live).
 */
export async function merchantCaller(store: Store, owners: KeyOwners, req: Request, res: Response): Promise<{ caller: MerchantCaller; remembered: boolean } | undefined> {
  const key = secretKeyOf(req);
  if (!key) return refuse(res);
  const keyHash = hashSecret(key);
  const known = owners.appOf(keyHash);
  if (known) return { caller: { appId: known, keyHash }, remembered: true };
  const app = await findAppBySecretKey(store, key);
  if (!app) return refuse(res);
  owners.remember(keyHash, app.id);
  return { caller: { appId: app.id, keyHash }, remembered: false };
}

/** Whether the request's secret key is live now: what a remembered caller's refusal waits for, so that a dead key hears 401 first, as it would have. */
export async function secretKeyIsLive(store: Store, req: Request): Promise<boolean> {
  const key = secretKeyOf(req);
  return key !== undefined && (await findAppBySecretKey(store, key)) !== undefined;
}
