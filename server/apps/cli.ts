/**
 * Creates an application and prints its secret key, the only time it is shown.
 *   npm run app:create -- --name "My shop" --merchant-id 4242 --origin https://shop.example
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openStore } from '../store';
import { describeIssues } from '../http/errors';
import { createApp, NewApp } from './registry';

const usage =
  'Usage: npm run app:create -- --name NAME --merchant-id ID --origin https://shop.example [--origin ...] [--auth-method PAN_ONLY|CRYPTOGRAM_3DS ...] [--network VISA ...] [--environment SANDBOX|TEST|PRODUCTION] [--decryption-mode gateway|direct] [--three-ds if_required|always_for_pan_only] [--google-pay-mode merchant|platform]';

function parseOptions() {
  try {
    return parseArgs({
      options: {
        name: { type: 'string' },
        'merchant-id': { type: 'string' },
        origin: { type: 'string', multiple: true },
        'auth-method': { type: 'string', multiple: true },
        network: { type: 'string', multiple: true },
        environment: { type: 'string' },
        'decryption-mode': { type: 'string' },
        'three-ds': { type: 'string' },
        'google-pay-mode': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    // parseArgs says which option it did not understand; the stack trace would only hide it.
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const values = parseOptions();
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const input = NewApp.safeParse({
  name: values.name,
  merchant_id: values['merchant-id'],
  allowed_origins: values.origin ?? [],
  auth_methods: values['auth-method'],
  card_networks: values.network,
  environment: values.environment,
  decryption_mode: values['decryption-mode'] ?? loaded.config.decryptionMode,
  three_ds: values['three-ds'],
  google_pay_mode: values['google-pay-mode'],
});
if (!input.success) {
  console.error(`Could not create the application: ${describeIssues(input.error)}\n${usage}`);
  process.exit(2);
}
const store = await openStore(loaded.config.dataDir, loaded.config.databaseUrl);
const created = await createApp(store, input.data);
await store.destroy();
if (!created.ok) {
  console.error(`Could not create the application: ${created.error.message}`);
  process.exit(2);
}
const { app, secretKey } = created.value;
console.log(`Application created: ${app.id} (${app.name}, merchant ${app.merchantId})`);
console.log(`Secret key (shown once, keep it on your server): ${secretKey}`);
