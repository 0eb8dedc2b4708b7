/** `npm run sandbox` (or `node dist/server/sandbox.js`): the sandbox payment service and wallet on their own. */
import { createLogger } from '../common/logging';
import { loadSandboxConfig } from './config';
import { startSandboxServer } from './server';

const loaded = loadSandboxConfig(process.env);
if (!loaded.ok) {
  console.error(`The sandbox cannot start: the configuration is invalid.\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const { config } = loaded;
const logger = createLogger(config.logLevel);
const sandbox = await startSandboxServer({
  port: config.port,
  host: config.host,
  logger,
  dataDir: config.dataDir,
  gatewayName: config.gatewayName,
  authenticationTtlMs: config.authenticationTtlMs,
  serviceSecretKey: config.serviceSecretKey,
});
logger.info({ url: sandbox.url }, 'sandbox listening');
// A development key for a development service: printed so the backend's SANDBOX_SERVICE_KEY can be set from it; one given is not echoed.
const key = config.serviceSecretKey ? '(SANDBOX_SERVICE_KEY)' : sandbox.serviceSecretKey;
console.log(`\nThe sandbox is running.\n  Sandbox:     ${sandbox.url}\n  Service key: ${key}\n\nA backend uses it with SANDBOX_URL=${sandbox.url} SANDBOX_SERVICE_KEY=...\n`);

const shutdown = (signal: NodeJS.Signals) => {
  logger.info({ signal }, 'sandbox shutting down');
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
