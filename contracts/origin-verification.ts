/**
 * Platform mode's proof that an application controls each of its allowed
 * origins before we sign Google Pay authJwts for it (docs/platform.md): a file
 * under /.well-known/ on the origin holding the origin's verification token.
 */
import { z } from 'zod';

export { ORIGIN_VERIFICATION_LAPSE_AFTER, ORIGIN_VERIFICATION_PATH } from './origin-verification-rules';

/**
 * `verified`: the file held the token at the last success, and fewer than three checks in a row failed
 * since; `pending`: never verified yet; `lapsed`: verified once, then three checks in a row failed;
 * `loopback`: a loopback origin on a development server, accepted without a file (never in production).
 */
export const OriginVerificationStatus = z.enum(['verified', 'pending', 'lapsed', 'loopback']);
export type OriginVerificationStatus = z.infer<typeof OriginVerificationStatus>;

/** Whether authJwts may be signed for an origin of this status. */
export const signsFor = (status: OriginVerificationStatus): boolean => status === 'verified' || status === 'loopback';

export const OriginVerification = z
  .object({
    object: z.literal('origin_verification'),
    origin: z.string().meta({ description: 'One of the application\'s allowed origins' }),
    status: OriginVerificationStatus.meta({
      description:
        'verified: the file held the token at the last success, and fewer than 3 checks in a row failed since; pending: never verified; lapsed: verified once, then 3 checks in a row failed; loopback: a loopback origin on a development server, accepted without a file (never in production). Only verified and loopback origins get an authJwt.',
    }),
    file_url: z.string().meta({ description: 'Where the file is fetched: the origin, then /.well-known/wallet-checkout-verification.txt (served with a 200, no redirect, at most 4,096 bytes)' }),
    token: z.string().meta({ description: 'The line the file must hold (one token a line: one origin may serve several applications\' tokens). Not a secret: it is published; random, so it cannot be guessed, and good for this application and origin only' }),
    verified_at: z.number().int().nullable().meta({ description: 'The last successful check (ms since the epoch); null if none' }),
    last_checked: z.number().int().nullable().meta({ description: 'The last check, successful or not; null if none yet' }),
    last_failure: z.string().nullable().meta({ description: 'Why the last check failed; null after a success' }),
    failed_checks: z.number().int().meta({ description: 'Checks failed in a row since the last success: 3 lapse a verified origin' }),
    next_check: z.number().int().nullable().meta({ description: 'When the periodic re-check is due; null where none runs (an application not in platform mode, a loopback origin on a development server)' }),
  })
  .meta({ id: 'OriginVerification' });
export type OriginVerification = z.infer<typeof OriginVerification>;

export const OriginVerificationList = z
  .object({
    object: z.literal('list'),
    data: z.array(OriginVerification),
    has_more: z.literal(false),
    required: z.boolean().meta({ description: 'Whether the application is in platform mode, whose authJwts are signed for verified origins only; an application in merchant mode needs no verification' }),
  })
  .meta({ id: 'OriginVerificationList' });
export type OriginVerificationList = z.infer<typeof OriginVerificationList>;

/** POST /api/origin_verifications/verify: check one of the application's origins now. */
export const VerifyOriginBody = z
  .strictObject({
    origin: z.string().min(1).max(2048).meta({ description: "One of the application's allowed origins, as GET /api/origin_verifications lists it" }),
  })
  .meta({ id: 'VerifyOriginBody' });
export type VerifyOriginBody = z.infer<typeof VerifyOriginBody>;
