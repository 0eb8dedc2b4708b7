/**
 * Webhook signing secrets. How a delivery is signed (and checked) is one shared definition,
 * contracts/webhook-signature.ts, which the Node library (packages/node) bundles too.
 */
import { randomId } from '../../common/secrets';

export { SIGNATURE_HEADER, signatureHeader } from '../../contracts/webhook-signature';

export const newWebhookSecret = (): string => `whsec_${randomId(24)}`;
