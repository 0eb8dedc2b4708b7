/**
 * Webhook signing secrets. How a delivery is signed (and checked) is one shared definition,
 * server/contracts/webhook-signature.ts, which the Node library (packages/node) bundles too.
 */
import { randomId } from '../lib/secrets';

export { SIGNATURE_HEADER, signatureHeader } from '../contracts/webhook-signature';

export const newWebhookSecret = (): string => `whsec_${randomId(24)}`;
