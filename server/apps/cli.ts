/**
 * Creates an application and prints its secret key, the only time it is shown.
 *   npm run app:create -- --name "My shop" --merchant-id 4242 --origin https://shop.example
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openStore } from '../store';
import { createApp } from './registry';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    'merchant-id': { type: 'string' },
    origin: { type: 'string', multiple: true },
    'auth-method': { type: 'string', multiple: true },
    network: { type: 'string', multiple: true },
    environment: { type: 'string' },
    'decryption-mode': { type: 'string' },
  },
});

const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const store = await openStore(loaded.config.dataDir);
const created = await createApp(store, {
  name: values.name ?? '',
  merchant_id: values['merchant-id'] ?? '',
  allowed_origins: values.origin ?? [],
  ...(values['auth-method'] && { auth_methods: values['auth-method'] as never }),
  ...(values.network && { card_networks: values.network as never }),
  ...(values.environment && { environment: values.environment as never }),
  ...(values['decryption-mode'] && { decryption_mode: values['decryption-mode'] as never }),
});
await store.destroy();
if (!created.ok) {
  console.error(`Could not create the application: ${created.error.message}`);
  console.error('Usage: npm run app:create -- --name NAME --merchant-id ID --origin https://shop.example [--origin ...] [--auth-method PAN_ONLY|CRYPTOGRAM_3DS ...] [--network VISA ...] [--environment SANDBOX|TEST|PRODUCTION] [--decryption-mode gateway|direct]');
  process.exit(2);
}
const { app, secretKey } = created.value;
console.log(`Application created: ${app.id} (${app.name}, merchant ${app.merchantId})`);
console.log(`Secret key (shown once, keep it on your server): ${secretKey}`);
