/**
 * The issuer that does not answer in time (TestCard.unanswered): the service answers the first
 * UNANSWERED_TRIES requests under each of the merchant's Idempotency-Keys with a 503, nothing
 * processed, and processes the next, so a backend meets an unknown outcome and settles it by
 * replaying the same request, deterministically. Counted in memory: a restarted sandbox counts
 * again, which only delays the outcome. A charge without a key is answered at once: nothing could
 * replay it.
 */
import { UNANSWERED_TRIES } from './test-cards';

export interface LateIssuer {
  /** Whether this request under `key` is answered, counting it if not. */
  answers(merchantAccount: string, key: string | undefined): boolean;
}

export function createLateIssuer(tries = UNANSWERED_TRIES): LateIssuer {
  const unanswered = new Map<string, number>();
  return {
    answers(merchantAccount, key) {
      if (key === undefined) return true;
      const id = `${merchantAccount}\0${key}`;
      const count = unanswered.get(id) ?? 0;
      // Once answered, the key's reply is stored and replayed: this request is the last to reach the issuer.
      if (count >= tries) {
        unanswered.delete(id);
        return true;
      }
      unanswered.set(id, count + 1);
      return false;
    },
  };
}
