/**
 * Direct mode (seed's second mode): a PCI Level 1 merchant's backend opens
 * Google Pay tokens itself. Its Google Pay private keys live with the backend
 * (several, for rotation), and Google's root signing keys are fetched from a
 * configured path or URL, cached, and refreshed.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { App } from '../apps';
import { type RootSigningKey, RootSigningKeys } from '../contracts';
import type { DirectDecryption } from '../checkout/source';
import { privateDirectory } from '../lib/private-files';
import { err, ok } from '../lib/result';
import { exportPrivateKeyPkcs8, generateRecipientKeyPair, importPrivateKeyPkcs8, publicKeyToUncompressedBase64 } from '../wallet';

export interface DirectModeOptions {
  dataDir: string;
  /** Where Google's keys.json is: a file path, an https URL, or the keys themselves (the sandbox's). */
  rootKeys: string | readonly RootSigningKey[];
  refreshMs?: number;
}

export interface DirectMode extends DirectDecryption {
  /** The public key the wallet encrypts to, as Google's DIRECT tokenization parameters want it. */
  publicKeyFor(app: App): string;
}

const MerchantKeyFile = z.object({ private_keys: z.array(z.string()).min(1) });

/**
 * Keys are kept per app under data/direct-keys/<app>.json, newest first; a
 * key is created on first use. To rotate, put the new key first and keep the
 * old one until tokens sealed to it have expired.
 */
function merchantKeys(dataDir: string) {
  const dir = join(dataDir, 'direct-keys');
  const cache = new Map<string, KeyObject[]>();
  return (app: App): KeyObject[] => {
    const cached = cache.get(app.id);
    if (cached) return cached;
    const file = join(dir, `${app.id}.json`);
    if (!existsSync(file)) {
      privateDirectory(dir);
      const pair = generateRecipientKeyPair();
      writeFileSync(file, JSON.stringify({ private_keys: [exportPrivateKeyPkcs8(pair.privateKey)] }, null, 2), { mode: 0o600 });
    }
    const keys = MerchantKeyFile.parse(JSON.parse(readFileSync(file, 'utf8'))).private_keys.map(importPrivateKeyPkcs8);
    cache.set(app.id, keys);
    return keys;
  };
}

function rootKeySource(source: DirectModeOptions['rootKeys'], refreshMs: number): DirectDecryption['rootKeys'] {
  if (typeof source !== 'string') return async () => ok(source);
  let cached: { keys: readonly RootSigningKey[]; at: number } | undefined;
  const load = async () => {
    const text = /^https?:\/\//.test(source) ? await (await fetch(source, { signal: AbortSignal.timeout(5000) })).text() : readFileSync(source, 'utf8');
    return RootSigningKeys.parse(JSON.parse(text)).keys;
  };
  return async () => {
    if (!cached || Date.now() - cached.at >= refreshMs) {
      try {
        cached = { keys: await load(), at: Date.now() };
      } catch {
        // Keep using the last good keys if a refresh fails; without any, there is nothing to verify with.
        if (!cached) return err({ code: 'root_keys_unavailable', message: "Google's root signing keys could not be loaded" });
      }
    }
    return ok(cached.keys);
  };
}

export function createDirectMode(options: DirectModeOptions): DirectMode {
  const keysFor = merchantKeys(options.dataDir);
  return {
    privateKeysFor: keysFor,
    rootKeys: rootKeySource(options.rootKeys, options.refreshMs ?? 60 * 60 * 1000),
    publicKeyFor: (app) => publicKeyToUncompressedBase64(keysFor(app)[0] as KeyObject),
  };
}
