/**
 * Sets what an existing application lacks. So far: the merchant id Google
 * issued, which a store created before it was kept apart from the payment
 * service's merchant id may miss (the server names such apps at start).
 *   npm run app:update -- --app app_... --google-merchant-id BCR2DN4T...
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openStore } from '../store';
import { setGoogleMerchantId } from './registry';

const usage = 'Usage: npm run app:update -- --app APP_ID --google-merchant-id ID';

const values = (() => {
  try {
    return parseArgs({ options: { app: { type: 'string' }, 'google-merchant-id': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
})();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.app || !values['google-merchant-id']) {
  console.error(`--app and --google-merchant-id are required.\n${usage}`);
  process.exit(2);
}
const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const store = await openStore(loaded.config.dataDir, loaded.config.databaseUrl, { limits: loaded.config.storeLimits });
const updated = await setGoogleMerchantId(store, values.app, values['google-merchant-id']);
await store.destroy();
if (!updated.ok) {
  console.error(`Could not update the application: ${updated.error.message}`);
  process.exit(2);
}
console.log(`Application updated: ${updated.value.id} (${updated.value.name}), Google merchant ${updated.value.googleMerchantId}`);
