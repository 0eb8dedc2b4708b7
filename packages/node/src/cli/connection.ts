/**
 * What every command of `wallet-checkout` shares: the checkout host and the application's secret key
 * (flags, or the environment variables the library's README names), turned into a client; and how a
 * command says it was called wrong.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WalletCheckout } from '../index';

/** A mistake in the command line or its settings: told with the command's help, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A command that cannot do what it was asked, for a reason it states: exit status 1, no stack. */
export class Refusal extends Error {
  override readonly name = 'Refusal';
}

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'secret-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_HELP = `Connection:
  --url <url>              the checkout host, e.g. https://checkout.example.com
                           (default: $WALLET_CHECKOUT_URL)
  --secret-key <sk_...>    the application's secret key (default: $WALLET_CHECKOUT_SECRET_KEY;
                           prefer the variable: a flag stays in your shell's history)
  -h, --help               this help`;

export interface Connection {
  client: WalletCheckout;
  /** The host's origin and path, without a trailing slash. */
  baseUrl: string;
  secretKey: string;
}

/** parseArgs, strict, its errors as a UsageError (unknown flag, missing value). */
export function parseCommandLine<Options extends ParseArgsConfig['options']>(args: string[], options: Options, positionals = false) {
  try {
    return parseArgs({ args, options: { ...CONNECTION_OPTIONS, ...options }, strict: true, allowPositionals: positionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The client of the host the flags (or the environment) name; the key is never repeated in a message. */
export function connect(values: { url?: string | boolean | undefined; 'secret-key'?: string | boolean | undefined }, env: NodeJS.ProcessEnv = process.env): Connection {
  const url = stringOf(values.url) ?? env.WALLET_CHECKOUT_URL;
  const secretKey = stringOf(values['secret-key']) ?? env.WALLET_CHECKOUT_SECRET_KEY;
  if (!url) throw new UsageError('no checkout host: pass --url or set WALLET_CHECKOUT_URL');
  if (!secretKey) throw new UsageError('no secret key: set WALLET_CHECKOUT_SECRET_KEY (or pass --secret-key)');
  try {
    const client = new WalletCheckout(secretKey, { baseUrl: url });
    return { client, baseUrl: new URL(url).href.replace(/\/+$/, ''), secretKey };
  } catch {
    // The library refused one of the two (a TypeError); neither message may echo the key.
    throw new UsageError(URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)
      ? 'the secret key must be an application\'s sk_test_... or sk_live_... key (not a client secret)'
      : 'the checkout host must be an http(s) URL, e.g. https://checkout.example.com');
  }
}

const stringOf = (value: string | boolean | undefined) => (typeof value === 'string' && value !== '' ? value : undefined);
