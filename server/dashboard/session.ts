/**
 * The dashboard's sign-in: the merchant types the app's secret key once; the
 * server exchanges it for a session of its own and the key goes no further
 * (not kept by the page, not in a URL, not in the store). The session is a
 * random token in an httpOnly, SameSite=Strict cookie (Secure whenever our
 * origin is https, which production requires), stored as its digest. Every
 * change also carries the session's CSRF token in a header and our Origin.
 * A session stands on the secret key that opened it and ends when that key
 * stops working (checked at each request, with the session, in one statement).
 * docs/dashboard.md tells the model and its periods.
 */
import { timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import { type App, findAppBySecretKey, getApp } from '../apps';
import { sendFailure } from '../../common/http/errors';
import { hashSecret, randomId } from '../../common/secrets';
import type { Store } from '../store';
import { deleteAppDashboardSessions, deleteDashboardSession, deleteDeadDashboardSessions, insertDashboardSession, type LiveSince, touchDashboardSession } from '../store/dashboard-sessions';

/** A session ends after this long without a request (a merchant who walked away from an open tab). */
export const DASHBOARD_IDLE_MS = 30 * 60 * 1000;
/** And after this long whatever its use: a stolen cookie is not good forever. */
export const DASHBOARD_MAX_AGE_MS = 12 * 60 * 60 * 1000;

export const DASHBOARD_COOKIE = 'wc_dashboard';
/** The header the page sends the CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';
const COOKIE_PATH = '/dashboard';

export interface DashboardSessionOptions {
  store: Store;
  ownOrigin: () => string;
}

export interface SignedIn {
  app: App;
  csrfToken: string;
  tokenHash: string;
}

const liveSince = (now: number): LiveSince => ({ lastSeen: now - DASHBOARD_IDLE_MS, created: now - DASHBOARD_MAX_AGE_MS, now });

const notSignedIn = { code: 'unauthenticated', message: 'Sign in to the dashboard first (your session may have expired)' };
const forbiddenOrigin = { code: 'csrf_refused', message: 'This change must come from the dashboard page itself' };

export function dashboardSessions(options: DashboardSessionOptions) {
  const { store } = options;
  const secure = () => options.ownOrigin().startsWith('https:');
  const setCookie = (res: Response, value: string, maxAgeSeconds: number) =>
    res.append('Set-Cookie', serializeCookie(DASHBOARD_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: secure(), path: COOKIE_PATH, maxAge: maxAgeSeconds }));
  const tokenOf = (req: Request): string | undefined => parseCookies(req.get('cookie') ?? '')[DASHBOARD_COOKIE];

  /** A change's request must come from our own page: its Origin is ours (browsers send it on every POST and DELETE). */
  const fromOurPage = (req: Request) => req.get('origin') === options.ownOrigin();

  /**
   * Exchanges a live secret key for a session tied to that key (it ends when
   * the key stops working); the reply carries the CSRF token, the cookie the
   * session's token.
   */
  async function signIn(req: Request, res: Response, secretKey: string): Promise<void> {
    if (!fromOurPage(req)) return sendFailure(res, forbiddenOrigin);
    const app = secretKey.startsWith('sk_') ? await findAppBySecretKey(store, secretKey) : undefined;
    if (!app) return sendFailure(res, { code: 'unauthenticated', message: 'This is not a live secret key of any application' });
    const now = Date.now();
    await deleteDeadDashboardSessions(store, liveSince(now));
    const token = randomId(32);
    const csrfToken = randomId(32);
    await insertDashboardSession(store, { token_hash: hashSecret(token), app_id: app.id, key_hash: hashSecret(secretKey), csrf_token: csrfToken, created: now, last_seen: now });
    setCookie(res, token, DASHBOARD_MAX_AGE_MS / 1000);
    res.status(201).json({ app: { id: app.id, name: app.name }, csrf_token: csrfToken, idle_timeout_ms: DASHBOARD_IDLE_MS });
  }

  /** The signed-in merchant of the request, its idle clock restarted; undefined when none, or its key stopped (the cookie is then cleared). */
  async function current(req: Request, res: Response): Promise<SignedIn | undefined> {
    const token = tokenOf(req);
    if (!token) return undefined;
    const now = Date.now();
    const tokenHash = hashSecret(token);
    const row = await touchDashboardSession(store, tokenHash, liveSince(now));
    const app = row && (await getApp(store, row.app_id));
    if (!row || !app) {
      setCookie(res, '', 0);
      return undefined;
    }
    return { app, csrfToken: row.csrf_token, tokenHash };
  }

  /** Middleware for every dashboard API route: a live session; on a change, our Origin and the session's CSRF token too. */
  async function required(req: Request, res: Response, next: NextFunction): Promise<void> {
    const signedIn = await current(req, res);
    if (!signedIn) return sendFailure(res, notSignedIn);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (!fromOurPage(req) || !sameToken(req.get(CSRF_HEADER), signedIn.csrfToken)) return sendFailure(res, forbiddenOrigin);
    }
    res.locals.dashboard = signedIn;
    next();
  }

  async function signOut(res: Response): Promise<void> {
    await deleteDashboardSession(store, signedInOf(res).tokenHash);
    setCookie(res, '', 0);
    res.status(204).end();
  }

  /** Sign out everywhere: ends every session of the signed-in app, this one included (a stolen cookie's too). */
  async function signOutEverywhere(res: Response): Promise<void> {
    await deleteAppDashboardSessions(store, signedInOf(res).app.id);
    setCookie(res, '', 0);
    res.status(204).end();
  }

  return { signIn, current, required, signOut, signOutEverywhere };
}

/** What `required` found, for the handlers after it. */
export const signedInOf = (res: Response): SignedIn => res.locals.dashboard as SignedIn;

function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
