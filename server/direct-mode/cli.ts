/**
 * Provisions a direct-mode app's Google Pay recipient keys, for the whole
 * fleet at once (they live in the store):
 *   npm run direct-keys -- create --app ID       prints the public key to register with Google
 *   npm run direct-keys -- register --app ID --key KEY_ID
 *   npm run direct-keys -- retire --app ID --key KEY_ID
 *   npm run direct-keys -- list --app ID
 */
import { join } from 'node:path';
import { getApp } from '../apps';
import { type CommandLine, commandLine } from '../lib/command-line';
import { DIRECT_KEYS } from './command';
import { loadConfig } from '../config';
import { createDataCipher, loadDataKey } from '../lib/data-cipher';
import { openStore } from '../store';
import { createDirectKeys, type DirectKey } from '.';

const commands = Object.keys(DIRECT_KEYS.commands) as (keyof typeof DIRECT_KEYS.commands)[];
type Command = (typeof commands)[number];

// Typed, so that its fail() narrows as a `never` call does.
const cli: CommandLine<typeof DIRECT_KEYS.flags> = commandLine(DIRECT_KEYS);
const { values, positionals } = cli.parse();
const [command, ...extra] = positionals;
if (!commands.includes(command as Command) || extra.length > 0) cli.fail(command ? `Unknown command: ${positionals.join(' ')}` : 'A command is required');
if (!values.app) cli.fail('--app is required');
if ((command === 'register' || command === 'retire') && !values.key) cli.fail(`${command} needs --key KEY_ID (npm run direct-keys -- list --app ${values.app})`);

const config = cli.validConfig(loadConfig());
const store = await openStore(config.dataDir, config.databaseUrl, { limits: config.storeLimits });
// The same key as the server's: every instance must be able to open what this seals.
const keys = createDirectKeys(store, createDataCipher(loadDataKey(config.dataEncryptionKey, join(config.dataDir, 'secrets', 'data.key'))));
const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());
const line = (key: DirectKey) => `${key.id}  ${key.status.padEnd(10)}  created ${when(key.created)}  registered ${when(key.registered)}  retired ${when(key.retired)}\n  ${key.publicKey}`;

async function run(appId: string, keyId: string | undefined): Promise<number> {
  const app = await getApp(store, appId);
  if (!app) {
    console.error(`No application ${appId}`);
    return 2;
  }
  switch (command as Command) {
    case 'create': {
      const key = await keys.create(app.id);
      console.log(`Key ${key.id} created for ${app.id} (${app.name}); pending: Google Pay requests do not carry it yet.`);
      console.log("Register this public key in Google's Pay & Wallet Console (direct integration):");
      console.log(key.publicKey);
      console.log(`Once Google has it: npm run direct-keys -- register --app ${app.id} --key ${key.id}`);
      if (app.decryptionMode !== 'direct') console.log(`Note: ${app.id} is in ${app.decryptionMode} mode; its requests use no key of its own until it is in direct mode.`);
      return 0;
    }
    case 'register': {
      const registered = await keys.register(app.id, keyId as string);
      if (!registered.ok) return report(registered.error.message);
      console.log(`Key ${keyId} registered: new Google Pay requests of ${app.id} carry it; keys registered before it still open what was sealed to them until retired.`);
      return 0;
    }
    case 'retire': {
      const registered = (await keys.list(app.id)).filter((key) => key.status === 'registered');
      if (!values.force && registered.length === 1 && registered[0]?.id === keyId) {
        return report(`Key ${keyId} is the only registered key of ${app.id}: retiring it stops every payment (register a new one first, or --force)`);
      }
      const retired = await keys.retire(app.id, keyId as string);
      if (!retired.ok) return report(retired.error.message);
      console.log(`Key ${keyId} retired: what the wallet sealed to it is refused from now on.`);
      return 0;
    }
    case 'list': {
      const all = await keys.list(app.id);
      console.log(all.length > 0 ? all.map(line).join('\n') : `${app.id} has no direct-mode keys: npm run direct-keys -- create --app ${app.id}`);
      return 0;
    }
  }
}

function report(message: string): number {
  console.error(message);
  return 2;
}

const status = await run(values.app, values.key);
await store.destroy();
process.exit(status);
