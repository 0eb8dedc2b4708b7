import { join } from 'node:path';
import { createLogger, logFormatFor } from '../common/logging';
import { startBanner } from './banner';
import { loadConfig } from './config';
import { shutdownOnSignal } from './lifecycle';
import { StartupRefused, startServer } from './server';
import { describeStoreLocation } from './store';

const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Wallet Checkout cannot start: the configuration is invalid.\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const { config } = loaded;
const logger = createLogger(config.logLevel, undefined, logFormatFor(config.logFormat, config.development, process.stdout.isTTY === true));
const server = await startServer(config, logger).catch((error: unknown) => {
  if (!(error instanceof StartupRefused)) throw error;
  console.error(`Wallet Checkout cannot start: ${error.message}`);
  process.exit(2);
});
const origin = config.publicUrl ?? server.url;
server.logger.info({ url: origin, sandbox: server.sandbox !== undefined }, 'wallet checkout listening');
const embeddedSandbox = config.paymentService.kind === 'embedded-sandbox';
console.log(
  startBanner({
    origin,
    store: describeStoreLocation(config.dataDir, config.databaseUrl),
    demoCredentials: config.demo ? join(config.dataDir, 'demo-merchant.json') : undefined,
    gallery: config.demo && config.paymentService.kind !== 'real',
    embeddedSandbox,
    cwd: process.cwd(),
  }),
);

// Drain, then close (docs/operations.md): /readyz 503 for SHUTDOWN_DRAIN_DELAY_MS (Ctrl-C in development: none), then payments
// in flight finish (up to SHUTDOWN_GRACE_MS). A second signal, or SHUTDOWN_TIMEOUT_MS, ends the process at once.
const shutdown = shutdownOnSignal(
  server,
  { drainDelayMs: config.shutdownDrainDelayMs, interruptDrainDelayMs: config.interruptDrainDelayMs, timeoutMs: config.shutdownTimeoutMs },
  server.logger,
  (code) => process.exit(code),
);
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
