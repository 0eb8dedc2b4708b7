/** `npm run direct-keys`'s command line (cli.ts; server/lib/command-line.ts): its sub-commands, flags and examples. */
import type { Command } from '../lib/command-line';

export const DIRECT_KEYS = {
  run: 'npm run direct-keys --',
  summary: "Manages a direct-mode application's Google Pay recipient keys, for every instance at once (they live in the store; docs/direct-mode.md).",
  commands: {
    create: "a new key (pending): prints the public key to register in Google's Pay & Wallet Console",
    register: 'with --key: Google has the key; from now on it goes into Google Pay requests',
    retire: 'with --key: it no longer opens tokens (--force to retire the last registered key)',
    list: "the app's keys, newest first",
  },
  flags: {
    app: { type: 'string', value: 'APP_ID', required: true, help: 'the direct-mode application (app_...)' },
    key: { type: 'string', value: 'KEY_ID', help: 'the key to register or retire (list shows the ids)' },
    force: { type: 'boolean', help: 'lets retire take the last registered key, which leaves the app unable to open new tokens' },
  },
  examples: [
    'npm run direct-keys -- create --app app_123',
    'npm run direct-keys -- list --app app_123',
    'npm run direct-keys -- register --app app_123 --key dk_456',
    'npm run direct-keys -- retire --app app_123 --key dk_456 --force',
  ],
} as const satisfies Command;
