import { loadConfig } from './config';
import { StartupRefused, startServer } from './server';

const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Wallet Checkout cannot start: the configuration is invalid.\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const server = await startServer(loaded.config).catch((error: unknown) => {
  if (!(error instanceof StartupRefused)) throw error;
  console.error(`Wallet Checkout cannot start: ${error.message}`);
  process.exit(2);
});
const origin = loaded.config.publicUrl ?? server.url;
server.logger.info({ url: origin, sandbox: server.sandbox !== undefined }, 'wallet checkout listening');
console.log(`\nWallet Checkout is running.\n  Demo store:  ${origin}/\n  Widget:      ${origin}/checkout.js\n`);

// Graceful: payments in flight finish (up to SHUTDOWN_GRACE_MS). A second signal ends the process at once.
const shutdown = (signal: NodeJS.Signals) => {
  server.logger.info({ signal }, 'shutting down: no new requests, waiting for those in flight');
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      server.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
