import { loadConfig } from './config';
import { startServer } from './server';

const loaded = loadConfig();
if (!loaded.ok) {
  console.error(`Wallet Checkout cannot start: the configuration is invalid.\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const server = await startServer(loaded.config);
const origin = loaded.config.publicUrl ?? server.url;
server.logger.info({ url: origin, sandbox: server.sandbox !== undefined }, 'wallet checkout listening');
console.log(`\nWallet Checkout is running.\n  Demo store:  ${origin}/\n  Widget:      ${origin}/checkout.js\n`);

const shutdown = () => {
  server.close().then(() => process.exit(0), () => process.exit(1));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
