/**
 * Changes an existing application: the merchant id Google issued (a store
 * created before it was kept apart from the payment service's may miss it; the
 * server names such apps at start), and more origins allowed to embed it.
 *   npm run app:update -- --app app_... --google-merchant-id BCR2DN4T... --origin https://shop.example
 */
import { type CommandLine, commandLine } from '../lib/command-line';
import { openStore } from '../store';
import { updateApp } from './registry';

const usage = 'Usage: npm run app:update -- --app APP_ID [--google-merchant-id ID] [--origin https://shop.example ...]';

const command: CommandLine = commandLine(usage);
const { values } = command.parse({
  options: { app: { type: 'string' }, 'google-merchant-id': { type: 'string' }, origin: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
});
if (!values.app) command.fail('--app is required.');
const config = command.config();
const store = await openStore(config.dataDir, config.databaseUrl, { limits: config.storeLimits });
const updated = await updateApp(store, values.app, { google_merchant_id: values['google-merchant-id'], add_origins: values.origin });
await store.destroy();
if (!updated.ok) {
  console.error(`Could not update the application: ${updated.error.message}`);
  process.exit(2);
}
console.log(`Application updated: ${updated.value.id} (${updated.value.name}), Google merchant ${updated.value.googleMerchantId ?? 'none'}, allowed origins ${updated.value.allowedOrigins.join(' ')}`);
