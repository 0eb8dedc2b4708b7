/**
 * An application's secret keys: rolled by the merchant (POST /api/keys/roll)
 * or by an operator (npm run app:roll-key), the old key kept alive for a
 * while so that servers can move to the new one without an outage.
 */
import { z } from 'zod';

/** Seven days: long enough to redeploy every server, short enough that a forgotten old key dies. */
export const MAX_KEY_OVERLAP_SECONDS = 604_800;
/** A day: a routine roll leaves time to deploy the new key; a leaked key is rolled with 0. */
export const DEFAULT_KEY_OVERLAP_SECONDS = 86_400;

export const KeyOverlapSeconds = z.int().min(0).max(MAX_KEY_OVERLAP_SECONDS);

/** POST /api/keys/roll (secret key). */
export const RollSecretKeyBody = z.strictObject({
  expire_current_in_seconds: KeyOverlapSeconds.default(DEFAULT_KEY_OVERLAP_SECONDS).meta({
    description: `How long the key that makes this call keeps working: 0 stops it now; at most ${MAX_KEY_OVERLAP_SECONDS} (7 days); ${DEFAULT_KEY_OVERLAP_SECONDS} (a day) when absent`,
  }),
}).meta({ id: 'RollSecretKeyBody' });
export type RollSecretKeyBody = z.input<typeof RollSecretKeyBody>;

/** The reply to a roll: the only time the new key is shown. */
export const RolledSecretKey = z.object({
  object: z.literal('secret_key'),
  secret: z.string().meta({ description: 'The new secret key, sk_test_... or sk_live_...: shown only here' }),
  created: z.number().int(),
  /** When the previous key stops working (ms since epoch); it never lives longer than it already would have. */
  previous_key_expires: z.number().int(),
}).meta({ id: 'RolledSecretKey' });
export type RolledSecretKey = z.infer<typeof RolledSecretKey>;
