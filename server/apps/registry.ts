/**
 * Applications: each merchant site that embeds the widget. The secret key is
 * shown once at creation and only its digest is kept.
 */
import { z } from 'zod';
import { AllowedOrigin, AllowedOrigins, AuthMethod, authMethods, CardNetwork, cardNetworks, type CheckoutSettings, DecryptionMode, GoogleMerchantId, type Refund, type RolledSecretKey, ThreeDsPolicy, WalletEnvironment } from '../../contracts';

export { ThreeDsPolicy };
import { describeIssues } from '../../common/http/errors';
import { type Result, ok, err, type Failure } from '../../common/result';
import { hashSecret, randomId } from '../../common/secrets';
import type { Store } from '../store';
import { type AppFieldsRow, type AppRow, appRowsWithoutGoogleMerchantId, findAppRow, insertApp, setAllowedOrigins, setNewestSecretKey } from '../store/apps';
import { moveDashboardSessionToKey } from '../store/dashboard-sessions';
import { findSessionOfLiveKey } from '../store/merchant-reads';
import { toRefund } from '../store/refunds';
import { findSessionWithApp, type SessionRow } from '../store/sessions';
import { appOfLiveSecretKey, expireSecretKeys, insertSecretKey } from '../store/secret-keys';


/**
 * Whose Google merchant account asks Google Pay for the payment: `merchant`,
 * the merchant's own; `platform`, ours (Google Pay for platforms: our Google
 * merchant id and a signed authJwt vouching for the merchant's site, docs/platform.md).
 */
export const GooglePayMode = z.enum(['merchant', 'platform']);
export type GooglePayMode = z.infer<typeof GooglePayMode>;

const WebUrl = z.url({ protocol: /^https?$/ });

/** Only the app's own icon so far; the category leaves room for others (Google's App resources have several). */
export const IconCategory = z.enum(['application']);
export const AppIcon = z.strictObject({ category: IconCategory, icon_url: WebUrl, size: z.int().min(1).max(1024) });
export type AppIcon = z.infer<typeof AppIcon>;

/**
 * Where an app cannot go without its Google merchant id: Google's PRODUCTION
 * environment refuses a request without `merchantInfo.merchantId`, and a
 * direct-mode token is sealed to `merchant:<Google merchant id>`. Undefined
 * when the app may do without one.
 */
export function googleMerchantIdNeed(app: { environment: WalletEnvironment; decryptionMode: DecryptionMode; googlePayMode: GooglePayMode }): string | undefined {
  // A platform's requests carry the platform's own Google merchant id (docs/platform.md).
  if (app.googlePayMode === 'platform') return undefined;
  if (app.environment === 'PRODUCTION') return 'the PRODUCTION environment needs the Google merchant id';
  if (app.decryptionMode === 'direct') return 'direct mode seals tokens to merchant:<Google merchant id>';
  return undefined;
}

export const NewApp = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    /** The payment service's merchant id: `mrchnt_{merchant_id}` in the wallet's request. */
    merchant_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'merchant_id: letters, digits, _ and - only'),
    /** The id Google's Pay & Wallet Console issued: `merchantInfo.merchantId`. */
    google_merchant_id: GoogleMerchantId.optional(),
    allowed_origins: AllowedOrigins,
    auth_methods: z.array(AuthMethod).min(1).default([...authMethods]),
    card_networks: z.array(CardNetwork).min(1).default([...cardNetworks]),
    environment: WalletEnvironment.default('SANDBOX'),
    decryption_mode: DecryptionMode.default('gateway'),
    three_ds: ThreeDsPolicy.default('if_required'),
    short_description: z.string().trim().max(200).default(''),
    long_description: z.string().trim().max(4000).default(''),
    product_url: WebUrl.optional(),
    icons: z.array(AppIcon).max(10).default([]),
    security_assessment_passed: z.boolean().default(false),
    google_pay_mode: GooglePayMode.default('merchant'),
  })
  // A platform's token is addressed to the platform; direct mode decrypts with the merchant's own key.
  .refine((a) => !(a.google_pay_mode === 'platform' && a.decryption_mode === 'direct'), {
    message: 'google_pay_mode platform works with decryption_mode gateway only',
    path: ['google_pay_mode'],
  })
  .superRefine((app, ctx) => {
    const need = googleMerchantIdNeed({ environment: app.environment, decryptionMode: app.decryption_mode, googlePayMode: app.google_pay_mode });
    if (need && !app.google_merchant_id) ctx.addIssue({ code: 'custom', path: ['google_merchant_id'], message: `google_merchant_id is required: ${need}` });
  });
export type NewApp = z.input<typeof NewApp>;

export interface App {
  id: string;
  name: string;
  /** The payment service's merchant id. */
  merchantId: string;
  /** The merchant id Google issued; required in PRODUCTION and in direct mode (googleMerchantIdNeed). */
  googleMerchantId: string | undefined;
  allowedOrigins: string[];
  authMethods: AuthMethod[];
  cardNetworks: CardNetwork[];
  environment: WalletEnvironment;
  decryptionMode: DecryptionMode;
  threeDs: ThreeDsPolicy;
  googlePayMode: GooglePayMode;
  created: number;
}

