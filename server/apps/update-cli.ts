/**
 * Changes an existing application: the merchant id Google issued (a store
 * created before it was kept apart from the payment service's may miss it; the
 * server names such apps at start), and more origins allowed to embed it.
 * Shows, and checks now, the verification of each allowed origin (platform
 * mode signs only for verified ones, docs/platform.md); with --verify-origins
 * it exits 1 while a platform-mode app has an origin that is not verified.
 *   npm run app:update -- --app app_... --google-merchant-id BCR2DN4T... --origin https://shop.example
 *   npm run app:update -- --app app_... --verify-origins
 */
import { signsFor, type OriginVerification, type OriginVerificationList } from '../../contracts';
import { ORIGIN_VERIFICATION_LAPSE_AFTER } from '../../contracts/origin-verification-rules';
import { originVerifications, verifyOrigin } from '../checkout/origin-verification';
import { type CommandLine, commandLine } from '../lib/command-line';
import { APP_UPDATE } from './commands';
import { loadConfig } from '../config';
import { describeStoreLocation, openStore } from '../store';
import { type App, getApp, updateApp } from './registry';

// Typed, so that its fail() narrows as a `never` call does.
const command: CommandLine<typeof APP_UPDATE.flags> = commandLine(APP_UPDATE);
const { values } = command.parse();
if (!values.app) command.fail('--app is required.');
const changing = values['google-merchant-id'] !== undefined || (values.origin?.length ?? 0) > 0;
const showing = values['show-origins'] === true || values['verify-origins'] === true;
if (!changing && !showing) command.fail('nothing to change: give a Google merchant id or an origin (or --show-origins, --verify-origins)');
const config = command.validConfig(loadConfig());
const store = await openStore(config.dataDir, config.databaseUrl, { limits: config.storeLimits });

async function appToShow(): Promise<App> {
  if (!changing) {
    const app = await getApp(store, values.app!);
    if (app) return app;
    await store.destroy();
    console.error(`No application ${values.app} in ${describeStoreLocation(config.dataDir, config.databaseUrl)}`);
    process.exit(2);
  }
  const updated = await updateApp(store, values.app!, { google_merchant_id: values['google-merchant-id'], add_origins: values.origin });
  if (!updated.ok) {
    await store.destroy();
    console.error(`Could not update the application: ${updated.error.message}`);
    process.exit(2);
  }
  console.log(`Application updated: ${updated.value.id} (${updated.value.name}), Google merchant ${updated.value.googleMerchantId ?? 'none'}, allowed origins ${updated.value.allowedOrigins.join(' ')}`);
  return updated.value;
}

const at = (time: number | null) => (time === null ? 'never' : new Date(time).toISOString());

function describe(list: OriginVerificationList): string[] {
  const heading = list.required
    ? 'Origin verification (platform mode: authJwts are signed for verified origins only; docs/platform.md):'
    : 'Origin verification (merchant mode: not needed; it matters once the application is in platform mode):';
  const origin = (item: OriginVerification) => [
    `  ${item.origin}: ${item.status}` + (item.status === 'loopback' ? ' (a development server takes it without a file)' : ` (verified ${at(item.verified_at)}, last checked ${at(item.last_checked)})`),
    `    file:  ${item.file_url}`,
    `    token: ${item.token}`,
    ...(item.last_failure === null ? [] : [`    last failure: ${item.last_failure} (${item.failed_checks} failed checks in a row; a verified origin lapses after ${ORIGIN_VERIFICATION_LAPSE_AFTER})`]),
  ];
  return [heading, ...list.data.flatMap(origin)];
}

const app = await appToShow();
let unverified = false;
if (showing) {
  // The operator's own command: no spacing between checks, it fetches every time it is asked.
  const deps = { store, config: { ...config.originVerification, verifyNowSpacingMs: 0 } };
  // All at once: at most 50 origins, each fetch bounded by ORIGIN_VERIFICATION_TIMEOUT_MS.
  if (values['verify-origins']) await Promise.all(app.allowedOrigins.map((origin) => verifyOrigin(deps, app, origin)));
  const list = await originVerifications(deps, app);
  console.log(describe(list).join('\n'));
  unverified = list.required && list.data.some((item) => !signsFor(item.status));
}
await store.destroy();
if (values['verify-origins'] && unverified) process.exit(1);
