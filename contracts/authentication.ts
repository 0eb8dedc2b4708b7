/**
 * 3-D Secure Authentication Sessions on a PAN_ONLY payment method (rule 3 of
 * the charge API's document). It names them without their path or payload: these shapes are the
 * sandbox's conventions (docs/service-conventions.md).
 */
import { z } from 'zod';
import { AuthenticationSessionId, Currency, PaymentMethodId } from './charges';
import { FRAMEABLE_URL_MESSAGE, isFrameableUrl } from './urls';

/** A 3-D Secure challenge page: the widget frames it on the merchant's page, so only a page URL will do. */
export const ChallengeUrl = z.url().refine(isFrameableUrl, `challenge_url ${FRAMEABLE_URL_MESSAGE}`);

export const CreateAuthenticationSession = z.strictObject({
  payment_method: PaymentMethodId,
  /** 0 for a card kept without a charge (intent setup): 3-D Secure 2's non-payment authentication. */
  amount: z.number().int().nonnegative().max(99_999_999_999),
  currency: Currency,
  /** The origin of the page that frames the challenge: the only one told its result. */
  return_origin: z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin),
  /**
   * Where the page at `return_origin` is itself framed (iframe mode: the merchant's page around
   * our checkout frame), the origins above it: a browser checks `frame-ancestors` against every
   * ancestor, so the challenge page lets these frame it too. They are told nothing.
   */
  ancestor_origins: z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)).max(4).optional(),
});
export type CreateAuthenticationSession = z.infer<typeof CreateAuthenticationSession>;
/** Who may frame a 3-D Secure challenge, and who hears its result. */
export type ChallengeFraming = Pick<CreateAuthenticationSession, 'return_origin' | 'ancestor_origins'>;

/**
 * authenticated: the charge may go ahead (frictionless, or a completed
 * challenge); challenge_required: the shopper must complete the challenge at
 * `challenge_url`; failed: the issuer refused; expired: nobody finished the
 * challenge in time.
 */
export const AuthenticationStatus = z.enum(['authenticated', 'challenge_required', 'failed', 'expired']);
export type AuthenticationStatus = z.infer<typeof AuthenticationStatus>;

export const AuthenticationSession = z.object({
  id: AuthenticationSessionId,
  object: z.literal('authentication_session'),
  status: AuthenticationStatus,
  payment_method: PaymentMethodId,
  amount: z.number().int(),
  currency: Currency,
  /** The page to frame while `challenge_required`; null once it needs no challenge. */
  challenge_url: ChallengeUrl.nullable(),
  /** ms since the epoch: a challenge not completed by then is `expired`. */
  expires_at: z.number().int(),
  created: z.number().int(),
});
export type AuthenticationSession = z.infer<typeof AuthenticationSession>;

/** What the challenge page posts to `return_origin` (window.parent.postMessage) once it is decided. */
export const CHALLENGE_MESSAGE_TYPE = 'wallet-checkout:challenge';
export interface ChallengeMessage {
  type: typeof CHALLENGE_MESSAGE_TYPE;
  id: string;
  status: AuthenticationStatus;
}
