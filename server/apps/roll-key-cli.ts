/**
 * Rolls an application's secret key from the operator's side: when the
 * merchant lost every key, or one leaked and must stop now. Prints the new key
 * once; every key of the app live until now expires in the given time.
 *   npm run app:roll-key -- --app app_... [--expire-current-in-seconds 0]
 */
import { type CommandLine, commandLine } from '../lib/command-line';
import { APP_ROLL_KEY } from './commands';
import { loadConfig } from '../config';
import { DEFAULT_KEY_OVERLAP_SECONDS, KeyOverlapSeconds } from '../../contracts';
import { describeIssues } from '../../common/http/errors';
import { describeStoreLocation, openStore } from '../store';
import { getApp, rollSecretKey } from './registry';

// Typed, so that its fail() narrows as a `never` call does.
const command: CommandLine<typeof APP_ROLL_KEY.flags> = commandLine(APP_ROLL_KEY);
const { values } = command.parse();
if (!values.app) command.fail('--app is required.');
const given = values['expire-current-in-seconds'];
const overlap = KeyOverlapSeconds.safeParse(given === undefined ? DEFAULT_KEY_OVERLAP_SECONDS : /^\d+$/.test(given) ? Number(given) : given);
if (!overlap.success) command.fail(`--expire-current-in-seconds: ${describeIssues(overlap.error, 'a whole number of seconds')}`);
const config = command.validConfig(loadConfig());
const { dataDir, databaseUrl } = config;
const store = await openStore(dataDir, databaseUrl, { limits: config.storeLimits });
const app = await getApp(store, values.app);
if (!app) {
  await store.destroy();
  console.error(`No application ${values.app} in ${describeStoreLocation(dataDir, databaseUrl)}`);
  process.exit(2);
}
const rolled = await rollSecretKey(store, app, { expireCurrentInSeconds: overlap.data });
await store.destroy();
console.log(`New secret key for ${app.id} (${app.name}) (shown once, keep it on your server): ${rolled.secret}`);
console.log(`Previous keys stop working at ${new Date(rolled.previous_key_expires).toISOString()}`);
console.log(`Store: ${describeStoreLocation(dataDir, databaseUrl)}`);
