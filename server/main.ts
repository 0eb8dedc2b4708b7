import { loadConfig } from './config';
import { shutdownOnSignal } from './lifecycle';
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

// Drain, then close (docs/operations.md): /readyz 503 for SHUTDOWN_DRAIN_DELAY_MS, then payments in flight finish
// (up to SHUTDOWN_GRACE_MS). A second signal, or SHUTDOWN_TIMEOUT_MS, ends the process at once.
const shutdown = shutdownOnSignal(
  server,
  { drainDelayMs: loaded.config.shutdownDrainDelayMs, timeoutMs: loaded.config.shutdownTimeoutMs },
  server.logger,
  (code) => process.exit(code),
);
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
