/**
 * The App resource as the API returns it: Google's resource conventions
 * (`kind`, `id`, lowerCamelCase, RFC 3339 times) and the app's public checkout
 * configuration. Built field by field from the stored app, so a secret or key
 * digest cannot reach it by accident; the schema is also what `fields` is checked against.
 */
import { z } from 'zod';
import { type App, type AppProfile, IconCategory } from '../apps';
import { AuthMethod, CardNetwork, gatewayMerchantId, WalletEnvironment } from '../../contracts';

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

/** A schema with every field optional, at every level (inside arrays too), and still no field of its own. */
function partialOf(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional) return partialOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return z.array(partialOf(schema.element as z.ZodType));
  if (schema instanceof z.ZodObject) return z.strictObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => [name, partialOf(field).optional()])));
  return schema;
}

/**
 * What `fields` leaves of the record (a partial response, server/apps-api/fields.ts): only the
 * fields named, at any level (`checkout/merchantId` is `{"checkout": {"merchantId": ...}}`, `icons(size)`
 * keeps the size of each icon), so every field is optional; a field the record has is as in AppRecord.
 */
export const PartialAppRecord = partialOf(AppRecord).meta({
  id: 'PartialAppRecord',
  description: "A partial response: the fields `fields` named, each as in the full record (AppRecord); absent fields stay absent",
});

/** The reply of apps.get: the whole record, or with `fields` the part of it named. */
export const AppRecordReply = z.union([AppRecord.meta({ id: 'AppRecord', description: 'The application record, every field (no `fields` parameter)' }), PartialAppRecord]);

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
