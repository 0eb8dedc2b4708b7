/** Platform mode's origin verification, taken as done: for tests about what a verified origin gets, not about how it is verified. */
import type { Store } from '../server/store';
import { recordOriginCheck } from '../server/store/origin-verifications';

/** Records a successful check of each of `origins` of the app (which must list them), as if its file had been fetched now. */
export async function markOriginsVerified(store: Store, appId: string, origins: readonly string[], now = Date.now()): Promise<void> {
  for (const origin of origins) {
    if (!(await recordOriginCheck(store, appId, origin, { ok: true }, now, now + 3_600_000))) throw new Error(`${origin} is not an allowed origin of ${appId}`);
  }
}