/**
 * The wallet an app's shoppers pay with: a SANDBOX app follows the server's
 * wallet (the sandbox wallet, or Google's TEST pay.js on a server set up so).
 */
export const walletEnvironmentOf = (app: App, serverEnvironment: WalletEnvironment): WalletEnvironment =>
  app.environment === 'SANDBOX' ? serverEnvironment : app.environment;

/**
 * What an app publishes about itself. Kept apart from App so that code (and
 * tests) handling payments neither reads nor has to invent it.
 */
export interface AppProfile {
  shortDescription: string;
  longDescription: string;
  productUrl: string | undefined;
  icons: AppIcon[];
  /** Whether the app, as an OAuth client, passed the security assessment restricted scopes require. */
  securityAssessmentPassed: boolean;
}

// Built once: a zod schema costs some 60 µs to build and 3 µs to run, and every widget call reads its app.
const StoredOrigins = z.array(z.string());
const AuthMethods = z.array(AuthMethod);
const CardNetworks = z.array(CardNetwork);
const AppIcons = z.array(AppIcon);

export function toApp(row: AppFieldsRow): App {
  return {
    id: row.id,
    name: row.name,
    merchantId: row.merchant_id,
    googleMerchantId: row.google_merchant_id ?? undefined,
    allowedOrigins: StoredOrigins.parse(JSON.parse(row.allowed_origins)),
    authMethods: AuthMethods.parse(JSON.parse(row.auth_methods)),
    cardNetworks: CardNetworks.parse(JSON.parse(row.card_networks)),
    environment: WalletEnvironment.parse(row.environment),
    decryptionMode: DecryptionMode.parse(row.decryption_mode),
    threeDs: ThreeDsPolicy.parse(row.three_ds),
    googlePayMode: GooglePayMode.parse(row.google_pay_mode),
    created: row.created,
  };
}

function toProfile(row: AppRow): AppProfile {
  return {
    shortDescription: row.short_description,
    longDescription: row.long_description,
    productUrl: row.product_url ?? undefined,
    icons: AppIcons.parse(JSON.parse(row.icons)),
    securityAssessmentPassed: row.security_assessment_passed === 1,
  };
}

export async function createApp(store: Store, input: NewApp): Promise<Result<{ app: App; secretKey: string }, Failure<'invalid_app'>>> {
  const parsed = NewApp.safeParse(input);
  if (!parsed.success) return err({ code: 'invalid_app', message: describeIssues(parsed.error) });
  const a = parsed.data;
  const secretKey = newSecretKey(a.environment);
  const row: AppRow = {
    id: `app_${randomId(12)}`,
    name: a.name,
    merchant_id: a.merchant_id,
    google_merchant_id: a.google_merchant_id ?? null,
    secret_key_hash: hashSecret(secretKey),
    allowed_origins: JSON.stringify([...new Set(a.allowed_origins)]),
    auth_methods: JSON.stringify([...new Set(a.auth_methods)]),
    card_networks: JSON.stringify([...new Set(a.card_networks)]),
    environment: a.environment,
    decryption_mode: a.decryption_mode,
    three_ds: a.three_ds,
    google_pay_mode: a.google_pay_mode,
    created: Date.now(),
    short_description: a.short_description,
    long_description: a.long_description,
    product_url: a.product_url ?? null,
    icons: JSON.stringify(a.icons),
    security_assessment_passed: a.security_assessment_passed ? 1 : 0,
  };
  await store.transaction().execute((trx) => insertApp(trx, row));
  return ok({ app: toApp(row), secretKey });
}

/** `sk_live_` for a PRODUCTION app, `sk_test_` otherwise, so a test key is told apart at a glance. */
const newSecretKey = (environment: WalletEnvironment): string => `sk_${environment === 'PRODUCTION' ? 'live' : 'test'}_${randomId(24)}`;

export async function getApp(store: Store, id: string): Promise<App | undefined> {
  const row = await findAppRow(store, id);
  return row && toApp(row);
}

/** A session and its app, read in one statement: a widget call needs both. */
export async function findSessionAndApp(store: Store, sessionId: string): Promise<{ session: SessionRow; app: App } | undefined> {
  const found = await findSessionWithApp(store, sessionId);
  return found && { session: found.session, app: toApp(found.app) };
}

export async function getAppProfile(store: Store, id: string): Promise<{ app: App; profile: AppProfile } | undefined> {
  const row = await findAppRow(store, id);
  return row && { app: toApp(row), profile: toProfile(row) };
}

/**
 * The app a merchant's secret key belongs to, if the key has not expired. The
 * lookup is by the key's digest, so comparing the key itself in constant time
 * adds nothing: timing can only tell a digest, which is no use without the key.
 */
export async function findAppBySecretKey(store: Store, secretKey: string): Promise<App | undefined> {
  const row = await appOfLiveSecretKey(store, hashSecret(secretKey), Date.now());
  return row && toApp(row);
}

/**
 * Who a merchant's call is from: an app, and the digest of the secret key the call carries. A key
 * belongs to one app for good, so the pair never goes stale; whether the key is still live is for
 * the statement that acts on the call to check (store/sessions.ts insertSessionForLiveKey).
 */
