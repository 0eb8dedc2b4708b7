/**
 * A merchant application of its own, written into a server's store as `npm run app:create` writes it, for
 * what the demo merchant cannot be used for: the demo store sets the demo application's quote endpoint to
 * its own at every start, so a soak that restarts the server, or a bench with an endpoint of its own,
 * needs an application no one else configures.
 */
import { createApp, type NewApp } from '../server/apps';
import { openStore } from '../server/store';

/** Creates the application in the store at `dataDir` (SQLite) or `databaseUrl`; its secret key. */
export async function createMerchantApp(where: { dataDir: string; databaseUrl?: string }, app: Pick<NewApp, 'name' | 'merchant_id' | 'allowed_origins'>): Promise<string> {
  const store = await openStore(where.dataDir, where.databaseUrl);
  try {
    const created = await createApp(store, app);
    if (!created.ok) throw new Error(created.error.message);
    return created.value.secretKey;
  } finally {
    await store.destroy();
  }
}
