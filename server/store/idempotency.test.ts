/**
 * An Idempotency-Key freed by its holder (its request failed on our side) while another request's
 * claim is between its refused insert and its read of the row: the key is free, and the second
 * request takes it. The two steps are interleaved here by a plugin that frees the key right after
 * the insert conflicts, as another instance did under load (two instances capturing one hold).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimIdempotencyKey, releaseIdempotencyKey } from '../../common/store/idempotency';
import { backendMigrations } from './migrations';
import { type BackendDatabase, openDatabase, sqliteFile, type Store } from '.';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-idempotency-'));
  store = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
});
afterEach(async () => {
  await store.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `afterConflict` once, after the first insert that inserted nothing. */
const onInsertConflict = (afterConflict: () => Promise<void>): KyselyPlugin => {
  let done = false;
  return {
    transformQuery: (args) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (!done && args.result.numAffectedRows === 0n) {
        done = true;
        await afterConflict();
      }
      return args.result;
    },
  };
};

const claim = { scope: 'app_1:/api/sessions/cs_1/capture', key: 'k1', fingerprint: 'f', now: 1_000 };

describe('claimIdempotencyKey', () => {
  it('takes a key its holder frees between our refused insert and our read', async () => {
    expect(await claimIdempotencyKey(store, claim)).toEqual({ kind: 'claimed' });
    // The holder is another instance: a connection of its own (this one is busy with our claim's query).
    const holder = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
    try {
      const racing = store.withPlugin(onInsertConflict(() => releaseIdempotencyKey(holder, claim.scope, claim.key)));
      expect(await claimIdempotencyKey(racing, claim)).toEqual({ kind: 'claimed' });
    } finally {
      await holder.destroy();
    }
    // And the key is held again: a third request waits for it.
    expect(await claimIdempotencyKey(store, claim)).toEqual({ kind: 'in_progress' });
  });

  it('answers a key still held as in progress', async () => {
    expect(await claimIdempotencyKey(store, claim)).toEqual({ kind: 'claimed' });
    expect(await claimIdempotencyKey(store, claim)).toEqual({ kind: 'in_progress' });
  });
});
