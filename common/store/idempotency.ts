/**
 * Idempotency keys, Stripe's way: the first request with a key runs and its
 * reply is kept; a retry with the same key and the same body gets that reply
 * again; the same key with another body is refused; a retry while the first
 * is still running is told so. Used by the backend (merchants creating
 * sessions) and by the sandbox service (charges), each on its own database.
 */
import type { Kysely, Migration, Transaction } from 'kysely';

export interface IdempotencyKeysTable {
  /** Whose key it is (an app, a merchant account): keys of different callers never meet. */
  scope: string;
  key: string;
  /** SHA-256 of the request body: a retry must send the same bytes. */
  fingerprint: string;
  /** Null while the first request with this key is still being processed. */
  status_code: number | null;
  response_body: string | null;
  created: number;
}

export interface IdempotencyDatabase {
  idempotency_keys: IdempotencyKeysTable;
}

export interface StoredReply {
  status: number;
  body: string;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'mismatch' } | { kind: 'in_progress' } | { kind: 'replay'; reply: StoredReply };

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Any database that has the table; Kysely's types cannot say "at least these tables", hence the one cast. */
type Db<DB> = Kysely<DB> | Transaction<DB>;
const keysOf = <DB extends IdempotencyDatabase>(db: Db<DB>) => db as unknown as Kysely<IdempotencyDatabase>;

/**
 * `abandonedAfterMs`: for owners whose instances share the table (the
 * backend on PostgreSQL), a claim older than any request can run belongs to a
 * process that died mid-request; a retry takes it over instead of being told
 * "in progress" forever.
 */
export async function claimIdempotencyKey<DB extends IdempotencyDatabase>(
  db: Db<DB>,
  claim: { scope: string; key: string; fingerprint: string; now: number; abandonedAfterMs?: number },
): Promise<IdempotencyClaim> {
  // The holder can free the key (releaseIdempotencyKey) between our insert's conflict and our read: the key is then free
  // to claim again. A second vanishing is a burst of claims and frees, which the caller meets as a request in progress.
  for (let attempt = 0; attempt < 2; attempt++) {
    const claimed = await tryClaimIdempotencyKey(db, claim);
    if (claimed) return claimed;
  }
  return { kind: 'in_progress' };
}

/** One claim: undefined when the key that refused our insert was freed before it could be read. */
async function tryClaimIdempotencyKey<DB extends IdempotencyDatabase>(
  db: Db<DB>,
  claim: { scope: string; key: string; fingerprint: string; now: number; abandonedAfterMs?: number },
): Promise<IdempotencyClaim | undefined> {
  const keys = keysOf(db);
  const inserted = await keys
    .insertInto('idempotency_keys')
    .values({ scope: claim.scope, key: claim.key, fingerprint: claim.fingerprint, status_code: null, response_body: null, created: claim.now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'claimed' };

  const existing = await keys.selectFrom('idempotency_keys').selectAll().where('scope', '=', claim.scope).where('key', '=', claim.key).executeTakeFirst();
  if (!existing) return undefined;
  if (existing.fingerprint !== claim.fingerprint) return { kind: 'mismatch' };
  if (existing.status_code === null || existing.response_body === null) {
    const abandoned = claim.abandonedAfterMs !== undefined && existing.created <= claim.now - claim.abandonedAfterMs;
    if (!abandoned) return { kind: 'in_progress' };
    // Compare-and-set on `created`: of several retries taking over, one wins.
    const taken = await keys
      .updateTable('idempotency_keys')
      .set({ created: claim.now })
      .where('scope', '=', claim.scope)
      .where('key', '=', claim.key)
      .where('status_code', 'is', null)
      .where('created', '=', existing.created)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? { kind: 'claimed' } : { kind: 'in_progress' };
  }
  return { kind: 'replay', reply: { status: existing.status_code, body: existing.response_body } };
}

export async function completeIdempotencyKey<DB extends IdempotencyDatabase>(db: Db<DB>, scope: string, key: string, reply: StoredReply): Promise<void> {
  await keysOf(db).updateTable('idempotency_keys').set({ status_code: reply.status, response_body: reply.body }).where('scope', '=', scope).where('key', '=', key).execute();
}

/** Frees a key whose request failed on our side, so the client's retry is processed rather than stuck. */
export async function releaseIdempotencyKey<DB extends IdempotencyDatabase>(db: Db<DB>, scope: string, key: string): Promise<void> {
  await keysOf(db).deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('status_code', 'is', null).execute();
}

/**
 * Frees every key whose first request never finished. Only for a service
 * that is the table's one user, when it starts: nothing of its own can still
 * be running then, and the work and its reply commit together, so such a
 * request died with the previous process having done nothing.
 */
export async function releaseUnfinishedIdempotencyKeys<DB extends IdempotencyDatabase>(db: Db<DB>): Promise<void> {
  await keysOf(db).deleteFrom('idempotency_keys').where('status_code', 'is', null).execute();
}

/** The table, for each owner's migrations. */
/** Forgets the keys claimed before `before`, with their kept replies; returns how many. */
export async function purgeIdempotencyKeys<DB extends IdempotencyDatabase>(db: Db<DB>, before: number): Promise<number> {
  const deleted = await keysOf(db).deleteFrom('idempotency_keys').where('created', '<', before).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

export const createIdempotencyKeysTable: Migration['up'] = async (db) => {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
};
