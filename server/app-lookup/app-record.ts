/**
 * The App resource as the API returns it: Google's resource conventions
 * (`kind`, `id`, lowerCamelCase, RFC 3339 times) and the app's public checkout
 * configuration. Built field by field from the stored app, so a secret or key
 * digest cannot reach it by accident; the schema is also what `fields` is checked against.
 */
import { z } from 'zod';
import { type App, type AppProfile, IconCategory } from '../apps';
import { AuthMethod, CardNetwork, gatewayMerchantId, WalletEnvironment } from '../contracts';

const appKind = 'walletcheckout#app';

export const AppRecord = z.strictObject({
  kind: z.literal(appKind),
  id: z.string(),
  name: z.string(),
  shortDescription: z.string(),
  longDescription: z.string(),
  productUrl: z.string().optional(),
  icons: z.array(z.strictObject({ category: IconCategory, iconUrl: z.string(), size: z.int() })),
  securityAssessmentPassed: z.boolean(),
  createdTime: z.iso.datetime(),
  checkout: z.strictObject({
    environment: WalletEnvironment,
    /** The payment service's merchant id. */
    merchantId: z.string(),
    /** The merchant id Google issued (`merchantInfo.merchantId`), when the app has one. */
    googleMerchantId: z.string().optional(),
    tokenizationType: z.enum(['PAYMENT_GATEWAY', 'DIRECT']),
    gateway: z.string().optional(),
    gatewayMerchantId: z.string().optional(),
    allowedAuthMethods: z.array(AuthMethod),
    allowedCardNetworks: z.array(CardNetwork),
    allowedOrigins: z.array(z.string()),
  }),
});
export type AppRecord = z.infer<typeof AppRecord>;

export function toAppRecord(app: App, profile: AppProfile, gatewayName: string): AppRecord {
  const gateway = app.decryptionMode === 'gateway';
  return {
    kind: appKind,
    id: app.id,
    name: app.name,
    shortDescription: profile.shortDescription,
    longDescription: profile.longDescription,
    ...(profile.productUrl && { productUrl: profile.productUrl }),
    icons: profile.icons.map((icon) => ({ category: icon.category, iconUrl: icon.icon_url, size: icon.size })),
    securityAssessmentPassed: profile.securityAssessmentPassed,
    createdTime: new Date(app.created).toISOString(),
    checkout: {
      environment: app.environment,
      merchantId: app.merchantId,
      ...(app.googleMerchantId && { googleMerchantId: app.googleMerchantId }),
      tokenizationType: gateway ? 'PAYMENT_GATEWAY' : 'DIRECT',
      // A direct-mode app's tokens are sealed to its own key: no gateway is involved.
      ...(gateway && { gateway: gatewayName, gatewayMerchantId: gatewayMerchantId(app.merchantId) }),
      allowedAuthMethods: app.authMethods,
      allowedCardNetworks: app.cardNetworks,
      allowedOrigins: app.allowedOrigins,
    },
  };
}
