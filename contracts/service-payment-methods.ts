/**
 * The payment service's payment methods that are kept for later charges: the charge API's document names
 * a "payment method record created from a wallet token" and shows nothing of it, so these shapes are
 * conventions of ours, owned by the sandbox (docs/service-conventions.md#kept-payment-methods).
 */
import { z } from 'zod';
import { CardSummary, PaymentMethodId } from './charges';

const ChargeId = z.string().regex(/^ch_[A-Za-z0-9]{1,64}$/, 'a charge id (ch_...)');

/**
 * The customer a card is kept for, as the service knows it: an opaque key the backend derives from the
 * application and the merchant's customer reference, so that the reference itself never leaves the backend.
 */
export const ServiceCustomerKey = z.string().regex(/^cus_[A-Za-z0-9_-]{1,64}$/, 'a customer key (cus_...)');

/** POST {base_url}/api/v1/payment_methods: keep the card of a charge that was made to keep it (stored_credential.initiator customer). */
export const KeepPaymentMethodRequest = z.strictObject({ charge: ChargeId, customer: ServiceCustomerKey }).meta({ id: 'KeepPaymentMethodRequest' });
export type KeepPaymentMethodRequest = z.infer<typeof KeepPaymentMethodRequest>;

/**
 * A payment method the service keeps for a customer, one per card (its `fingerprint`, the same for the
 * card whichever way the wallet gave it) and customer: keeping the same card again answers the same one,
 * with the newer charge's card and network reference.
 */
export const KeptPaymentMethod = z.object({
  id: PaymentMethodId,
  object: z.literal('payment_method'),
  customer: ServiceCustomerKey,
  card: CardSummary,
  /** The same for the same card number, for this merchant only: never the number, nor derivable from it without the service's key. */
  fingerprint: z.string(),
  /** The network's reference of the customer-initiated charge it was kept from: merchant-initiated charges name it. */
  network_transaction_reference: z.string(),
  status: z.enum(['active', 'detached']),
  created: z.number().int(),
}).meta({ id: 'KeptPaymentMethod' });
export type KeptPaymentMethod = z.infer<typeof KeptPaymentMethod>;

/** A card the network updated (a new expiry, a reissued card's last four), as the service's feed lists it. */
export const PaymentMethodUpdate = z.object({
  id: z.string(),
  object: z.literal('payment_method_update'),
  /** Increasing per merchant: the feed is read after the last one seen. */
  sequence: z.number().int(),
  payment_method: PaymentMethodId,
  card: CardSummary,
  created: z.number().int(),
}).meta({ id: 'PaymentMethodUpdate' });
export type PaymentMethodUpdate = z.infer<typeof PaymentMethodUpdate>;

/** GET {base_url}/api/v1/payment_method_updates?after=&limit=: oldest first. */
export const PaymentMethodUpdateList = z.object({ object: z.literal('list'), data: z.array(PaymentMethodUpdate), has_more: z.boolean() });
export type PaymentMethodUpdateList = z.infer<typeof PaymentMethodUpdateList>;

/** The sandbox's stand-in for the network's card updater (POST {base_url}/test_helpers/payment_methods/{id}/card_update): the card's new expiry, and last four when it was reissued. */
export const SimulatedCardUpdate = z.strictObject({
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2100),
  last4: z.string().regex(/^\d{4}$/).optional(),
}).meta({ id: 'SimulatedCardUpdate' });
export type SimulatedCardUpdate = z.infer<typeof SimulatedCardUpdate>;
