/**
 * `wallet-checkout`, the Node library's command (package.json `bin`): webhooks for testers, as
 * `listen` (the application's events forwarded to a local receiver, signed) and `trigger` (an event
 * of a chosen type made by a real sandbox flow). Exit status: 0 done, 1 refused or failed (said on
 * stderr), 2 called wrong (with a pointer to --help).
 */
import { WalletCheckoutError } from '../errors';
import { Refusal, UsageError } from './connection';
import { listen } from './listen';
import { trigger } from './trigger';

const HELP = `Usage: wallet-checkout <command> [options]

Webhooks for testers, against a Wallet Checkout host (--url or WALLET_CHECKOUT_URL) with an
application's secret key (WALLET_CHECKOUT_SECRET_KEY):

  listen --forward-to <url>   forward the application's new events to a local URL, signed with a
                              secret printed at start, as the checkout signs its deliveries
  trigger <event type>        make the checkout record an event of that type by a real sandbox flow

Run wallet-checkout <command> --help for its options.`;

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return 0;
  }
  if (command === 'trigger') return trigger(rest);
  if (command !== 'listen') throw new UsageError(`no command ${command}`);
  const stop = new AbortController();
  const stopOn = (signal: NodeJS.Signals) => process.once(signal, () => stop.abort(new Error(signal)));
  stopOn('SIGINT');
  stopOn('SIGTERM');
  return listen(rest, stop.signal);
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`wallet-checkout: ${error.message}\nRun wallet-checkout --help (or wallet-checkout <command> --help) for usage.`);
    process.exitCode = 2;
  } else if (error instanceof Refusal) {
    console.error(`wallet-checkout: ${error.message}`);
    process.exitCode = 1;
  } else if (error instanceof WalletCheckoutError) {
    console.error(`wallet-checkout: ${error.code}: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
}