export interface MerchantCaller {
  appId: string;
  keyHash: string;
}

/** Why a merchant's call is refused when its secret key is unknown or no longer live. */
export const unauthenticatedMerchant = { code: 'unauthenticated', message: 'A valid secret key is required: Authorization: Bearer sk_...' } as const satisfies Failure;

/**
 * For a merchant's call on one session, in one read: the app whose live secret key it carries
 * (undefined: none), the session if it is that app's, and the session's refunds (store/merchant-reads.ts).
 */
export async function findSessionBySecretKey(store: Store, secretKey: string, sessionId: string): Promise<{ app: App; session: SessionRow | undefined; refunds: Refund[] } | undefined> {
  const found = await findSessionOfLiveKey(store, hashSecret(secretKey), Date.now(), sessionId);
  return found && { app: toApp(found.app), session: found.session, refunds: found.refunds.map(toRefund) };
}

/**
 * A new secret key for the app, live at once. The keys live until now (only
 * `rolledKey`, the key that asked, when given; every one otherwise, as an
 * operator rolling a lost or leaked key wants) expire in `expireCurrentInSeconds`,
 * and with them the dashboard sessions they opened (store/dashboard-sessions.ts).
 * `dashboardSession`, the token digest of the dashboard session that asked (it
 * proved a live key and is shown the new one), moves to the new key in the same
 * transaction: it is the merchant, signed in with the new key in the same step.
 */
export async function rollSecretKey(store: Store, app: App, roll: { expireCurrentInSeconds: number; rolledKey?: string; dashboardSession?: string }): Promise<RolledSecretKey> {
  const secret = newSecretKey(app.environment);
  const hash = hashSecret(secret);
  const now = Date.now();
  const expires = await store.transaction().execute(async (trx) => {
    const previous = await expireSecretKeys(trx, { appId: app.id, hash: roll.rolledKey && hashSecret(roll.rolledKey), now, expires: now + roll.expireCurrentInSeconds * 1000 });
    await insertSecretKey(trx, { hash, app_id: app.id, created: now, expires: null });
    await setNewestSecretKey(trx, app.id, hash);
    if (roll.dashboardSession !== undefined) await moveDashboardSessionToKey(trx, { tokenHash: roll.dashboardSession, appId: app.id, keyHash: hash });
    return previous;
  });
  // With no key live before (an operator's roll after every key expired), nothing was left to expire: "now".
  return { object: 'secret_key', secret, created: now, previous_key_expires: Math.max(now, ...expires) };
}

/** Changes an app's origins and integration mode (the demo app follows its server's settings). */
export async function reconfigureApp(store: Store, id: string, changes: { allowedOrigins: string[]; decryptionMode: DecryptionMode; googleMerchantId: string }): Promise<void> {
  await store.transaction().execute((trx) => setAllowedOrigins(trx, id, changes.allowedOrigins, { decryption_mode: changes.decryptionMode, google_merchant_id: changes.googleMerchantId }));
}

/** The part of the checkout configuration the dashboard may change (docs/dashboard.md): the origins replace the app's. */
export async function changeCheckoutSettings(store: Store, id: string, settings: CheckoutSettings): Promise<void> {
  await store.transaction().execute((trx) => setAllowedOrigins(trx, id, settings.allowed_origins, { three_ds: settings.three_ds }));
}

/** What `npm run app:update` may change on an existing app. */
export const AppChanges = z
  .strictObject({
    google_merchant_id: GoogleMerchantId.optional(),
    /** Origins allowed from now on, besides the app's own. */
    add_origins: z.array(AllowedOrigin).default([]),
  })
  .refine((changes) => changes.google_merchant_id !== undefined || changes.add_origins.length > 0, 'nothing to change: give a Google merchant id or an origin');
export type AppChanges = z.input<typeof AppChanges>;

export async function updateApp(store: Store, id: string, input: AppChanges): Promise<Result<App, Failure<'invalid_app' | 'not_found'>>> {
  const parsed = AppChanges.safeParse(input);
  if (!parsed.success) return err({ code: 'invalid_app', message: describeIssues(parsed.error) });
  const changes = parsed.data;
  return store.transaction().execute(async (trx) => {
    const app = await getApp(trx, id);
    if (!app) return err({ code: 'not_found', message: `No application ${id}` });
    await setAllowedOrigins(trx, id, [...app.allowedOrigins, ...changes.add_origins], changes.google_merchant_id ? { google_merchant_id: changes.google_merchant_id } : {});
    return ok((await getApp(trx, id))!);
  });
}

/**
 * Apps that cannot take a payment as configured: PRODUCTION or direct-mode
 * apps without a Google merchant id (from a store created before the two ids
 * were apart). The server refuses to start while there are any.
 */
export async function appsLackingGoogleMerchantId(store: Store): Promise<{ app: App; need: string }[]> {
  const rows = await appRowsWithoutGoogleMerchantId(store);
  return rows.map(toApp).flatMap((app) => {
    const need = googleMerchantIdNeed(app);
    return need ? [{ app, need }] : [];
  });
}
