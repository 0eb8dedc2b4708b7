/**
 * The applications' operator commands as their command lines read (server/lib/command-line.ts):
 * each flag, what it does, and examples that use every one. The scripts are cli.ts (app:create),
 * update-cli.ts (app:update) and roll-key-cli.ts (app:roll-key).
 */
import { DEFAULT_KEY_OVERLAP_SECONDS, MAX_KEY_OVERLAP_SECONDS } from '../../contracts';
import { authMethods, cardNetworks } from '../../contracts/payment-methods';
import type { Command } from '../lib/command-line';

export const APP_CREATE = {
  run: 'npm run app:create --',
  summary:
    "Creates a merchant application and prints its secret key, the only time it is shown, with the store it wrote to (DATA_DIR or DATABASE_URL: run it with the server's settings) and what the application will do.",
  flags: {
    name: { type: 'string', value: 'NAME', required: true, help: "the shop's name, shown to shoppers in the wallet's sheet and in the dashboard" },
    'merchant-id': { type: 'string', value: 'ID', required: true, help: "the payment service's merchant id (letters, digits, _ and -)" },
    origin: { type: 'string', multiple: true, value: 'https://shop.example', required: true, help: 'an origin allowed to embed the widget (scheme, host and port only)' },
    'google-merchant-id': { type: 'string', value: 'ID', help: "the merchant id Google's Pay & Wallet Console issued; required for PRODUCTION and direct mode (docs/go-live.md)" },
    'auth-method': { type: 'string', multiple: true, value: authMethods.join('|'), help: 'a card authentication method the wallet may offer (default: both)' },
    network: { type: 'string', multiple: true, value: cardNetworks.join('|'), help: 'a card network accepted (default: all of them)' },
    environment: { type: 'string', value: 'SANDBOX|TEST|PRODUCTION', help: "the Google Pay environment (default SANDBOX: the server's WALLET_ENVIRONMENT)" },
    'decryption-mode': { type: 'string', value: 'gateway|direct', help: "who decrypts the wallet's token: the payment service (gateway), or this backend with the app's own keys (direct, docs/direct-mode.md); default: DECRYPTION_MODE" },
    'three-ds': { type: 'string', value: 'if_required|always_for_pan_only', help: '3-D Secure policy: when the issuer asks (default), or on every PAN_ONLY card (docs/holds-and-3ds.md)' },
    'google-pay-mode': { type: 'string', value: 'merchant|platform', help: "merchant (default): under the app's Google merchant id; platform: under ours, with an authJwt (docs/platform.md)" },
  },
  examples: [
    'npm run app:create -- --name "My shop" --merchant-id 4242 --origin https://shop.example',
    'npm run app:create -- --name "My shop" --merchant-id 4242 --origin https://shop.example --origin https://www.shop.example --google-merchant-id BCR2DN6TXXXXXXXX --environment PRODUCTION',
    'npm run app:create -- --name "Card shop" --merchant-id 77 --origin https://cards.example --auth-method PAN_ONLY --network VISA --network MASTERCARD --three-ds always_for_pan_only',
    'npm run app:create -- --name "Direct shop" --merchant-id 88 --origin https://direct.example --google-merchant-id BCR2DN6TXXXXXXXX --decryption-mode direct',
    'npm run app:create -- --name "Platform shop" --merchant-id 99 --origin https://platform.example --google-pay-mode platform',
  ],
} as const satisfies Command;

export const APP_UPDATE = {
  run: 'npm run app:update --',
  summary:
    "Changes an application: the merchant id Google issued, one more allowed origin; shows, and checks now, each allowed origin's verification (platform mode signs only for verified ones, docs/platform.md).",
  flags: {
    app: { type: 'string', value: 'APP_ID', required: true, help: 'the application to change or show (app_...)' },
    'google-merchant-id': { type: 'string', value: 'ID', help: "sets the merchant id Google's Pay & Wallet Console issued (docs/go-live.md)" },
    origin: { type: 'string', multiple: true, value: 'https://shop.example', help: 'adds an origin allowed to embed the widget' },
    'show-origins': { type: 'boolean', help: "each allowed origin's verification (platform mode): the file to publish, its token, the last check" },
    'verify-origins': { type: 'boolean', help: 'checks every allowed origin now, then shows them; exits 1 if a platform-mode app keeps one unverified' },
  },
  examples: [
    'npm run app:update -- --app app_123 --google-merchant-id BCR2DN6TXXXXXXXX',
    'npm run app:update -- --app app_123 --origin https://new.shop.example',
    'npm run app:update -- --app app_123 --show-origins',
    'npm run app:update -- --app app_123 --verify-origins',
  ],
} as const satisfies Command;

export const APP_ROLL_KEY = {
  run: 'npm run app:roll-key --',
  summary: 'Gives an application a new secret key, printed once (when the merchant lost every key, or one leaked); every key live until now stops after the overlap.',
  flags: {
    app: { type: 'string', value: 'APP_ID', required: true, help: 'the application whose key to roll (app_...)' },
    'expire-current-in-seconds': {
      type: 'string',
      value: 'N',
      help: `how long the current keys keep working, 0 to ${MAX_KEY_OVERLAP_SECONDS} s (default ${DEFAULT_KEY_OVERLAP_SECONDS}, a day; 0: they stop now, for a leaked key)`,
    },
  },
  examples: ['npm run app:roll-key -- --app app_123', 'npm run app:roll-key -- --app app_123 --expire-current-in-seconds 0'],
} as const satisfies Command;
