/**
 * Direct-mode keys for tests, provisioned the way an operator does with
 * `npm run direct-keys`: created, then marked registered. The server never
 * makes one by itself, so every direct-mode test app gets its key here.
 */
import type { DirectKey, DirectKeys } from '../server/direct-mode';

export async function registeredDirectKey(keys: DirectKeys, appId: string): Promise<DirectKey> {
  const created = await keys.create(appId);
  const registered = await keys.register(appId, created.id);
  if (!registered.ok) throw new Error(registered.error.message);
  return registered.value;
}
