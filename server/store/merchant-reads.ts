/**
 * What a merchant's call on one session reads, in one statement: the app of the secret key the call
 * carries (if the key is live), the session if it is that app's, and the session's refunds.
 * store/joined-rows.ts keeps the three tables' columns apart.
 */
import { APP_COLUMNS, type AppFieldsRow } from './apps';
import { prefixedColumns, unprefixedColumns } from './joined-rows';
import { REFUND_COLUMNS, type RefundFieldsRow } from './refunds';
import { liveSecretKeyWithApp } from './secret-keys';
import type { SessionRow } from './sessions';
import type { Store } from '.';

export interface MerchantSessionRows {
  app: AppFieldsRow;
  /** Undefined when there is no such session, or it is another app's. */
  session: SessionRow | undefined;
  /** The session's refunds, oldest first. */
  refunds: RefundFieldsRow[];
}

/** Undefined when no key has the digest `keyHash`, or it expired at `now`. */
export async function findSessionOfLiveKey(store: Store, keyHash: string, now: number, sessionId: string): Promise<MerchantSessionRows | undefined> {
  const rows: Record<string, unknown>[] = await liveSecretKeyWithApp(store, keyHash, now)
    .leftJoin('sessions', (join) => join.onRef('sessions.app_id', '=', 'apps.id').on('sessions.id', '=', sessionId))
    .leftJoin('refunds', 'refunds.session_id', 'sessions.id')
    .selectAll('sessions')
    .select((eb) => APP_COLUMNS.map((column) => eb.ref(`apps.${column}`).as(`app:${column}`)))
    .select((eb) => REFUND_COLUMNS.map((column) => eb.ref(`refunds.${column}`).as(`refund:${column}`)))
    .orderBy('refunds.created')
    .orderBy('refunds.id')
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  const session = unprefixedColumns(first);
  return {
    app: prefixedColumns(first, 'app') as AppFieldsRow,
    session: session.id === null ? undefined : (session as SessionRow),
    refunds: rows.map((row) => prefixedColumns(row, 'refund')).filter((refund) => refund.id !== null) as RefundFieldsRow[],
  };
}
