/**
 * Creates an application and prints its secret key, the only time it is shown,
 * with the store it wrote to and what the application will do: a merchant
 * whose server runs with another DATA_DIR or DATABASE_URL finds out here, not
 * from a 401 (docs/operations.md, "Creating applications").
 *   npm run app:create -- --name "My shop" --merchant-id 4242 --origin https://shop.example
 */
import { type CommandLine, commandLine } from '../lib/command-line';
import { APP_CREATE } from './commands';
import { loadConfig } from '../config';
import { describeStoreLocation, openStore } from '../store';
import { HEARTBEAT_STALE_AFTER_MS, liveServerUrls } from '../store/heartbeats';
import { describeIssues } from '../../common/http/errors';
import { createApp, NewApp } from './registry';

// Typed, so that its fail() narrows as a `never` call does.
const command: CommandLine<typeof APP_CREATE.flags> = commandLine(APP_CREATE);
const { values } = command.parse();
const config = command.validConfig(loadConfig());
const input = NewApp.safeParse({
  name: values.name,
  merchant_id: values['merchant-id'],
  google_merchant_id: values['google-merchant-id'],
  allowed_origins: values.origin ?? [],
  auth_methods: values['auth-method'],
  card_networks: values.network,
  environment: values.environment,
  decryption_mode: values['decryption-mode'] ?? config.decryptionMode,
  three_ds: values['three-ds'],
  google_pay_mode: values['google-pay-mode'],
});
if (!input.success) command.fail(`Could not create the application: ${describeIssues(input.error)}`);
const { dataDir, databaseUrl, walletEnvironment } = config;
const store = await openStore(dataDir, databaseUrl, { limits: config.storeLimits });
const created = await createApp(store, input.data);
const servers = await liveServerUrls(store, Date.now());
await store.destroy();
if (!created.ok) {
  console.error(`Could not create the application: ${created.error.message}`);
  process.exit(2);
}
const { app, secretKey } = created.value;
// A SANDBOX app follows the server's WALLET_ENVIRONMENT (checkout/routes.ts); this process can only say what its own environment sets.
const environment =
  app.environment === 'SANDBOX' ? `SANDBOX (the default: the widget uses the server's WALLET_ENVIRONMENT, ${walletEnvironment} in this environment)` : app.environment;
console.log(`Application created: ${app.id} (${app.name}, payment service merchant ${app.merchantId}, Google merchant ${app.googleMerchantId ?? 'none'})`);
console.log(`Secret key (shown once, keep it on your server): ${secretKey}`);
console.log(`Store: ${describeStoreLocation(dataDir, databaseUrl)}`);
console.log(`Wallet environment: ${environment}`);
console.log(`3-D Secure: ${app.threeDs}`);
console.log(`Decryption mode: ${app.decryptionMode}`);
if (servers.length > 0) {
  console.log(`Servers using this store: ${servers.join(', ')}`);
} else {
  const setting = databaseUrl ? 'DATABASE_URL' : 'DATA_DIR (and no DATABASE_URL)';
  console.error(
    `Warning: no running server is using this store (none has written its heartbeat in the last ${HEARTBEAT_STALE_AFTER_MS / 1000} s). ` +
      `The application is saved, but a server only finds it if it runs with the same ${setting}.`,
  );
}
