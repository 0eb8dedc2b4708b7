/**
 * Checkout sessions: what the merchant's server creates and reads, and the
 * public view the widget reads with the client secret.
 */
import { z } from 'zod';
import { CardSummary } from './charges';
import { PaymentData, PaymentDataRequest, WalletEnvironment } from './google-pay';

export const CreateSessionBody = z.strictObject({
  amount: z.number().int().positive().max(99_999_999_999),
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'currency must be an ISO 4217 code').transform((c) => c.toUpperCase()),
  country_code: z.string().regex(/^[A-Za-z]{2}$/, 'country_code must be an ISO 3166-1 alpha-2 code').transform((c) => c.toUpperCase()),
  description: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
  intent: z.enum(['charge', 'hold']).default('charge'),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/**
 * open: waiting for the shopper; processing: a payment attempt is with the
 * service; succeeded / declined / failed: the last attempt's outcome
 * (declined and failed sessions may be paid again); pending: the outcome of an
 * attempt is unknown and is being confirmed.
 */
export const SessionStatus = z.enum(['open', 'processing', 'succeeded', 'declined', 'failed', 'pending']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const PaymentOutcome = z.object({
  status: z.enum(['succeeded', 'declined', 'failed', 'pending']),
  charge_id: z.string().nullable(),
  card: CardSummary.nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
});
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;

/** The merchant's view (secret key): everything but payment data. */
export const Session = z.object({
  id: z.string(),
  object: z.literal('checkout_session'),
  app_id: z.string(),
  status: SessionStatus,
  amount: z.number().int(),
  currency: z.string(),
  country_code: z.string(),
  description: z.string().nullable(),
  reference: z.string().nullable(),
  intent: z.enum(['charge', 'hold']),
  attempts: z.number().int(),
  outcome: PaymentOutcome.nullable(),
  created: z.number().int(),
  updated: z.number().int(),
});
export type Session = z.infer<typeof Session>;

/** The reply to POST /api/sessions: the only time the client secret is shown. */
export const CreatedSession = Session.extend({ client_secret: z.string() });
export type CreatedSession = z.infer<typeof CreatedSession>;

/** The widget's view (client secret): enough to show and pay, nothing more. */
export const PublicSession = z.object({
  id: z.string(),
  status: SessionStatus,
  amount: z.number().int(),
  currency: z.string(),
  description: z.string().nullable(),
  merchant_name: z.string(),
  wallet: z.object({
    environment: WalletEnvironment,
    /** Where the sandbox wallet script lives, when environment is SANDBOX. */
    sandbox_script: z.string().nullable(),
  }),
  payment_data_request: PaymentDataRequest,
  outcome: PaymentOutcome.nullable(),
});
export type PublicSession = z.infer<typeof PublicSession>;

/** POST /api/sessions/{id}/pay: the PaymentData exactly as the wallet returned it. */
export const PayBody = z.strictObject({ payment_data: PaymentData });
export type PayBody = z.infer<typeof PayBody>;
