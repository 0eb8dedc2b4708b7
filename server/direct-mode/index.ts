/**
 * Direct mode (the payment service's second integration mode): a PCI Level 1
 * merchant's backend opens Google Pay tokens itself. Its recipient keys are
 * provisioned explicitly in the store (keys.ts, `npm run direct-keys`);
 * Google's root signing keys come from keys.json of each app's environment
 * (root-keys.ts); each token's message id is remembered so that a replayed
 * token is refused by whichever instance receives it.
 */
import { type App, walletEnvironmentOf } from '../apps';
import type { DirectDecryption } from '../checkout/charge-source';
import type { RootSigningKey, WalletEnvironment } from '../../contracts';
import { type Failure, type Result, err } from '../../common/result';
import type { Store } from '../store';
import { purgeMessageIds, rememberMessageId } from '../store/direct';
import type { DirectKeys } from './keys';
import { createRootKeySource, type RootKeySource } from './root-keys';

export { createDirectKeys, type DirectKey, type DirectKeys } from './keys';
export { createRootKeySource, type RootKeySource } from './root-keys';

export interface DirectModeOptions {
  store: Store;
  keys: DirectKeys;
  /** The server's wallet environment: what a SANDBOX app's shoppers actually pay with. */
  walletEnvironment: WalletEnvironment;
  /** Where each environment's keys.json is: the sandbox's own (absent with a real service), or Google's. */
  rootKeys: { SANDBOX: string | undefined; TEST: string; PRODUCTION: string };
  /** How keys.json is fetched (tests give a fake Google). */
  fetch?: typeof fetch;
  onRootKeysRefreshFailed?: (failure: Failure) => void;
}

export interface DirectMode extends DirectDecryption {
  /** The public key the wallet encrypts to, as Google's DIRECT tokenization parameters want it. */
  publicKeyFor(app: App): Promise<Result<string, Failure>>;
  /** Resolves when no root-key refresh or message-id purge is under way (before the store closes). */
  settled(): Promise<void>;
}

/** How often this instance clears message ids whose tokens have expired. */
const PURGE_EVERY_MS = 60_000;
/**
 * A message id is kept this long past its token's expiry: another instance
 * whose clock is behind would still accept the token until then.
 */
const CLOCK_SKEW_MS = 5 * 60_000;

export function createDirectMode(options: DirectModeOptions): DirectMode {
  const now = Date.now;
  const sources = new Map<string, RootKeySource>();
  const sourceAt = (location: string) => {
    let source = sources.get(location);
    if (!source) {
      const plainHttpAllowed = location === options.rootKeys.SANDBOX;
      source = createRootKeySource({ location, fetch: options.fetch, now, onRefreshFailed: options.onRootKeysRefreshFailed, plainHttpAllowed });
      sources.set(location, source);
    }
    return source;
  };
  const rootKeys = async (app: App): Promise<Result<readonly RootSigningKey[], Failure>> => {
    const environment = walletEnvironmentOf(app, options.walletEnvironment);
    const location = options.rootKeys[environment];
    return location ? sourceAt(location).keys() : err({ code: 'root_keys_unavailable', message: 'A SANDBOX application is only paid through the sandbox, and this server uses a real payment service' });
  };
  let lastPurge = now();
  let purging: Promise<unknown> = Promise.resolve();

  return {
    openingKeysFor: (app) => options.keys.openingKeysFor(app),
    rootKeys,
    async publicKeyFor(app) {
      // The shopper pays shortly after the widget reads its view: loading the root keys now spares that payment the wait.
      void rootKeys(app);
      return options.keys.publicKeyFor(app);
    },
    async firstUse(messageId, expiresAt) {
      const first = await rememberMessageId(options.store, messageId, expiresAt);
      if (now() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now();
        // Housekeeping, off the payment's path: the shopper does not wait for it, and a purge that fails is done at the next one.
        purging = purgeMessageIds(options.store, lastPurge - CLOCK_SKEW_MS).catch(() => undefined);
      }
      return first;
    },
    async settled() {
      await Promise.all([...[...sources.values()].map((source) => source.settled()), purging]);
    },
  };
}
