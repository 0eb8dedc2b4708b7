/**
 * Expiry: an unpaid session stops taking payments at its `expires_at`, and
 * becomes `expired` (final; the event `session.expired`). Two ways get it
 * there, both through `moveSession`, a compare-and-set, so whichever comes
 * first moves it and the event is written once: the request that finds it past
 * due (the widget's calls, the merchant's read), and the sweep of every
 * reconciliation pass, which moves the sessions nobody asks about.
 *
 * A session with an attempt in flight (processing, pending) is not expired: the
 * card may have been charged. Its attempt settles first; if it comes back
 * unpaid, the next sweep expires it.
 */
import { SessionStatus } from '../../contracts';
import { EXPIRABLE_STATUSES, nextExpiry, pastDueSessionIds } from '../store/session-expiry';
import { findSession, type SessionRow } from '../store/sessions';
import { moveSession, type SessionStore } from './states';

const isPastDue = (session: SessionRow, now: number): boolean => session.expires_at <= now && EXPIRABLE_STATUSES.includes(SessionStatus.parse(session.status));

/** The session as expired, or undefined when it was not expirable any more. */
const expire = ({ store, cipher }: SessionStore, sessionId: string): Promise<SessionRow | undefined> =>
  store.transaction().execute((trx) => moveSession(trx, cipher, sessionId, EXPIRABLE_STATUSES, 'expired'));

/** The session as it stands, expired first if its time is up (by this request, or by whoever got there first). */
export async function expiredIfPastDue(deps: SessionStore, session: SessionRow): Promise<SessionRow> {
  if (!isPastDue(session, Date.now())) return session;
  return (await expire(deps, session.id)) ?? (await findSession(deps.store, session.id)) ?? session;
}

/** Sessions read per query of a sweep: each is one small transaction, and a large backlog is read in batches. */
const SWEEP_BATCH = 100;

/**
 * Expires every session past due at `now`; returns how many this call moved.
 * Safe to run on several instances at once: a session another moved first is
 * no longer in an expirable status, so it is neither moved nor read again.
 */
export async function expirePastDueSessions(deps: SessionStore, now = Date.now()): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await pastDueSessionIds(deps.store, now, SWEEP_BATCH);
    for (const id of due) if ((await expire(deps, id)) !== undefined) expired++;
    if (due.length < SWEEP_BATCH) return expired;
  }
}

/** When the next unpaid session expires, if any: the sweep runs then rather than on its idle interval. */
export const nextSessionExpiry = ({ store }: Pick<SessionStore, 'store'>): Promise<number | undefined> => nextExpiry(store);
